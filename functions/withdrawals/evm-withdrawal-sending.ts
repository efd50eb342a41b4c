import type { ChainBlock } from '../networks/chain.ts';
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
import { broadcastOrFill, nonceOutcome, withNextNonce, type EvmReceiptReader, type NonceSequence, type NonceTransaction, type NonceSlot } from './evm-nonce-sequence.ts';

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
 *   node's pending count for the wallet; the deposit sweeps take their nonces from it too
 *   (evm-nonce-sequence.ts).
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

export interface EvmSendingStore extends WithdrawalSendingStore, NonceSequence {
  /** One transaction: the sequence moves from `slot.nonce` to the next, the slot is claimed for the
   * withdrawal, and `before` becomes `after` with `event`. 'nonce-taken': another sender has the
   * nonce; 'stale': the withdrawal moved on. Either way nothing is written. */
  claimNonce(before: Withdrawal, after: Withdrawal, slot: NonceSlot, event: DomainEvent): Promise<'written' | 'nonce-taken' | 'stale'>;
}

export interface EvmSendingDeps {
  chain: EvmReceiptReader;
  payouts: EvmPayouts;
  store: EvmSendingStore;
  /** USDT the hot wallet holds, in 6 decimals (withdrawal-sending.ts SendingDeps). */
  hotWalletUsdt?: () => Promise<bigint | null>;
  now?: () => Date;
  log?: Log;
  timeLeftMs?: () => number;
}

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
      await broadcastWithdrawal(deps, stored, now);
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
  const stored = await withNextNonce(deps.store, (wallet) => deps.payouts.pendingNonce(wallet), wallet, known, async (slot) => {
    const signed = await deps.payouts.signedTransfer({ nonce: slot.nonce, to: withdrawal.address, amount: withdrawal.amount });
    if (!signed) return 'would-revert';
    const processing: Withdrawal = {
      ...withdrawal,
      status: 'processing',
      txHash: signed.txHash,
      transaction: { signed: signed.raw, expiresAt: null, broadcastAt: null, nonce: slot.nonce },
      updatedAt: now().toISOString(),
    };
    const event = domainEvent(withdrawal.companyId, 'withdrawal.processing', withdrawalView(processing), now());
    const answer = await deps.store.claimNonce(withdrawal, processing, slot, event);
    return answer === 'written' ? processing : answer === 'stale' ? 'moved' : answer;
  });
  if (stored !== 'busy') return stored;
  (deps.log ?? stderrLog).warn('other senders kept taking the next nonce; left for the next run', { withdrawalId: withdrawal.id });
  return 'moved';
}

const nonceTransactionOf = (withdrawal: Withdrawal): NonceTransaction => ({
  signed: withdrawal.transaction!.signed,
  txHash: withdrawal.txHash!,
  nonce: withdrawal.transaction!.nonce!,
  filler: withdrawal.transaction!.filler,
});

/** Broadcasts the withdrawal's transaction, filling its nonce if the node refuses it for good. */
function broadcastWithdrawal(deps: EvmSendingDeps, withdrawal: Withdrawal, now: () => Date): Promise<void> {
  const transaction = withdrawal.transaction!;
  return broadcastOrFill(deps.payouts, nonceTransactionOf(withdrawal), (filler) => {
    (deps.log ?? stderrLog).error('the node refuses the payout for good; filling its nonce', { withdrawalId: withdrawal.id, nonce: transaction.nonce, refusal: filler.refusal });
    const filling: Withdrawal = { ...withdrawal, transaction: { ...transaction, filler }, updatedAt: now().toISOString() };
    return deps.store.transition(withdrawal, filling, { entry: null, event: null });
  });
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
    const outcome = await nonceOutcome(deps.chain, nonceTransactionOf(withdrawal), final);
    const settled = outcome.settled === null ? null : outcome.settled === 'SUCCESS' ? complete(withdrawal, now()) : fail(withdrawal, outcome.settled, now());
    if (settled) {
      if (await deps.store.transition(withdrawal, settled.after, settled)) {
        if (settled.after.status === 'completed') result.completed++;
        else result.failed++;
      }
      continue;
    }
    remaining.push(withdrawal);
    if (outcome.inBlock) continue; // in a block, not yet final
    try {
      await broadcastWithdrawal(deps, withdrawal, now);
      result.rebroadcast++;
    } catch (error) {
      (deps.log ?? stderrLog).error('rebroadcast failed; will retry', { withdrawalId: withdrawal.id, error: String(error) });
    }
  }
  result.stuck = stuckProcessing(remaining, now());
  return result;
}
