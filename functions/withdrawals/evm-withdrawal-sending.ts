import type { ChainBlock, ChainReader, TransactionReceipt } from '../networks/chain.ts';
import { domainEvent, type DomainEvent } from '../shared/events.ts';
import { stderrLog, type Log } from '../shared/log.ts';
import { withdrawalView, type Withdrawal } from './withdrawals.ts';
import {
  complete,
  fail,
  FINISH_RESERVE_MS,
  SETTLE_RESERVE_MS,
  spendableFloat,
  stuckProcessing,
  withdrawalsIn,
  type SendResult,
  type SettleResult,
  type WithdrawalSendingStore,
} from './withdrawal-sending.ts';

/**
 * Sending withdrawals on an EVM network, where a transaction's place is its nonce: the hot wallet's
 * transactions are mined in nonce order, so a nonce used twice loses a payout and a nonce never
 * used holds up every one behind it (../shared/networks.md).
 *
 * - Nonces are allocated by a conditional write, never by asking the node: one sequence per
 *   (network, hot wallet), and the write that takes nonce n (the sequence moves n → n+1, and a claim
 *   (network, wallet, n) → withdrawal is created) is the same DynamoDB transaction that stores the
 *   signed transaction and moves the withdrawal `pending → processing`. Two senders that read the
 *   same n: one write wins, the other signs again with the next. The sequence starts, once, at the
 *   node's pending count for the wallet.
 * - Only a stored transaction is broadcast. A sender that dies before its write leaves nothing (the
 *   nonce was not taken); after it, a stored transaction that settling broadcasts again on every run
 *   until a final block holds it: never a gap, never two payouts on one nonce.
 * - A stored transaction the node refuses for good (REFUSED_FOR_GOOD in
 *   functions/networks/evm/evm-payouts.ts: more gas than a block holds, say) would hold up every
 *   nonce behind it. Its nonce is filled by a transfer of nothing from the hot wallet to itself,
 *   stored on the withdrawal before it is broadcast; once the filler is final the withdrawal fails
 *   (REFUSED_BY_NODE) and its amount and fee go back to the company. If the payout itself lands
 *   instead (only one can: they share the nonce), it completes. Want of gas token is not such a
 *   refusal: the filler would need gas too, so the withdrawals wait `processing` until it is topped up.
 * - `completed` only when the receipt's block is final and still the node's block at that height;
 *   a reverted receipt fails the withdrawal with the money returned; a receipt whose block was
 *   reorganised away leaves it `processing`, and the same signed transaction is broadcast again.
 * - Fees are the node's EIP-1559 estimate under the stage's cap. A transaction stuck under a fee
 *   spike is not replaced (same nonce, higher fee) yet: the seam is settleEvmWithdrawals, which sees
 *   it unmined run after run, and the stuck-processing alarm says so meanwhile.
 */

export interface SignedPayout {
  /** The signed transaction, serialized as eth_sendRawTransaction takes it. */
  raw: string;
  txHash: string;
}

/** The network's side of sending (functions/networks/evm/evm-payouts.ts). */
export interface EvmPayouts {
  /** The hot wallet's address. */
  wallet(): Promise<string>;
  /** The node's count of the wallet's transactions, pending ones included: where the sequence starts. */
  pendingNonce(wallet: string): Promise<number>;
  /** A USDT transfer (amount in 6 decimals) signed with `nonce` and checked; null when the node
   * says it would revert (the wallet does not hold the amount, the token refuses the address). */
  signedTransfer(input: { nonce: number; to: string; amount: bigint }): Promise<SignedPayout | null>;
  /** A transfer of nothing to the wallet itself, signed with `nonce`: fills a refused one's place. */
  signedFiller(nonce: number): Promise<SignedPayout>;
  /** 'sent': the node took it or has it already. `refused`: never will, in the node's words.
   * Throws when the refusal may pass (the node unreachable, gas token short). */
  broadcast(raw: string): Promise<'sent' | { refused: string }>;
}

export interface NonceSlot {
  wallet: string;
  nonce: number;
  /** No sequence is stored for the wallet yet: this write creates it. */
  first: boolean;
}

