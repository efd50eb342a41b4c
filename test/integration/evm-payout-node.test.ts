import { keccak256, parseGwei, parseTransaction, type Address, type Hex, type TransactionSerialized } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { EvmChain } from '#functions/networks/evm/evm-chain';
import { EvmPayoutNode } from '#functions/networks/evm/evm-payouts';
import { broadcastOrFill, type ReplaceableTransaction } from '#functions/networks/evm/nonce-sequence';
import { localEvmSigner } from '#functions/networks/evm/signer';
import type { Log } from '#functions/shared/log';
import { useScriptedServer, type ScriptedReply, type SeenRequest } from '../support/scripted-server.ts';

/**
 * The hot wallet's signing and broadcasting on an EVM network (functions/networks/evm/evm-payouts.ts,
 * nonce-sequence.ts broadcastOrFill) against a scripted JSON-RPC node: one whose eth_chainId fails
 * or names another chain, and one that takes gas as Arbitrum's Nitro does, refusing a gas limit
 * under what the transaction needs with its L1 data cost ("intrinsic gas too low"), which a plain
 * transfer's 21,000 does not cover.
 */
const CHAIN_ID = 42161;
const USDT = '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9';
const key = generatePrivateKey();
const wallet = privateKeyToAccount(key).address;
const quiet: Log = { warn: () => {}, error: () => {} };
const rpc = useScriptedServer();

/** The scripted node's state: what it answers and what it took. */
interface Node {
  /** What eth_chainId answers; 'down': HTTP 500, whatever the retries. */
  chainId: number | 'down';
  /** The least gas a transaction needs here (intrinsic, with the L1 data cost): under it, refused. */
  needs: bigint;
  /** What eth_estimateGas answers: for a transfer of nothing to the wallet, and for any other call. */
  estimates: { plain: bigint; call: bigint };
  /** A refusal for good of every call to USDT (a payout), in the node's words; null: none. */
  refusesPayouts: string | null;
  /** The same of transfers of nothing (fillers). */
  refusesFillers: string | null;
  /** Transactions taken, parsed. */
  taken: ReturnType<typeof parseTransaction>[];
}

function scriptedNode(): Node {
  const node: Node = { chainId: CHAIN_ID, needs: 30_000n, estimates: { plain: 27_000n, call: 60_000n }, refusesPayouts: null, refusesFillers: null, taken: [] };
  const hex = (value: number | bigint) => `0x${value.toString(16)}`;
  const answer = (call: { id: number; method: string; params?: unknown[] }): { result?: unknown; error?: { code: number; message: string } } => {
    switch (call.method) {
      case 'eth_chainId':
        return { result: hex(node.chainId as number) };
      case 'eth_getBlockByNumber':
        return { result: { number: '0x64', hash: `0x${'11'.repeat(32)}`, parentHash: `0x${'10'.repeat(32)}`, timestamp: '0x64', baseFeePerGas: hex(parseGwei('0.01')), gasLimit: hex(32_000_000), gasUsed: '0x0', transactions: [] } };
      case 'eth_maxPriorityFeePerGas':
        return { result: '0x0' };
      case 'eth_estimateGas': {
        const [request] = call.params as [{ to: string; data?: string; input?: string }];
        const data = request.data ?? request.input;
        return { result: hex(data && data !== '0x' ? node.estimates.call : node.estimates.plain) };
      }
      case 'eth_sendRawTransaction': {
        const transaction = parseTransaction((call.params as [Hex])[0] as TransactionSerialized);
        const payout = transaction.to?.toLowerCase() === USDT.toLowerCase();
        const refusal = payout ? node.refusesPayouts : node.refusesFillers;
        if (refusal) return { error: { code: -32000, message: refusal } };
        if (transaction.gas! < node.needs) return { error: { code: -32000, message: 'intrinsic gas too low' } };
        node.taken.push(transaction);
        return { result: `0x${'00'.repeat(32)}` };
      }
      default:
        return { error: { code: -32601, message: `the method ${call.method} does not exist/is not available` } };
    }
  };
  rpc.script = (request: SeenRequest): ScriptedReply => {
    const calls = (Array.isArray(request.body) ? request.body : [request.body]) as { id: number; method: string; params?: unknown[] }[];
    if (node.chainId === 'down' && calls.some((call) => call.method === 'eth_chainId')) return { status: 500, body: 'internal server error' };
    const answers = calls.map((call) => ({ jsonrpc: '2.0', id: call.id, ...answer(call) }));
    return { body: Array.isArray(request.body) ? answers : answers[0] };
  };
  return node;
}

