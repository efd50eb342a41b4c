import { readable, type ChainBlock, type ChainReader, type NonceFiller, type TransactionReceipt } from '../chain.ts';

export type { NonceFiller } from '../chain.ts';
import type { Log } from '../../shared/log.ts';

/**
 * The hot wallet's one nonce sequence on an EVM network, shared by everything it signs: withdrawals
 * and split forwards (functions/networks/evm/withdrawal-sending.ts) and the batch sweeps of deposit forwarders
 * (functions/networks/evm/sweeps.ts). Each signs with the next nonce and stores its signed
 * transaction in the same DynamoDB transaction that moves the sequence on and claims the nonce, so
 * a sweep and a withdrawal can never hold the same nonce: one write wins, the other signs again.
 */

/** A transaction signed by the hot wallet, serialized as eth_sendRawTransaction takes it. */
export interface SignedPayout {
  raw: string;
  txHash: string;
}

/** A transaction's next version; `capReached` when the fees a replacement needs exceed the cap (wei
 * per gas); null when it is not to be replaced now (an earlier nonce holds it up, not its price). */
export type Replacement = SignedPayout | { capReached: { offered: bigint; needed: bigint; cap: bigint } } | null;

/** What broadcasting a stored transaction needs of the network (functions/networks/evm/evm-payouts.ts). */
export interface NonceBroadcaster {
  /** 'sent': the node took it or has it already. `refused`: never will, in the node's words.
   * `gasTooLow`: not with its gas limit ("intrinsic gas too low"), which more gas may cure. Throws
   * when the refusal may pass (the node unreachable, gas token short). */
  broadcast(raw: string): Promise<'sent' | { refused: string } | { gasTooLow: string }>;
  /** A transfer of nothing to the wallet itself, signed with `nonce`, its gas estimated: fills a
   * refused one's place. */
  signedFiller(nonce: number): Promise<SignedPayout>;
  /** The signed transaction `raw` again, same nonce, call and fees, with more gas; null when no
   * more gas would get it mined (its call would revert, or a block cannot hold it). */
  signedWithMoreGas(raw: string): Promise<SignedPayout | null>;
}

export interface NonceSlot {
  wallet: string;
  nonce: number;
  /** No sequence is stored for the wallet yet: this write creates it. */
  first: boolean;
  /** The stored sequence's next nonce when `nonce` is past it: the wallet sent outside Cambio, in
   * final blocks, on nonces the sequence never gave out, and the sequence jumps over them (from
   * this value). */
  from?: number;
}

export interface NonceSequence {
  /** The wallet's next unallocated nonce, or null before its first allocation. */
  nextNonce(wallet: string): Promise<number | null>;
}

/** Tries at a nonce when other signers keep taking the one read: past this, the payout waits for
 * the next run. */
const NONCE_ATTEMPTS = 10;

/**
 * Runs `signAndStore` with the wallet's next nonce until its write takes it: 'nonce-taken' (another
 * signer stored a transaction on it first) reads the sequence again and signs afresh. `known`: the
 * next nonce as this run last wrote it, tried first without a read. 'busy': others took every
 * nonce read.
 *
 * `usedAtFinal`, the wallet's count of transactions at the final block (countAtFinal), is where the
 * sequence starts, once, and where it jumps to when it stands below: every nonce the sequence gave
 * out is below its next, so a count past it means nonces taken outside Cambio, on which a
 * transaction signed could never be mined. Only the final count: a transaction outside Cambio that
 * is in the pool, or in a block a reorganisation may still remove, can yet be dropped, and a
 * sequence moved past its nonce would leave that nonce for ever unused, every payout and sweep
 * behind it waiting (../shared/networks.md acts on final evidence alone). A nonce such a
 * transaction holds is signed on all the same: the node refuses it ("nonce too low", or as an
 * underpriced replacement) or takes it in place of the other, settling broadcasts it again while
 * the other may be dropped, and signs it again on a nonce of its own once a final block shows the
 * other at its nonce (nonceHolder).
 */