export interface EvmSendingStore extends WithdrawalSendingStore {
  /** The wallet's next unallocated nonce, or null before its first allocation. */
  nextNonce(wallet: string): Promise<number | null>;
  /** One transaction: the sequence moves from `slot.nonce` to the next, the slot is claimed for the
   * withdrawal, and `before` becomes `after` with `event`. 'nonce-taken': another sender has the
   * nonce; 'stale': the withdrawal moved on. Either way nothing is written. */
  claimNonce(before: Withdrawal, after: Withdrawal, slot: NonceSlot, event: DomainEvent): Promise<'written' | 'nonce-taken' | 'stale'>;
}

export interface EvmSendingDeps {
  chain: Pick<ChainReader, 'finalBlock' | 'receipt'> & { blockAt(number: number): Promise<ChainBlock | null> };
  payouts: EvmPayouts;
  store: EvmSendingStore;
  /** USDT the hot wallet holds, in 6 decimals (withdrawal-sending.ts SendingDeps). */
  hotWalletUsdt?: () => Promise<bigint | null>;
  now?: () => Date;
  log?: Log;
  timeLeftMs?: () => number;
}

/** Tries at a nonce when other senders keep taking the one read: past this, the withdrawal waits
 * for the next run. */
const NONCE_ATTEMPTS = 10;

export async function sendEvmWithdrawals(deps: EvmSendingDeps): Promise<SendResult> {
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? stderrLog;
  const result: SendResult = { sent: 0, rebroadcast: 0, completed: 0, failed: 0, awaitingFloat: 0 };
  let wallet: string | undefined;
  let float: bigint | null | undefined;
  // The next nonce as this run last wrote it: read from the table again only when another sender moved it.
  let next: number | undefined;
  for await (const withdrawal of withdrawalsIn(deps, 'pending', SETTLE_RESERVE_MS)) {
    wallet ??= await deps.payouts.wallet();
    if (float === undefined) float = await spendableFloat(deps);
    if (float !== null && withdrawal.amount > float) {
      result.awaitingFloat++;
      continue;
    }
    const stored = await signAndStore(deps, withdrawal, wallet, next, now);
    if (stored === 'would-revert') {
      const failed = fail(withdrawal, 'TRANSFER_WOULD_REVERT', now());
      if (await deps.store.transition(withdrawal, failed.after, failed)) result.failed++;
      continue;
    }
    if (stored === 'moved') continue;
    next = stored.transaction!.nonce! + 1;
    result.sent++;
    if (float !== null) float -= withdrawal.amount;
    try {
      await broadcastOrFill(deps, stored, now);
    } catch (error) {
      // Stored and signed: settling broadcasts it again on a later run.
      log.error('broadcast failed; will retry', { withdrawalId: withdrawal.id, error: String(error) });
    }
  }
  return result;
}

/** Signs the transfer with the next nonce and stores it, taking the nonce: the processing
 * withdrawal, 'moved' when it is no longer pending (or others kept taking the nonces), or
 * 'would-revert' with nothing signed. */
async function signAndStore(deps: EvmSendingDeps, withdrawal: Withdrawal, wallet: string, known: number | undefined, now: () => Date): Promise<Withdrawal | 'moved' | 'would-revert'> {
  for (let attempt = 1; attempt <= NONCE_ATTEMPTS; attempt++) {
    const stored = attempt === 1 && known !== undefined ? known : await deps.store.nextNonce(wallet);
    const nonce = stored ?? (await deps.payouts.pendingNonce(wallet));
    const signed = await deps.payouts.signedTransfer({ nonce, to: withdrawal.address, amount: withdrawal.amount });
    if (!signed) return 'would-revert';
    const processing: Withdrawal = {
      ...withdrawal,
      status: 'processing',
      txHash: signed.txHash,
      transaction: { signed: signed.raw, expiresAt: null, broadcastAt: null, nonce },
      updatedAt: now().toISOString(),
    };
    const event = domainEvent(withdrawal.companyId, 'withdrawal.processing', withdrawalView(processing), now());
    const answer = await deps.store.claimNonce(withdrawal, processing, { wallet, nonce, first: stored === null }, event);
    if (answer === 'written') return processing;
    if (answer === 'stale') return 'moved';
  }
  (deps.log ?? stderrLog).warn('other senders kept taking the next nonce; left for the next run', { withdrawalId: withdrawal.id });
  return 'moved';
}