/** The network's payouts as the jobs build them (from-settings.ts evmPayoutsOf), over the scripted node. */
function payoutNode(): EvmPayoutNode {
  const chain = new EvmChain({ rpcUrl: rpc.baseUrl, rpcTimeoutMs: 2_000, finalizedTag: true, confirmations: 1, maxBlockRange: 1_000, tokenDecimals: 6, tokenControls: 'tether' });
  return new EvmPayoutNode({
    chainId: CHAIN_ID,
    rpcUrl: rpc.baseUrl,
    rpcTimeoutMs: 2_000,
    usdtContract: USDT,
    forwarderFactory: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    tokenDecimals: 6,
    maxFeePerGas: parseGwei('10'),
    feeMarket: 'eip1559',
    signer: localEvmSigner(key.slice(2)),
    broadcaster: chain,
  });
}

/** A stored payout on `nonce` and how broadcasting leaves it, written as the sender's store would
 * (a record held in memory: every version stored replaces it). */
function storedPayout(payouts: EvmPayoutNode, signed: { raw: string; txHash: string }, nonce: number) {
  const held: { record: ReplaceableTransaction } = { record: { signed: signed.raw, txHash: signed.txHash, nonce, filler: null, broadcastAt: new Date().toISOString() } };
  const broadcast = (record: ReplaceableTransaction): Promise<unknown> =>
    broadcastOrFill(payouts, record, () => new Date(), {
      log: quiet,
      fields: {},
      storeFiller: async (filler) => (held.record = { ...record, filler }),
      storeVersion: async (next) => (held.record = { ...record, ...next, filler: next.filler ?? null }),
      broadcast,
    });
  return { held, broadcast: () => broadcast(held.record) };
}

const gasOf = (raw: string) => parseTransaction(raw as TransactionSerialized).gas!;
/** What makes a transaction a filler, and its gas (a value of 0 is left out of the encoding). */
const fillerOf = (transaction: ReturnType<typeof parseTransaction>) => ({ nonce: transaction.nonce, to: transaction.to?.toLowerCase(), value: transaction.value ?? 0n, gas: transaction.gas });