export async function withNextNonce<T>(
  sequence: NonceSequence,
  wallet: string,
  known: number | undefined,
  usedAtFinal: number,
  signAndStore: (slot: NonceSlot) => Promise<T | 'nonce-taken'>,
): Promise<T | 'busy'> {
  for (let attempt = 1; attempt <= NONCE_ATTEMPTS; attempt++) {
    const stored = attempt === 1 && known !== undefined ? known : await sequence.nextNonce(wallet);
    const jumped = stored !== null && stored < usedAtFinal;
    const answer = await signAndStore({ wallet, nonce: Math.max(stored ?? usedAtFinal, usedAtFinal), first: stored === null, ...(jumped && { from: stored }) });
    if (answer !== 'nonce-taken') return answer;
  }
  return 'busy';
}

/** How many transactions the wallet had sent as of the final block: its nonces below that are used
 * for good, whatever reorganisation comes (withNextNonce). */
export async function countAtFinal(chain: Pick<EvmReceiptReader, 'finalBlock' | 'transactionCountAt'>, wallet: string): Promise<number> {
  return chain.transactionCountAt(wallet, (await chain.finalBlock()).number);
}

/** A transaction signed on a nonce and stored, as broadcasting and settling need it. */
export interface NonceTransaction {
  /** The newest version, signed. */
  signed: string;
  txHash: string;
  /** Earlier versions on the same nonce, replaced at a higher fee: any one of them may be mined. */
  replacedTxHashes?: string[];
  nonce: number;
  /** The transfer of nothing that fills the nonce, once the node refused `signed` for good. */
  filler?: NonceFiller | null;
}

/**
 * Broadcasts the stored transaction's version in force (its filler, once it has one). 'sent': the
 * node took it (or has it already). Otherwise another version takes its place on the nonce, is
 * stored (null: the record moved on under another run) and, stored, broadcast in turn as that
 * record (`how.broadcast`, which calls this again), and the answer is 'stored-again':
 * - one the node wants more gas for ("intrinsic gas too low": on Arbitrum the L1 data cost moves)
 *   is signed again with more (`signedWithMoreGas`), the version refused kept among those replaced
 *   (withReplacement). Each time at least a margin more, under a block's gas limit: no loop.
 * - one the node refuses for good (or wants more gas for than can ever be mined) would hold up
 *   every nonce behind it: its nonce gets a filler, stored before it is broadcast, and so stored as
 *   broadcast `now`, as a transaction is at its claim. A filler the node refuses in turn is not
 *   taken for filled: it is signed again with more gas as above, or this throws.
 * Throws when the node refuses the filler for good or cannot be reached: the stored transaction is
 * broadcast again on a later run.
 */
export async function broadcastOrFill<StoredRecord>(
  payouts: NonceBroadcaster,
  stored: ReplaceableTransaction,
  now: () => Date,
  how: {
    log: Log;
    fields: { [field: string]: unknown };
    storeFiller(filler: NonceFiller): Promise<StoredRecord | null>;
    storeVersion(next: VersionFields): Promise<StoredRecord | null>;
    broadcast(record: StoredRecord): Promise<unknown>;
  },
): Promise<'sent' | 'stored-again'> {
  const current = inForce(stored);
  const answer = await payouts.broadcast(current.signed);
  if (answer === 'sent') return 'sent';
  if ('gasTooLow' in answer) {
    const more = await payouts.signedWithMoreGas(current.signed);
    if (more) {
      const saved = await how.storeVersion(withReplacement(stored, more));
      if (saved === null) return 'stored-again';
      how.log.warn(stored.filler ? "the node wants more gas for the nonce filler: signed again with more" : 'the node wants more gas for the transaction: signed again with more', {
        ...how.fields,
        nonce: stored.nonce,
        refusal: answer.gasTooLow,
        replaced: current.txHash,
        txHash: more.txHash,
      });
      await how.broadcast(saved);
      return 'stored-again';
    }
  }
  const refusal = 'refused' in answer ? answer.refused : answer.gasTooLow;
  if (stored.filler) throw new Error(`the node refuses the nonce filler too: ${refusal}`);
  const filler = await payouts.signedFiller(stored.nonce);
  const saved = await how.storeFiller({ signed: filler.raw, txHash: filler.txHash, refusal, broadcastAt: now().toISOString() });
  if (saved !== null) await how.broadcast(saved);
  return 'stored-again';
}

