import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { base58 } from '@scure/base';
import {
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Blockhash,
} from '@solana/kit';
import { getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import { usdtAccountOf, type SolanaNode } from '#local/solana-node';

/**
 * The Solana scanner scenario's chain (scenarios/solana-scanner.ts): slots of real USDT transfers on
 * the local node (local/solana-node.ts, the real runtime behind JSON-RPC), each signed by the node's
 * customer wallet as a wallet pays (the payee's associated token account created when missing, then
 * transferChecked into it), one transaction a transfer; and a proxy in front of the node that adds
 * what a mainnet provider has: a round trip per request, blocks of mainnet's size.
 */

/** Kinds of synthetic address: the first of the 32 bytes, so no two kinds ever collide. */
export const SOLANA_ADDRESS_KIND = { deposit: 0xde, stranger: 0x5e } as const;

/** The n-th address of a kind: 32 bytes (the kind, zeros, n big-endian in the last 4) in base58.
 * An owner need not be an Ed25519 point: the Associated Token Account program derives and creates
 * an account for any 32 bytes, and the scanner only derives. */
export function syntheticSolanaAddress(kind: number, n: number): Address {
  const bytes = new Uint8Array(32);
  bytes[0] = kind;
  new DataView(bytes.buffer).setUint32(28, n);
  return address(base58.encode(bytes));
}

export interface SlotPlan {
  /** Slots to fill, one after the other. */
  slots: number;
  /** The first is the slot after the node's current one (the current was scanned already); else
   * the current one (the last fill's trailing slot, left unscanned). */
  advanceFirst: boolean;
  transfersPerSlot: number;
  /** Every `hitEvery`th slot's first transfer pays the next of `hitAddresses`; the rest pay strangers. */
  hitEvery: number;
  hitAddresses: readonly string[];
  /** The first stranger's number (strangers are distinct across plans). */
  firstStranger: number;
}

export interface LoadedSlots {
  /** The first and last slot holding transfers. */
  firstSlot: number;
  lastSlot: number;
  transactions: number;
  hits: number;
  /** Strangers used (the next plan's firstStranger is firstStranger + this). */
  strangers: number;
  seconds: number;
}

/**
 * Fills `plan.slots` slots with USDT transfers from the node's customer wallet, advancing the node
 * a slot between them (slotIntervalMs null: slots move only here) and once after the last, so every
 * filled slot is past when the scan reads it. Every transaction goes through the node's preflight:
 * one that would fail is refused here, not landed with an error.
 */
export async function fillSlots(node: SolanaNode, plan: SlotPlan, hitsUsed: number): Promise<LoadedSlots> {
  const started = performance.now();
  const rpc = createSolanaRpc(node.url);
  const payer = node.customer.signer;
  const source = node.customer.usdtAccount;
  let hits = 0;
  let strangers = 0;
  let transactions = 0;
  let firstSlot = -1;
  for (let s = 0; s < plan.slots; s++) {
    if (s > 0 || plan.advanceFirst) node.advanceSlots(1);
    const slot = Number(node.slot());
    if (firstSlot < 0) firstSlot = slot;
    const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    const payees = Array.from({ length: plan.transfersPerSlot }, (_, t) => {
      if (t === 0 && s % plan.hitEvery === 0) {
        const hit = plan.hitAddresses[hitsUsed + hits++];
        if (!hit) throw new Error(`fillSlots: only ${plan.hitAddresses.length} paid addresses, ${hitsUsed + hits} needed`);
        return address(hit);
      }
      return syntheticSolanaAddress(SOLANA_ADDRESS_KIND.stranger, plan.firstStranger + strangers++);
    });
    const wires = await Promise.all(payees.map(async (owner, t) => {
      const destination = await usdtAccountOf(owner);
      // A distinct amount per transfer of the slot: the same payee and amount twice on one
      // blockhash would be the same transaction.
      const amount = 1_000_000n + BigInt(s * plan.transfersPerSlot + t);
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (draft) => setTransactionMessageFeePayerSigner(payer, draft),
        (draft) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: lifetime.blockhash as Blockhash, lastValidBlockHeight: lifetime.lastValidBlockHeight }, draft),
        (draft) =>
          appendTransactionMessageInstructions(
            [
              getCreateAssociatedTokenIdempotentInstruction({ payer, ata: destination, owner, mint: node.mint }),
              getTransferCheckedInstruction({ source, mint: node.mint, destination, authority: payer, amount, decimals: node.usdtDecimals }),
            ],
            draft,
          ),
      );
      return getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message));
    }));
    const answers = await sendBatch(node.url, wires);
    const refused = answers.filter((answer) => answer.error);
    if (refused.length) throw new Error(`fillSlots: the node refused ${refused.length} of slot ${slot}'s transactions: ${JSON.stringify(refused[0]!.error)}`);
    transactions += wires.length;
  }
  // Past: the scan reads up to the node's current slot, which still takes transactions. This
  // trailing slot stays empty unless the next fill starts in it (advanceFirst false).
  node.advanceSlots(1);
  return { firstSlot, lastSlot: firstSlot + plan.slots - 1, transactions, hits, strangers, seconds: (performance.now() - started) / 1000 };
}

/** sendTransaction for each wire transaction, in one JSON-RPC batch (through node:http, not fetch:
 * the scenario counts the scanner's fetch calls alone). */
async function sendBatch(url: string, wires: string[]): Promise<{ result?: string; error?: unknown }[]> {
  const body = JSON.stringify(wires.map((wire, id) => ({ jsonrpc: '2.0', id, method: 'sendTransaction', params: [wire, { encoding: 'base64', preflightCommitment: 'confirmed' }] })));
  return JSON.parse(await post(url, body)) as { result?: string; error?: unknown }[];
}