describe("the node's chain id", () => {
  it('an eth_chainId that fails at the first signing does not refuse every later one: the next signing asks again and goes', async () => {
    const node = scriptedNode();
    const payouts = payoutNode();
    node.chainId = 'down';
    await expect(payouts.signedFiller(0)).rejects.toThrow();
    node.chainId = CHAIN_ID;
    const signed = await payouts.signedFiller(0);
    expect(parseTransaction(signed.raw as TransactionSerialized)).toMatchObject({ chainId: CHAIN_ID, nonce: 0 });
  });

  it("a node of another chain is signed nothing for, until it answers the network's chain id", async () => {
    const node = scriptedNode();
    const payouts = payoutNode();
    node.chainId = 1;
    await expect(payouts.signedFiller(0)).rejects.toThrow(/chain id 1, not the network's 42161/);
    node.chainId = CHAIN_ID;
    expect(parseTransaction((await payouts.signedFiller(0)).raw as TransactionSerialized).chainId).toBe(CHAIN_ID);
  });
});

describe('gas on a chain whose gas limit covers the L1 data cost (Arbitrum)', () => {
  it("a nonce filler is signed with the node's estimate and a margin, never under 21,000: the node takes it where 21,000 is too little", async () => {
    const node = scriptedNode();
    const payouts = payoutNode();
    const filler = await payouts.signedFiller(3);
    expect(gasOf(filler.raw)).toBe((27_000n * 125n) / 100n);
    expect(await payouts.broadcast(filler.raw)).toBe('sent');
    // Where the estimate is a plain transfer's, the filler's limit is at least that.
    node.estimates.plain = 20_000n;
    expect(gasOf((await payouts.signedFiller(3)).raw)).toBe(25_000n);
    node.estimates.plain = 10_000n;
    expect(gasOf((await payouts.signedFiller(3)).raw)).toBe(21_000n);
  });

  it('a payout refused for good gets its nonce filled by a filler the node takes', async () => {
    const node = scriptedNode();
    const payouts = payoutNode();
    const payout = (await payouts.signedTransfer({ nonce: 7, to: privateKeyToAccount(generatePrivateKey()).address, amount: 5_000_000n }))!;
    node.refusesPayouts = 'exceeds block gas limit';
    const stored = storedPayout(payouts, payout, 7);
    await stored.broadcast();
    const filler = stored.held.record.filler!;
    expect(filler).toMatchObject({ refusal: 'exceeds block gas limit' });
    expect(node.taken).toHaveLength(1);
    expect(fillerOf(node.taken[0]!)).toEqual({ nonce: 7, to: wallet.toLowerCase(), value: 0n, gas: (27_000n * 125n) / 100n });
  });

  it("a payout the node wants more gas for (the L1 data cost rose since it was signed) is signed again on its nonce with more, not filled: it goes", async () => {
    const node = scriptedNode();
    const payouts = payoutNode();
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const payout = (await payouts.signedTransfer({ nonce: 9, to, amount: 5_000_000n }))!;
    const signedWith = gasOf(payout.raw);
    // L1's price up: the transfer now needs more than it was signed with, and the node estimates so.
    node.needs = signedWith + 40_000n;
    node.estimates.call = signedWith + 30_000n;
    expect(await payouts.broadcast(payout.raw)).toEqual({ gasTooLow: expect.stringMatching(/intrinsic gas too low/) });

    const stored = storedPayout(payouts, payout, 9);
    await stored.broadcast();
    const { record } = stored.held;
    expect(record).toMatchObject({ filler: null, replacedTxHashes: [payout.txHash], broadcastAt: null, nonce: 9 });
    expect(node.taken).toHaveLength(1);
    const [before, after] = [parseTransaction(payout.raw as TransactionSerialized), node.taken[0]!];
    expect({ nonce: after.nonce, to: after.to, data: after.data, maxFeePerGas: after.maxFeePerGas }).toEqual({ nonce: 9, to: before.to, data: before.data, maxFeePerGas: before.maxFeePerGas });
    // The estimate with the transfer's margin for an emptied recipient, as when first signed.
    expect(after.gas).toBe(((signedWith + 30_000n + 17_100n) * 125n) / 100n);
    expect(record.txHash).not.toBe(payout.txHash);
  });

  it('a stored filler the node refuses for too little gas (a 21,000 one) is signed again with more: the nonce is filled', async () => {
    const node = scriptedNode();
    const payouts = payoutNode();
    const payout = (await payouts.signedTransfer({ nonce: 4, to: privateKeyToAccount(generatePrivateKey()).address, amount: 1_000_000n }))!;
    const signer = localEvmSigner(key.slice(2));
    const fees = parseTransaction(payout.raw as TransactionSerialized);
    const old = await signer.signTransaction({ type: 'eip1559', chainId: CHAIN_ID, nonce: 4, to: wallet as Address, value: 0n, gas: 21_000n, maxFeePerGas: fees.maxFeePerGas!, maxPriorityFeePerGas: fees.maxPriorityFeePerGas! });
    const oldHash = keccak256(old);
    node.refusesPayouts = 'exceeds block gas limit';
    const stored = storedPayout(payouts, payout, 4);
    stored.held.record = { ...stored.held.record, filler: { signed: old, txHash: oldHash, refusal: 'exceeds block gas limit', broadcastAt: new Date().toISOString() } };
    await stored.broadcast();
    const filler = stored.held.record.filler!;
    expect(filler).toMatchObject({ replacedTxHashes: [oldHash], refusal: 'exceeds block gas limit' });
    expect(node.taken).toHaveLength(1);
    expect(fillerOf(node.taken[0]!)).toEqual({ nonce: 4, to: wallet.toLowerCase(), value: 0n, gas: (27_000n * 125n) / 100n });
    expect(filler.txHash).not.toBe(oldHash);
  });

  it('a filler the node refuses for good is not taken for filled: broadcasting throws, and the next run tries again', async () => {
    const node = scriptedNode();
    const payouts = payoutNode();
    const payout = (await payouts.signedTransfer({ nonce: 5, to: privateKeyToAccount(generatePrivateKey()).address, amount: 1_000_000n }))!;
    node.refusesPayouts = 'exceeds block gas limit';
    node.refusesFillers = 'transaction type not supported';
    const stored = storedPayout(payouts, payout, 5);
    await expect(stored.broadcast()).rejects.toThrow(/refuses the nonce filler too: transaction type not supported/);
    expect(node.taken).toHaveLength(0);
  });
});