/** A stored transaction that is replaced at a higher fee when it waits unmined: withdrawals and
 * split forwards (functions/networks/evm/withdrawal-sending.ts) and sweeps (functions/networks/evm/sweeps.ts), so that
 * no transaction of the wallet's sequence sits under a fee spike holding up every nonce behind it. */
export interface ReplaceableTransaction extends NonceTransaction {
  /** When the node took its newest version; null until it has. */
  broadcastAt: string | null;
}

/** The version in force (the filler, once the nonce has one) was broadcast over `replaceAfterMs`
 * ago. A replacement counts from when the node took it: one it has not taken is not replaced
 * again, so a node that refuses or is unreachable cannot walk the fee up to the cap. */
export function dueForReplacement(stored: ReplaceableTransaction, now: Date, replaceAfterMs: number): boolean {
  const broadcastAt = inForce(stored).broadcastAt ?? null;
  return broadcastAt !== null && now.getTime() - Date.parse(broadcastAt) >= replaceAfterMs;
}

/** The version whose price and broadcast time count: the filler, once the nonce has one. */
const inForce = (stored: ReplaceableTransaction): { signed: string; txHash: string; broadcastAt?: string | null } => stored.filler ?? stored;

/** The stored transaction's fields once the node has taken its version in force (after a broadcast
 * answered 'sent'), or null when the time it was taken is already recorded. */
export function takenAt(stored: ReplaceableTransaction, at: Date): Pick<ReplaceableTransaction, 'filler' | 'broadcastAt'> | null {
  if (inForce(stored).broadcastAt) return null;
  const broadcastAt = at.toISOString();
  return stored.filler ? { filler: { ...stored.filler, broadcastAt }, broadcastAt: stored.broadcastAt } : { filler: null, broadcastAt };
}

/** The fields of a stored transaction that a new version of it (or of its filler) changes. */
export type VersionFields = Pick<ReplaceableTransaction, 'signed' | 'txHash' | 'replacedTxHashes' | 'filler' | 'broadcastAt'>;

/** The stored transaction with `next` in place of its version in force, the version before kept
 * among those replaced, and no broadcast time until the node takes it. */
export function withReplacement(stored: ReplaceableTransaction, next: SignedPayout): VersionFields {
  const { filler } = stored;
  if (filler) {
    const replaced: NonceFiller = { ...filler, signed: next.raw, txHash: next.txHash, broadcastAt: null, replacedTxHashes: [...(filler.replacedTxHashes ?? []), filler.txHash] };
    return { signed: stored.signed, txHash: stored.txHash, replacedTxHashes: stored.replacedTxHashes, filler: replaced, broadcastAt: stored.broadcastAt };
  }
  return { signed: next.raw, txHash: next.txHash, replacedTxHashes: [...(stored.replacedTxHashes ?? []), stored.txHash], filler: null, broadcastAt: null };
}

/**
 * The stored transaction's next version at a higher fee (`payouts.signedReplacement`): null when it
 * is not to be replaced now, 'cap-reached' when the fees it needs are above the network's cap, which
 * is logged as an error with `fields` (the job counts it, and the stack alarms on the count).
 */
export async function replacementOf(
  payouts: { signedReplacement(raw: string): Promise<Replacement> },
  stored: ReplaceableTransaction,
  log: Log,
  fields: Record<string, unknown>,
): Promise<SignedPayout | 'cap-reached' | null> {
  const current = inForce(stored);
  const next = await payouts.signedReplacement(current.signed);
  if (next === null || !('capReached' in next)) return next;
  const { offered, needed, cap } = next.capReached;
  log.error('unmined, and its replacement would exceed the fee cap: not replaced', {
    ...fields,
    txHash: current.txHash,
    ...(stored.filler && { filler: true }),
    nonce: stored.nonce,
    offeredWeiPerGas: String(offered),
    neededWeiPerGas: String(needed),
    capWeiPerGas: String(cap),
  });
  return 'cap-reached';
}