/** Broadcasts the withdrawal's transaction (its filler, once it has one); a payout the node
 * refuses for good gets its nonce filled, the filler stored before it is broadcast. */
async function broadcastOrFill(deps: EvmSendingDeps, withdrawal: Withdrawal, now: () => Date): Promise<void> {
  const transaction = withdrawal.transaction!;
  const answer = await deps.payouts.broadcast(transaction.filler?.signed ?? transaction.signed);
  if (answer === 'sent') return;
  if (transaction.filler) throw new Error(`the node refuses the nonce filler too: ${answer.refused}`);
  (deps.log ?? stderrLog).error('the node refuses the payout for good; filling its nonce', { withdrawalId: withdrawal.id, nonce: transaction.nonce, refusal: answer.refused });
  const filler = await deps.payouts.signedFiller(transaction.nonce!);
  const filling: Withdrawal = {
    ...withdrawal,
    transaction: { ...transaction, filler: { signed: filler.raw, txHash: filler.txHash, refusal: answer.refused } },
    updatedAt: now().toISOString(),
  };
  if (await deps.store.transition(withdrawal, filling, { entry: null, event: null })) await deps.payouts.broadcast(filler.raw);
}

/** A transaction's receipt as the node has it now, and whether it counts: its block final and
 * still the node's block at that height. */
async function landing(deps: EvmSendingDeps, txHash: string, final: ChainBlock): Promise<{ seen: TransactionReceipt | null; final: boolean }> {
  const seen = await deps.chain.receipt(txHash);
  if (!seen || seen.blockNumber > final.number) return { seen, final: false };
  const block = await deps.chain.blockAt(seen.blockNumber);
  return { seen, final: block !== null && block.hash === seen.blockHash };
}

/** Settles what was sent, by final receipts, and broadcasts again every stored transaction the
 * node does not show mined (lost before its broadcast, dropped from the pool, or in a block that
 * a reorganisation removed). */
export async function settleEvmWithdrawals(deps: EvmSendingDeps): Promise<SettleResult> {
  const now = deps.now ?? (() => new Date());
  const result: SettleResult = { sent: 0, rebroadcast: 0, completed: 0, failed: 0, awaitingFloat: 0, stuck: { count: 0, oldestAgeSeconds: 0 } };
  let final: ChainBlock | undefined;
  const remaining: Withdrawal[] = [];
  for await (const withdrawal of withdrawalsIn(deps, 'processing', FINISH_RESERVE_MS)) {
    final ??= await deps.chain.finalBlock();
    const filler = withdrawal.transaction!.filler;
    const own = await landing(deps, withdrawal.txHash!, final);
    const filled = filler && !own.seen ? await landing(deps, filler.txHash, final) : null;
    const settled = own.final
      ? own.seen!.result === 'SUCCESS'
        ? complete(withdrawal, now())
        : fail(withdrawal, own.seen!.result, now())
      : filled?.final
        ? fail(withdrawal, 'REFUSED_BY_NODE', now())
        : null;
    if (settled) {
      if (await deps.store.transition(withdrawal, settled.after, settled)) {
        if (settled.after.status === 'completed') result.completed++;
        else result.failed++;
      }
      continue;
    }
    remaining.push(withdrawal);
    if (own.seen || filled?.seen) continue; // in a block, not yet final
    try {
      await broadcastOrFill(deps, withdrawal, now);
      result.rebroadcast++;
    } catch (error) {
      (deps.log ?? stderrLog).error('rebroadcast failed; will retry', { withdrawalId: withdrawal.id, error: String(error) });
    }
  }
  result.stuck = stuckProcessing(remaining, now());
  return result;
}
