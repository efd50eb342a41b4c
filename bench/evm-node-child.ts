import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeAbiParameters, encodeEventTopics, parseAbiItem, toHex, type Address, type Hex } from 'viem';
import { serveJobs } from './child-worker.ts';
import { ADDRESS_KIND, ETHEREUM_USDT_CONTRACT, syntheticEvmAddress, type EvmNodeAnswer, type EvmNodeJob, type EvmNodePlan, type EvmNodeStats } from './evm-node.ts';

/**
 * The EVM scanner scenario's node (evm-node.ts says why it is not anvil): JSON-RPC over HTTP on
 * 127.0.0.1, single calls and batches, answering from made-up blocks. Block `plan.head + k`
 * (k ≥ 1, once mined) holds `transfersPerBlock` USDT transfers, one per transaction, ABI-encoded
 * by viem as a node would serve them; blocks at or below `plan.head` hold none.
 */

const TRANSFER_EVENT = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const TRANSFER_TOPIC = encodeEventTopics({ abi: [TRANSFER_EVENT], eventName: 'Transfer' })[0];
const BLOCK_SECONDS = 12;
const GENESIS_SECONDS = Date.parse('2026-11-22T00:00:00.000Z') / 1000;
const ZERO_HASH = `0x${'0'.repeat(64)}`;

let plan: EvmNodePlan;
let head = 0;
const stats: EvmNodeStats = { httpRequests: 0, calls: {}, refusedGetLogs: 0 };
/** Each loaded block's logs, JSON-encoded once when mined (a block is asked for again by the next
 * scan's overlap and after a refused range). */
const blockLogs = new Map<number, string>();
/** Per loaded block: every how many of its transfers one pays a deposit, and the place in
 * plan.hitAddresses of the block's first paid one. */
const blockHits = new Map<number, { every: number; first: number }>();
let hitsUsed = 0;

serveJobs<EvmNodeJob & { id: number }, EvmNodeAnswer>(async (job) => {
  if (job.kind === 'start') {
    plan = job.plan;
    head = plan.head;
    return { url: await listen() };
  }
  if (job.kind === 'mine') {
    const every = job.hitEvery ?? plan.hitEvery;
    for (let k = 0; k < job.blocks; k++) {
      blockHits.set(++head, { every, first: hitsUsed });
      hitsUsed += Math.ceil(plan.transfersPerBlock / every);
      // Encoded as they are mined, before the measurement: a node's work is not the scanner's time.
      logsOfBlock(head);
    }
    return { head };
  }
  return stats;
});

function listen(): Promise<string> {
  const server = createServer(async (request, response) => {
    stats.httpRequests++;
    const body = JSON.parse(await bodyOf(request)) as RpcCall | RpcCall[];
    const answer = Array.isArray(body) ? `[${body.map(answerOf).join(',')}]` : answerOf(body);
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(answer);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

interface RpcCall {
  id: number | string;
  method: string;
  params?: unknown[];
}

/** One call's JSON answer; `result` is JSON already, so a block's logs are encoded once. */
/** `deprecated()`'s selector. */
const DEPRECATED_SELECTOR = '0x0e136b19';

function answerOf(call: RpcCall): string {
  stats.calls[call.method] = (stats.calls[call.method] ?? 0) + 1;
  const reply = (result: string) => `{"jsonrpc":"2.0","id":${JSON.stringify(call.id)},"result":${result}}`;
  const error = (code: number, message: string) => JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code, message } });
  const params = call.params ?? [];
  switch (call.method) {
    case 'eth_chainId':
      return reply(JSON.stringify(toHex(plan.chainId)));
    case 'eth_blockNumber':
      return reply(JSON.stringify(toHex(head)));
    case 'eth_getBlockByNumber': {
      const number = blockNumberOf(params[0]);
      return reply(number === null || number > head ? 'null' : JSON.stringify(blockOf(number)));
    }
    case 'eth_getTransactionReceipt':
      return reply(JSON.stringify(receiptOf(params[0] as Hex)));
    case 'eth_getLogs': {
      const filter = params[0] as { address?: string; topics?: (string | null)[]; fromBlock?: string; toBlock?: string };
      const from = blockNumberOf(filter.fromBlock ?? 'latest')!;
      const to = Math.min(head, blockNumberOf(filter.toBlock ?? 'latest')!);
      const loaded = [];
      for (let number = Math.max(from, plan.head + 1); number <= to; number++) loaded.push(number);
      if (loaded.length * plan.transfersPerBlock > plan.maxLogsPerResponse) {
        stats.refusedGetLogs++;
        // Infura's words and code for it (a range too wide for the results it holds).
        return error(-32005, `query returned more than ${plan.maxLogsPerResponse} results. Try with this block range [${toHex(from)}, ${toHex(from + Math.floor(plan.maxLogsPerResponse / plan.transfersPerBlock) - 1)}].`);
      }
      const ours = filter.address?.toLowerCase() === ETHEREUM_USDT_CONTRACT.toLowerCase() && (filter.topics?.[0] ?? TRANSFER_TOPIC) === TRANSFER_TOPIC;
      return reply(ours ? `[${loaded.map(logsOfBlock).filter(Boolean).join(',')}]` : '[]');
    }
    case 'eth_call': {
      // TetherToken's deprecated(), which the scanner reads once a minute to follow a deprecation: not deprecated.
      const { data } = (params[0] ?? {}) as { data?: string };
      if (data?.startsWith(DEPRECATED_SELECTOR)) return reply(JSON.stringify(`0x${'0'.repeat(64)}`));
      return error(-32601, `eth_call of ${data?.slice(0, 10)} is not served by this stand-in`);
    }
    default:
      return error(-32601, `the method ${call.method} does not exist/is not available`);
  }
}

