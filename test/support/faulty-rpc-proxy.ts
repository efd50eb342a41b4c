import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A JSON-RPC node that errs and lags, for the tests: an HTTP server on loopback in front of a real
 * node (anvil), which answers what the node answers except where a seeded random choice makes it a
 * provider's fault (../shared/networks.md, "The node is a provider, not a truth"):
 * - per HTTP request: an HTTP 429 or 500, or a hang past the client's timeout;
 * - per call (batches are split, faulted call by call, and answered as a batch): a JSON-RPC error
 *   (-32603 internal error, -32005 limit exceeded); a stale head (eth_blockNumber and the `latest`
 *   block a few blocks lower than the highest this proxy answered);
 * - receipts withheld: a share of the mined transactions answer null to eth_getTransactionReceipt
 *   for `withholdReceiptsMs` after the proxy first sees them mined (a backend without its index yet);
 * - a lagging backend (`lagBlocks`): it answers as of a head that many blocks behind the node's: the
 *   block number, the `latest`/`safe`/`finalized` blocks, nonce counts at `latest`/`pending`, no block
 *   and no receipt above that head, "header not found" for state and logs asked above it.
 * Faults can be changed while it runs (`set`). `counts` says how many of each it made.
 */
export interface Faults {
  /** Chances, 0 to 1, per HTTP request. */
  http429: number;
  http500: number;
  hang: number;
  /** Chances per call. */
  rpcError: number;
  staleHead: number;
  /** The share of mined transactions whose receipt is withheld, and for how long. */
  withholdReceipts: number;
  withholdReceiptsMs: number;
  /** How many blocks behind the node this backend answers; 0: not lagging. */
  lagBlocks: number;
  /** How long a hang lasts before the connection is dropped. */
  hangMs: number;
}

export interface FaultyRpcProxy {
  url: string;
  counts: Record<string, number>;
  /** Calls answered by the node (whatever the proxy then made of them), by method. */
  calls: Record<string, number>;
  set(faults: Partial<Faults>): void;
  stop(): Promise<void>;
}

const NO_FAULTS: Faults = { http429: 0, http500: 0, hang: 0, rpcError: 0, staleHead: 0, withholdReceipts: 0, withholdReceiptsMs: 0, lagBlocks: 0, hangMs: 2_000 };