/** What became of a transaction due for replacement: replaced; not, its fees being above the cap; not
 * replaced now; or its record moved on under another run. */
export type ReplaceOutcome = 'replaced' | 'cap-reached' | 'not-replaced' | 'moved';

/**
 * Replaces a transaction waiting unmined (a payout's or a sweep's, `what`): signs its next version
 * (replacementOf), has `save` store it in place of the newest, the hashes before kept (null: another
 * run moved the record first), then broadcasts it. Stored first, so a crash leaves it for the next
 * run to send. `fields` name the record in the logs.
 */
export async function replaceUnmined<StoredRecord>(
  stored: ReplaceableTransaction,
  how: {
    payouts: { signedReplacement(raw: string): Promise<Replacement> };
    log: Log;
    what: 'payout' | 'sweep';
    fields: { [field: string]: unknown };
    save(replaced: VersionFields): Promise<StoredRecord | null>;
    broadcast(replacement: StoredRecord): Promise<void>;
  },
): Promise<ReplaceOutcome> {
  const next = await replacementOf(how.payouts, stored, how.log, how.fields);
  if (next === null) return 'not-replaced';
  if (next === 'cap-reached') return next;
  const replacement = await how.save(withReplacement(stored, next));
  if (replacement === null) return 'moved';
  how.log.warn(stored.filler ? `${how.what}'s nonce filler unmined; replaced at a higher fee` : `${how.what} unmined; replaced at a higher fee`, {
    ...how.fields,
    nonce: stored.nonce,
    replaced: stored.filler?.txHash ?? stored.txHash,
    txHash: next.txHash,
  });
  await how.broadcast(replacement);
  return 'replaced';
}

/**
 * What settling does with a transaction the node took and has not mined: replaces it at a higher fee
 * when it is due (`replace`: replaceUnmined; null, not due), else broadcasts it again as it is, which
 * a node that dropped it takes back. Counted in `result`.
 */
export async function replaceOrRebroadcast(
  replace: (() => Promise<ReplaceOutcome>) | null,
  rebroadcast: () => Promise<void>,
  result: { replaced: number; rebroadcast: number; feeCapReached: number },
): Promise<void> {
  const replaced = replace ? await replace() : 'not-replaced';
  if (replaced === 'replaced') result.replaced++;
  else if (replaced !== 'moved') {
    if (replaced === 'cap-reached') result.feeCapReached++;
    await rebroadcast();
    result.rebroadcast++;
  }
}

/** The reads settling needs: receipts, the final block, a block by height, how many transactions a
 * wallet had sent as of a block (its next nonce there), and which of a block's transactions is the
 * wallet's at a nonce. */
export type EvmReceiptReader = Pick<ChainReader, 'finalBlock' | 'receipt'> & {
  blockAt(number: number): Promise<ChainBlock | null>;
  transactionCountAt(wallet: string, blockNumber: number): Promise<number>;
  /** The hash of the wallet's transaction with `nonce` in the block at `blockNumber`; null when the
   * node shows none there (or has no such block). */
  walletTransactionIn(wallet: string, nonce: number, blockNumber: number): Promise<string | null>;
};

/**
 * Who holds a stored transaction's nonce on the final chain, when none of its versions has a
 * receipt and the wallet's count at the final block (`usedAtFinal`) says the nonce is used:
 * 'outside', a transaction Cambio did not sign (so no version of this one can ever be mined);
 * 'own', one of its versions or its filler's (mined: the node answered the receipt from a backend
 * that lags, or has no index of it); 'unknown' when the node's answers do not show it.
 *
 * A missing receipt is no proof: behind a load balancer, a receipt, a count and a block can each come
 * from another backend, one of them behind. So the holder is found and named: the first block at or
 * below the final one whose state counts the nonce used (stepping back from the final block by
 * doubling steps, then halving the gap: about twice log2 of its depth in counts, on a path a payout
 * takes only when its receipt is missing), then the wallet's transaction at that nonce in it. A
 * lagging node can answer less than the chain holds, never another transaction at a nonce in a
 * final block; a node that cannot answer counts at past blocks (a pruned one) leaves it 'unknown'.
 */