function blockNumberOf(tag: unknown): number | null {
  if (tag === 'latest' || tag === 'pending') return head;
  if (tag === 'finalized') return Math.max(0, head - plan.finalizedDepth);
  if (tag === 'safe') return Math.max(0, head - Math.floor(plan.finalizedDepth / 2));
  if (tag === 'earliest') return 0;
  return typeof tag === 'string' && tag.startsWith('0x') ? Number(tag) : null;
}

const blockHash = (number: number): Hex => `0x${'b'.repeat(48)}${number.toString(16).padStart(16, '0')}`;
/** A transaction's hash says where it is: its block, then its index. */
const transactionHash = (number: number, index: number): Hex => `0x${number.toString(16).padStart(16, '0')}${index.toString(16).padStart(48, '0')}`;
const loadedTransfers = (number: number) => (number > plan.head && number <= head ? plan.transfersPerBlock : 0);

function blockOf(number: number) {
  return {
    number: toHex(number),
    hash: blockHash(number),
    parentHash: number > 0 ? blockHash(number - 1) : ZERO_HASH,
    timestamp: toHex(GENESIS_SECONDS + (number - plan.head) * BLOCK_SECONDS),
    miner: syntheticEvmAddress(ADDRESS_KIND.payer, 0),
    gasLimit: toHex(36_000_000),
    gasUsed: toHex(loadedTransfers(number) * 45_000),
    baseFeePerGas: toHex(1_000_000_000),
    transactions: Array.from({ length: loadedTransfers(number) }, (_, index) => transactionHash(number, index)),
  };
}

/** Transfer `index` of loaded block `number`: every block's `every`th to the next paid deposit address. */
function transferLog(number: number, index: number) {
  const k = number - plan.head - 1;
  const n = k * plan.transfersPerBlock + index;
  const { every, first } = blockHits.get(number)!;
  const to = index % every === 0 ? (plan.hitAddresses[first + index / every] as Address) : syntheticEvmAddress(ADDRESS_KIND.stranger, n);
  const from = syntheticEvmAddress(ADDRESS_KIND.payer, n);
  return {
    address: ETHEREUM_USDT_CONTRACT.toLowerCase(),
    topics: encodeEventTopics({ abi: [TRANSFER_EVENT], eventName: 'Transfer', args: { from, to } }),
    // 1.5 to 1,000.5 USDT (6 decimals).
    data: encodeAbiParameters([{ type: 'uint256' }], [BigInt((n % 1000) + 1) * 1_000_000n + 500_000n]),
    blockNumber: toHex(number),
    blockHash: blockHash(number),
    transactionHash: transactionHash(number, index),
    transactionIndex: toHex(index),
    logIndex: toHex(index),
    removed: false,
  };
}

function logsOfBlock(number: number): string {
  let logs = blockLogs.get(number);
  if (logs === undefined) {
    logs = Array.from({ length: loadedTransfers(number) }, (_, index) => JSON.stringify(transferLog(number, index))).join(',');
    blockLogs.set(number, logs);
  }
  return logs;
}

function receiptOf(hash: Hex) {
  const number = Number.parseInt(hash.slice(2, 18), 16);
  const index = Number.parseInt(hash.slice(18), 16);
  if (hash.length !== 66 || !(index < loadedTransfers(number))) return null;
  const log = transferLog(number, index);
  return {
    transactionHash: hash,
    transactionIndex: log.transactionIndex,
    blockHash: log.blockHash,
    blockNumber: log.blockNumber,
    from: syntheticEvmAddress(ADDRESS_KIND.payer, (number - plan.head - 1) * plan.transfersPerBlock + index),
    to: log.address,
    cumulativeGasUsed: toHex((index + 1) * 45_000),
    gasUsed: toHex(45_000),
    effectiveGasPrice: toHex(1_000_000_000),
    contractAddress: null,
    logs: [log],
    logsBloom: `0x${'0'.repeat(512)}`,
    status: '0x1',
    type: '0x2',
  };
}