/** mulberry32: a small seeded generator, so a failing run can be replayed with its seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Call = { jsonrpc: '2.0'; id: number | string | null; method: string; params?: unknown[] };
type Answer = { jsonrpc: '2.0'; id: number | string | null; result?: unknown; error?: { code: number; message: string } };

const hex = (n: number) => `0x${n.toString(16)}`;
const BLOCK_TAGS = new Set(['latest', 'safe', 'finalized', 'pending']);

export async function startFaultyRpcProxy(target: string, { seed, ...faults }: Partial<Faults> & { seed: number }): Promise<FaultyRpcProxy> {
  const random = seeded(seed);
  let current: Faults = { ...NO_FAULTS, ...faults };
  const counts: Record<string, number> = {};
  const calls: Record<string, number> = {};
  const count = (fault: string) => (counts[fault] = (counts[fault] ?? 0) + 1);
  let highestHead = 0;
  /** When a withheld transaction's receipt was first seen mined. */
  const withheldSince = new Map<string, number>();
  const released = new Set<string>();
  const hanging = new Set<ServerResponse>();

  const forward = async (body: Call[]): Promise<Answer[]> => {
    const response = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return (await response.json()) as Answer[];
  };
  const one = async (method: string, params: unknown[]): Promise<unknown> => (await forward([{ jsonrpc: '2.0', id: 1, method, params }]))[0]!.result;

  /** The call as a backend `lag` blocks behind would answer it, or null to ask the node as it is. */
  async function lagged(call: Call, head: number): Promise<Answer | null> {
    const params = call.params ?? [];
    const reply = (result: unknown): Answer => ({ jsonrpc: '2.0', id: call.id, result });
    const notFound: Answer = { jsonrpc: '2.0', id: call.id, error: { code: -32000, message: 'header not found' } };
    const blockOf = (tag: unknown): number | null => (typeof tag === 'string' && tag.startsWith('0x') ? Number(tag) : BLOCK_TAGS.has(String(tag)) || tag === undefined ? head : null);
    switch (call.method) {
      case 'eth_blockNumber':
        return reply(hex(head));
      case 'eth_getBlockByNumber': {
        const at = blockOf(params[0]);
        if (at === null) return null;
        if (at > head) return reply(null);
        return reply(await one('eth_getBlockByNumber', [hex(at), params[1] ?? false]));
      }
      case 'eth_getTransactionCount':
      case 'eth_getBalance':
      case 'eth_call':
      case 'eth_getCode': {
        // The block is the second parameter of each.
        const at = blockOf(params[1]);
        if (at === null) return null;
        if (at > head) return notFound;
        return reply(await one(call.method, [params[0], hex(at)]));
      }
      case 'eth_getLogs': {
        const filter = (params[0] ?? {}) as { toBlock?: string };
        const to = blockOf(filter.toBlock);
        return to !== null && to > head ? notFound : null;
      }
      default:
        return null;
    }
  }

  async function answer(calls_: Call[]): Promise<Answer[]> {
    const faults = current;
    const head = Number(await one('eth_blockNumber', []));
    const laggedHead = Math.max(0, head - faults.lagBlocks);
    const answers: (Answer | null)[] = await Promise.all(
      calls_.map(async (call) => {
        if (random() < faults.rpcError) {
          count('rpcError');
          return random() < 0.5
            ? { jsonrpc: '2.0' as const, id: call.id, error: { code: -32603, message: 'internal error' } }
            : { jsonrpc: '2.0' as const, id: call.id, error: { code: -32005, message: 'limit exceeded' } };
        }
        // The first head asked once there is one to go back from is always stale (where stale heads are
        // asked for at all): a run whose failover sent few head reads here still meets one. Whether there
        // is one goes by the chain's head, not by the heads this proxy has answered: a client reading
        // heads as `latest` blocks (and its block numbers elsewhere) may never have been given one here.
        const headRead = call.method === 'eth_blockNumber' || (call.method === 'eth_getBlockByNumber' && call.params?.[0] === 'latest');
        if (headRead && (random() < faults.staleHead || (faults.staleHead > 0 && !counts.staleHead)) && laggedHead > 3) {
          count('staleHead');
          // Behind the lowest head this client may have seen: the lagged one, or one this proxy gave.
          const stale = Math.max(0, Math.min(laggedHead, highestHead || laggedHead) - 1 - Math.floor(random() * 3));
          return call.method === 'eth_blockNumber'
            ? { jsonrpc: '2.0' as const, id: call.id, result: hex(stale) }
            : { jsonrpc: '2.0' as const, id: call.id, result: await one('eth_getBlockByNumber', [hex(stale), call.params?.[1] ?? false]) };
        }
        if (faults.lagBlocks > 0) {
          const instead = await lagged(call, laggedHead);
          if (instead) {
            count('lagged');
            return instead;
          }
        }
        return null;
      }),
    );
    const asked = calls_.filter((_, i) => answers[i] === null);
    const fromNode = asked.length > 0 ? await forward(asked) : [];
    const byId = new Map(fromNode.map((reply) => [reply.id, reply]));
    const out: Answer[] = [];
    for (const [i, call] of calls_.entries()) {
      calls[call.method] = (calls[call.method] ?? 0) + 1;
      let reply = answers[i] ?? byId.get(call.id)!;
      if (call.method === 'eth_getTransactionReceipt' && reply.result) {
        const receipt = reply.result as { transactionHash: string; blockNumber: string };
        const txHash = receipt.transactionHash.toLowerCase();
        if (Number(receipt.blockNumber) > laggedHead) {
          count('receiptBehindLag');
          reply = { jsonrpc: '2.0', id: call.id, result: null };
        } else if (!released.has(txHash)) {
          if (!withheldSince.has(txHash) && random() < faults.withholdReceipts) withheldSince.set(txHash, Date.now());
          const since = withheldSince.get(txHash);
          if (since !== undefined && Date.now() - since < faults.withholdReceiptsMs) {
            count('receiptWithheld');
            reply = { jsonrpc: '2.0', id: call.id, result: null };
          } else released.add(txHash);
        }
      }
      if (call.method === 'eth_blockNumber' && typeof reply.result === 'string') highestHead = Math.max(highestHead, Number(reply.result));
      out.push(reply);
    }
    return out;
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const faults = current;
        const roll = random();
        if (roll < faults.hang) {
          count('hang');
          hanging.add(response);
          setTimeout(() => {
            hanging.delete(response);
            response.destroy();
          }, faults.hangMs).unref();
          return;
        }
        if (roll < faults.hang + faults.http429) {
          count('http429');
          response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '30' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: 429, message: 'Too Many Requests' } }));
          return;
        }
        if (roll < faults.hang + faults.http429 + faults.http500) {
          count('http500');
          response.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
          return;
        }
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Call | Call[];
          const batch = Array.isArray(body);
          const answers = await answer(batch ? body : [body]);
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(batch ? answers : answers[0]));
        } catch (error) {
          response.writeHead(502, { 'content-type': 'text/plain' }).end(String(error));
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    calls,
    set: (changes) => {
      current = { ...current, ...changes };
    },
    stop: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