export async function nonceHolder(chain: EvmReceiptReader, wallet: string, stored: NonceTransaction, final: ChainBlock, usedAtFinal: number): Promise<'outside' | 'own' | 'unknown'> {
  if (usedAtFinal <= stored.nonce) return 'unknown';
  const used = async (blockNumber: number) => (await chain.transactionCountAt(wallet, blockNumber)) > stored.nonce;
  // used(high) holds; used(low) does not (-1: before the chain's first block).
  let high = final.number;
  let low = -1;
  for (let step = 1; high - step >= 0; step *= 2) {
    if (!(await used(high - step))) {
      low = high - step;
      break;
    }
    high -= step;
  }
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (await used(middle)) high = middle;
    else low = middle;
  }
  const holder = await chain.walletTransactionIn(wallet, stored.nonce, high);
  if (holder === null) return 'unknown';
  const own = [...(stored.replacedTxHashes ?? []), stored.txHash, ...(stored.filler ? [...(stored.filler.replacedTxHashes ?? []), stored.filler.txHash] : [])];
  return own.some((txHash) => txHash.toLowerCase() === holder.toLowerCase()) ? 'own' : 'outside';
}

/** The receipt of whichever of `txHashes` (versions on one nonce) the node has in a block, newest
 * first (the likelier), and whether it counts: its block final and still the node's block at that
 * height. */
async function landing(chain: EvmReceiptReader, txHashes: string[], final: ChainBlock): Promise<{ txHash: string; seen: TransactionReceipt | null; final: boolean }> {
  for (const txHash of [...txHashes].reverse()) {
    const seen = await chain.receipt(txHash);
    if (!seen) continue;
    // A receipt the node garbled (./chain.ts readable) settles nothing: mined, it waits for a readable one.
    if (seen.blockNumber > final.number || readable(seen) === null) return { txHash, seen, final: false };
    const block = await chain.blockAt(seen.blockNumber);
    return { txHash, seen, final: block !== null && block.hash === seen.blockHash };
  }
  return { txHash: txHashes[txHashes.length - 1]!, seen: null, final: false };
}

/**
 * How a stored transaction ended, by final receipts only: `settled` is its receipt's result
 * ('SUCCESS', or why it failed) once final, 'REFUSED_BY_NODE' once its filler is final (only one
 * of the two can land: they share the nonce), else null. `inBlock`: unsettled but mined, so not
 * to be broadcast again; otherwise (lost before its broadcast, dropped from the pool, or in a block
 * a reorganisation removed) the same signed transaction is broadcast again. `txHash`: the version
 * mined (the newest when none is).
 */
export async function nonceOutcome(
  chain: EvmReceiptReader,
  stored: NonceTransaction,
  final: ChainBlock,
): Promise<{ settled: string | null; inBlock: boolean; txHash: string; receipt?: TransactionReceipt }> {
  const own = await landing(chain, [...(stored.replacedTxHashes ?? []), stored.txHash], final);
  // `receipt`: the final one: the payout's, whose Transfer events say what it delivered, or its
  // filler's, which says what the nonce cost.
  if (own.final) return { settled: own.seen!.result, inBlock: true, txHash: own.txHash, receipt: own.seen! };
  const filled = stored.filler && !own.seen ? await landing(chain, [...(stored.filler.replacedTxHashes ?? []), stored.filler.txHash], final) : null;
  if (filled?.final) return { settled: 'REFUSED_BY_NODE', inBlock: true, txHash: own.txHash, receipt: filled.seen! };
  return { settled: null, inBlock: own.seen !== null || (filled?.seen ?? null) !== null, txHash: own.txHash };
}