function post(url: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // A connection of its own each time (agent: false): the node's server closes idle ones after
    // 5 s, which a reused one could meet mid-request.
    const outgoing = httpRequest(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** What the proxy in front of the node does to its answers. */
export interface ProxyOptions {
  /** Each answer is held until this long after the request came (0: at once). */
  latencyMs: number;
  /** Every block getBlock answers (transactionDetails `accounts`) is padded to a mainnet block's
   * size with transactions that move no USDT (mainnetBlockFiller). */
  mainnetBlocks: boolean;
}

/** A mainnet block's transactions besides the USDT transfers: some 1,000 votes and 300 others
 * (swaps, other tokens' transfers), 2024–2025. */
export const MAINNET_FILLER = { voteSized: 1000, tokenSized: 300 } as const;
/** USDC's mint on mainnet: the filler's token transactions move it, not USDT. */
const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
/** A System transfer as the node's getBlock writes it with transactionDetails `accounts` (660
 * bytes): the size and shape of a vote transaction (three accounts, no token balances). */
const VOTE_SIZED_TRANSACTION = {
  transaction: {
    signatures: ['2DGoNs5q7kJXY9S7YvcY1gRPtfd8PWkcLEKK3iCJsvXpGnLLASjSNZowd5ZqT2KRKmjQvJEXjbqULE3T9z4FgC79'],
    accountKeys: [
      { pubkey: '4WAbYhAscgHrVH4XzGrrfMJ9vLWLkcapWbVT3XbpeG8p', signer: true, writable: true, source: 'transaction' },
      { pubkey: '7CggPKsyf7SqQtnMpQkKLvrrMzhoHEymUYXq2A4GLUb6', signer: false, writable: true, source: 'transaction' },
      { pubkey: '11111111111111111111111111111111', signer: false, writable: false, source: 'transaction' },
    ],
  },
  meta: { err: null, status: { Ok: null }, fee: 5000, preBalances: [499999999000000000, 0, 1], postBalances: [499999997999995000, 1000000000, 1], preTokenBalances: [], postTokenBalances: [] },
  version: 0,
};

interface BlockTransactionJson {
  meta: { preTokenBalances?: { mint: string }[]; postTokenBalances?: { mint: string }[] } | null;
}

/**
 * The transactions a mainnet block holds besides those of the local one: MAINNET_FILLER.voteSized
 * System transfers (a vote's size) and MAINNET_FILLER.tokenSized copies of one of the node's own
 * token transfers (`tokenTemplate`, 2.2 kB: accounts and token balances, as a swap or another
 * token's transfer has) whose balances name USDC's mint: the scanner parses all of them and finds
 * no USDT in any. About 1.3 MB of JSON a block, the low end of mainnet's 1–3 MB.
 */
function mainnetBlockFiller(tokenTemplate: BlockTransactionJson): unknown[] {
  const otherMint = JSON.parse(JSON.stringify(tokenTemplate)) as BlockTransactionJson;
  for (const balance of [...(otherMint.meta?.preTokenBalances ?? []), ...(otherMint.meta?.postTokenBalances ?? [])]) balance.mint = USDC_MINT;
  return [...Array.from({ length: MAINNET_FILLER.voteSized }, () => VOTE_SIZED_TRANSACTION), ...Array.from({ length: MAINNET_FILLER.tokenSized }, () => otherMint)];
}

export interface NodeProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * A proxy in front of the node, for what a provider on mainnet has and the local node has not: a
 * round trip per request (`latencyMs`: answers held that long), and blocks of mainnet's size
 * (`mainnetBlocks`: each getBlock answer padded with transactions that move no USDT). Its work is
 * the node's process's, not the scanner's.
 */
export async function startNodeProxy(target: string, { latencyMs, mainnetBlocks }: ProxyOptions): Promise<NodeProxy> {
  // The filler as JSON, made once from the first block with a transaction, and put at the head of
  // each block's list by splicing text: parsing and writing 1.3 MB again for every block would be
  // this bench's cost, not a provider's.
  let filler: string | undefined;
  const pad = (body: string, answer: string): string => {
    const call = JSON.parse(body) as { method?: string; params?: [unknown, { transactionDetails?: string }?] };
    if (Array.isArray(call) || call.method !== 'getBlock' || call.params?.[1]?.transactionDetails !== 'accounts') return answer;
    const list = answer.indexOf('"transactions":[');
    if (list < 0) return answer;
    const empty = answer.startsWith('"transactions":[]', list);
    if (filler === undefined) {
      if (empty) return answer;
      // The template: the block's last transaction, which pays a stranger.
      const transactions = (JSON.parse(answer) as { result: { transactions: BlockTransactionJson[] } }).result.transactions;
      filler = mainnetBlockFiller(transactions[transactions.length - 1]!)
        .map((transaction) => JSON.stringify(transaction))
        .join(',');
    }
    const at = list + '"transactions":['.length;
    return `${answer.slice(0, at)}${filler}${empty ? '' : ','}${answer.slice(at)}`;
  };
  const server = createServer((incoming: IncomingMessage, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const came = performance.now();
      const body = Buffer.concat(chunks).toString('utf8');
      post(target, body).then(
        (answer) => {
          const padded = mainnetBlocks ? pad(body, answer) : answer;
          const wait = Math.max(0, latencyMs - (performance.now() - came));
          const reply = () => outgoing.writeHead(200, { 'content-type': 'application/json' }).end(padded);
          if (wait > 0) setTimeout(reply, wait);
          else reply();
        },
        (error: unknown) => outgoing.writeHead(502).end(String(error)),
      );
    });
  });
  // A provider keeps a connection a minute or more; Node's default of 5 s races a client that reuses
  // one just as it closes ("other side closed"), which a loaded machine's slow parse makes likely.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
