import { receivedBy, type ChainBlock } from '../chain.ts';
import { sameEvmAddress } from './evm-address.ts';
import { domainEvent, type DomainEvent } from '../../shared/events.ts';
import { stderrLog, type Log } from '../../shared/log.ts';
import { inParallel } from '../../shared/in-parallel.ts';
import { DEFAULT_REPLACE_AFTER_SECONDS } from './settings.ts';
import { withdrawalView, type Withdrawal } from '../../withdrawals/withdrawals.ts';
import { complete, fail, failSanctioned, networkCostOf, FINISH_RESERVE_MS, sanctionedNow, sendableWithdrawals, spendableFloat, stuckProcessing, withdrawalPagesIn, SETTLE_IN_FLIGHT, type SendResult, type SettleOptions, type SettleResult, type WithdrawalSendingStore } from '../../withdrawals/withdrawal-sending.ts';
import type { EvmChain } from './evm-chain.ts';
import { broadcastOrFill, countAtFinal, dueForReplacement, nonceHolder, nonceOutcome, replaceOrRebroadcast, replaceUnmined, takenAt, withNextNonce, type EvmReceiptReader, type NonceBroadcaster, type NonceSequence, type NonceSlot, type Replacement, type ReplaceableTransaction, type SignedPayout, type VersionFields } from './nonce-sequence.ts';

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
 *   wallet's count of transactions at the final block, and jumps over nonces a final block shows
 *   used outside Cambio, never over one only pending (withNextNonce); the deposit sweeps take their
 *   nonces from it too (nonce-sequence.ts).
 * - Only a stored transaction is broadcast. A sender that dies before its write leaves nothing (the
 *   nonce was not taken); after it, a stored transaction that settling broadcasts again on every run
 *   until a final block holds it: never a gap, never two payouts on one nonce.
 * - A stored transaction the node refuses for good (REFUSED_FOR_GOOD in
 *   functions/networks/evm/evm-payouts.ts: more gas than a block holds, say) would hold up every
 *   nonce behind it. Its nonce is filled by a transfer of nothing from the hot wallet to itself (its
 *   gas estimated, as Arbitrum's L1 data cost needs), stored on the withdrawal before it is
 *   broadcast; once the filler is final the withdrawal fails (REFUSED_BY_NODE) and its amount and
 *   fee go back to the company. If the payout itself lands instead (only one can: they share the
 *   nonce), it completes. Want of gas token is not such a refusal: the filler would need gas too, so
 *   the withdrawals wait `processing` until it is topped up. Nor is "intrinsic gas too low": the
 *   payout (or filler) is signed again on its nonce with more gas, stored among its versions
 *   (nonce-sequence.ts broadcastOrFill).
 * - `completed` only when the receipt's block is final and still the node's block at that height;
 *   a reverted receipt fails the withdrawal with the money returned; a receipt whose block was
 *   reorganised away leaves it `processing`, and the same signed transaction is broadcast again.
 * - Fees are the node's estimate (EIP-1559, or a legacy gasPrice where the network prices so) under
 *   the stage's cap. A payout broadcast (`broadcastAt`) and not mined `replaceAfterMs` later is
 *   replaced: the same nonce and transfer, every fee raised by more than the node requires of a
 *   replacement and at least to its estimate now, stored on the withdrawal before it is broadcast,
 *   with the hashes of the versions it replaces. Any version may be the one mined, and only one can
 *   (they share the nonce): settling reads the receipts of all, and the withdrawal completes with
 *   the hash of the one that landed. A replacement needing more than the cap is not signed: the
 *   payout waits, logged as an error and counted (`feeCapReached`, the sender's
 *   PayoutFeeCapReached metric, alarmed per network). Once the nonce has a filler, the filler is
 *   what is replaced so (nonce-sequence.ts withReplacement).
 * - A payout none of whose versions was mined, whose nonce a transaction Cambio did not sign took in
 *   a final block, is screened again (its destination listed since: it fails DESTINATION_SANCTIONED,
 *   its funds back) and signed again on a nonce of its own, or fails TRANSFER_WOULD_REVERT with its
 *   funds back if the node says the new one would revert.
 */

export type { Replacement, SignedPayout } from './nonce-sequence.ts';

/** The network's side of sending (functions/networks/evm/evm-payouts.ts). */
export interface EvmPayouts extends NonceBroadcaster {
  /** The hot wallet's address. */
  wallet(): Promise<string>;
  /** A USDT transfer (amount in 6 decimals) signed with `nonce` and checked; null when the node
   * says it would revert (the wallet does not hold the amount, the token refuses the address). */
  signedTransfer(input: { nonce: number; to: string; amount: bigint }): Promise<SignedPayout | null>;
  /** The signed transaction `raw` again at higher fees (functions/networks/evm/evm-payouts.ts). */
  signedReplacement(raw: string): Promise<Replacement>;
  /** The cap and the base fee when the cap is below it: nothing signed now could be mined. `fresh`:
   * the node's latest block now, rather than the one the run's fee estimate stood on. */
  feeCapBelowBaseFee(options?: { fresh?: boolean }): Promise<{ cap: bigint; baseFee: bigint } | null>;
}


export interface EvmSendingStore extends WithdrawalSendingStore, NonceSequence {
  /** One transaction: the sequence moves from `slot.nonce` to the next, the slot is claimed for the
   * withdrawal, and `before` becomes `after` with `event`. 'nonce-taken': another sender has the
   * nonce; 'stale': the withdrawal moved on. Either way nothing is written. */
  claimNonce(before: Withdrawal, after: Withdrawal, slot: NonceSlot, event: DomainEvent | null): Promise<'written' | 'nonce-taken' | 'stale'>;
}

export interface EvmSendingDeps {
  chain: EvmReceiptReader;
  payouts: EvmPayouts;
  store: EvmSendingStore;
  /** USDT the hot wallet holds, in 6 decimals (withdrawal-sending.ts SendingDeps), at the final
   * block: hotWalletUsdtAtFinal. */
  hotWalletUsdt?: () => Promise<bigint | null>;
  /** A payout the node took this long ago and has not mined is replaced at a higher fee
   * (EVM_NETWORKS replaceAfterSeconds). Absent: DEFAULT_REPLACE_AFTER_SECONDS. */
  replaceAfterMs?: number;
  /** The issuer's controls read again (token-standing.ts), before a payout the node says would
   * revert is failed: the run read them once at its start, and a pause or a freeze of the hot
   * wallet since makes every payout revert for the issuer's reason, not the payout's. Absent: the
   * revert is taken as the payout's. */
  usdtMayMoveNow?: () => Promise<boolean>;
  now?: () => Date;
  log?: Log;
  timeLeftMs?: () => number;
}

export interface EvmSendResult extends SendResult {
  /** Withdrawals left pending because the fee cap is below the network's base fee. */
  feeCapReached: number;
}

/**
 * The hot wallet's USDT (6 decimals) for the float, read at the final block. The float takes every
 * `processing` payout off it, and one mined but not yet final has already left the latest block's
 * balance: read there, it was taken off twice until it settled, which on Ethereum (finalized 13–19
 * minutes behind) or Arbitrum (~20) kept payouts the wallet covered waiting pending, and fired
 * HotWalletShort. At the final block each payout is taken off once; USDT that arrived since (a
 * sweep, a funding) counts once final, so the float still errs low, never high.
 */
export const hotWalletUsdtAtFinal =
  (chain: Pick<EvmChain, 'finalBlock' | 'tokenBalance'>, usdtContract: string, wallet: () => Promise<string>, unit: bigint) =>
  async (): Promise<bigint> => {
    const [final, address] = await Promise.all([chain.finalBlock(), wallet()]);
    return (await chain.tokenBalance(usdtContract, address, final.number)) / unit;
  };

export async function sendEvmWithdrawals(deps: EvmSendingDeps): Promise<EvmSendResult> {
  const now = deps.now ?? (() => new Date());
  const result: EvmSendResult = { sent: 0, rebroadcast: 0, completed: 0, failed: 0, awaitingFloat: 0, feeCapReached: 0 };
  let wallet: string | undefined;
  let float: bigint | null | undefined;
  // The next nonce as this run last wrote it: read from the table again only when another sender moved it.
  let next: number | undefined;
  let usedAtFinal: number | undefined;
  const broadcasts: Promise<void>[] = [];
  let underBaseFee: { cap: bigint; baseFee: bigint } | null | undefined;
  const underCap: string[] = [];
  try {
    for await (const withdrawal of sendableWithdrawals(deps, result)) {
      // Once a run, from the fee estimate the run's payouts are then priced by (no request more):
      // under a base fee above the cap, a payout signed now could not be mined and the node would
      // refuse it, so none takes a nonce; they wait pending, counted for the alarm, and go in the
      // first run after the base fee falls.
      // (`??=` would ask again for every payout: null, the usual answer, is nullish.)
      if (underBaseFee === undefined) underBaseFee = await deps.payouts.feeCapBelowBaseFee({ fresh: true });
      if (underBaseFee) {
        result.feeCapReached++;
        underCap.push(withdrawal.id);
        continue;
      }
      wallet ??= await deps.payouts.wallet();
      // Once a run: past the stored sequence when the wallet sent outside Cambio (withNextNonce).
      usedAtFinal ??= await countAtFinal(deps.chain, wallet);
      if (float === undefined) float = await spendableFloat(deps);
      if (float !== null && withdrawal.amount > float) {
        result.awaitingFloat++;
        continue;
      }
      const stored = await signAndStore(deps, withdrawal, wallet, next, now, usedAtFinal);
      if (stored === 'would-revert') {
        if (await controlledSince(deps)) break;
        const failed = fail(withdrawal, 'TRANSFER_WOULD_REVERT', now());
        if (await deps.store.transition(withdrawal, failed.after, failed)) result.failed++;
        continue;
      }
      if (stored === 'moved') continue;
      next = stored.transaction!.nonce! + 1;
      result.sent++;
      if (float !== null) float -= withdrawal.amount;
      // The nonces are claimed one after another, but a broadcast need not hold up the next claim:
      // it goes out while the next payout is signed and stored (a node queues a nonce that arrives
      // before the one below it). Stored and signed, one that fails is sent again by settling.
      broadcasts.push(broadcastStored(deps, stored, now));
      if (broadcasts.length >= BROADCASTS_IN_FLIGHT) await Promise.all(broadcasts.splice(0));
    }
  } finally {
    // None left running behind the run (a Lambda may be frozen with it).
    await Promise.all(broadcasts);
  }
  if (underBaseFee) logFeeCapBelowBaseFee(deps.log ?? stderrLog, underBaseFee, { pending: result.feeCapReached, withdrawalIds: underCap.slice(0, LOGGED_IDS) });
  return result;
}

/**
 * Whether the issuer paused the token or froze the hot wallet since the run read its standing: a
 * payout the node then says would revert is not failed (../shared/networks.md: withdrawals wait
 * `pending` while it lasts, and go out once each when it lifts), and the run sends nothing more.
 */
async function controlledSince(deps: EvmSendingDeps): Promise<boolean> {
  if (!deps.usdtMayMoveNow || (await deps.usdtMayMoveNow())) return false;
  (deps.log ?? stderrLog).warn("the issuer paused the token or froze the hot wallet during the run: a payout that would revert is left as it is, and nothing more is sent");
  return true;
}

/** The withdrawals a run's one fee-cap error names: the first few, the count says how many. */
const LOGGED_IDS = 20;

/** One error a run, whatever the number of payouts waiting: the alarm counts them. */
function logFeeCapBelowBaseFee(log: Log, { cap, baseFee }: { cap: bigint; baseFee: bigint }, waiting: Record<string, unknown>): void {
  log.error("the network's base fee is above the fee cap: no payout can be mined, none sent or broadcast until it falls (raise maxFeePerGasGwei to pay it)", {
    ...waiting,
    baseFeeWeiPerGas: String(baseFee),
    capWeiPerGas: String(cap),
  });
}

/** Broadcasts a run lets go out behind its claims before it waits for them. */
const BROADCASTS_IN_FLIGHT = 8;

/** Signs the transfer with the next nonce and stores it, taking the nonce: the processing
 * withdrawal, 'moved' when it is no longer pending (or others kept taking the nonces), or
 * 'would-revert' with nothing signed. */
async function signAndStore(
  deps: EvmSendingDeps,
  withdrawal: Withdrawal,
  wallet: string,
  known: number | undefined,
  now: () => Date,
  usedAtFinal: number,
): Promise<Withdrawal | 'moved' | 'would-revert'> {
  const stored = await withNextNonce(
    deps.store,
    wallet,
    known,
    usedAtFinal,
    async (slot) => {
      const signed = await deps.payouts.signedTransfer({ nonce: slot.nonce, to: withdrawal.address, amount: withdrawal.amount });
      if (!signed) return 'would-revert';
      const processing: Withdrawal = {
        ...withdrawal,
        status: 'processing',
        txHash: signed.txHash,
        // Broadcast right after this write: stored as broadcast now, so a payout costs no second write.
        transaction: { signed: signed.raw, expiresAt: null, broadcastAt: now().toISOString(), nonce: slot.nonce },
        updatedAt: now().toISOString(),
      };
      // A payout signed again (its nonce taken outside Cambio) stays processing: no event again.
      const event = withdrawal.status === 'pending' ? domainEvent(withdrawal.companyId, 'withdrawal.processing', withdrawalView(processing), now()) : null;
      const answer = await deps.store.claimNonce(withdrawal, processing, slot, event);
      return answer === 'written' ? processing : answer === 'stale' ? 'moved' : answer;
    },
  );
  if (stored !== 'busy') return stored;
  (deps.log ?? stderrLog).warn('other senders kept taking the next nonce; left for the next run', { withdrawalId: withdrawal.id });
  return 'moved';
}

const nonceTransactionOf = (withdrawal: Withdrawal): ReplaceableTransaction => ({
  signed: withdrawal.transaction!.signed,
  txHash: withdrawal.txHash!,
  replacedTxHashes: withdrawal.transaction!.replacedTxHashes,
  nonce: withdrawal.transaction!.nonce!,
  filler: withdrawal.transaction!.filler,
  broadcastAt: withdrawal.transaction!.broadcastAt,
});

/** Broadcasts a payout just stored; one that fails is only logged: stored and signed, settling
 * sends it again. */
const broadcastStored = (deps: EvmSendingDeps, withdrawal: Withdrawal, now: () => Date): Promise<void> =>
  broadcastWithdrawal(deps, withdrawal, now).catch((error: unknown) => {
    (deps.log ?? stderrLog).error('broadcast failed; will retry', { withdrawalId: withdrawal.id, error: String(error) });
  });

/** Broadcasts the withdrawal's transaction, its newest version, signing it again with more gas
 * or filling its nonce if the node refuses it (broadcastOrFill), and records when the node first
 * took a replacement. */
async function broadcastWithdrawal(deps: EvmSendingDeps, withdrawal: Withdrawal, now: () => Date): Promise<void> {
  const transaction = withdrawal.transaction!;
  const stored = nonceTransactionOf(withdrawal);
  const answer = await broadcastOrFill(deps.payouts, stored, now, {
    log: deps.log ?? stderrLog,
    fields: { withdrawalId: withdrawal.id },
    storeFiller: async (filler) => {
      (deps.log ?? stderrLog).error('the node refuses the payout for good; filling its nonce', { withdrawalId: withdrawal.id, nonce: transaction.nonce, refusal: filler.refusal });
      const filling: Withdrawal = { ...withdrawal, transaction: { ...transaction, filler }, updatedAt: now().toISOString() };
      return (await deps.store.transition(withdrawal, filling, { entry: null, event: null })) ? filling : null;
    },
    storeVersion: (next) => storedVersion(deps, withdrawal, next),
    broadcast: (again) => broadcastWithdrawal(deps, again, now),
  });
  const taken = answer === 'sent' ? takenAt(stored, now()) : null;
  if (taken) {
    await deps.store.transition(withdrawal, { ...withdrawal, transaction: { ...transaction, filler: taken.filler ?? undefined, broadcastAt: taken.broadcastAt } }, { entry: null, event: null });
  }
}

export interface EvmSettleResult extends SettleResult {
  /** Payouts replaced at a higher fee this run. */
  replaced: number;
  /** Payouts due for a replacement that the fee cap forbids: they wait, and devops is alarmed. */
  feeCapReached: number;
}

/** Settles what was sent, by final receipts, and broadcasts again every stored transaction the
 * node does not show mined (lost before its broadcast, dropped from the pool, or in a block that
 * a reorganisation removed), replacing those unmined for too long. */
export async function settleEvmWithdrawals(deps: EvmSendingDeps, { hotWalletMaySend = true }: SettleOptions = {}): Promise<EvmSettleResult> {
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? stderrLog;
  let heldBack = 0;
  const result: EvmSettleResult = { sent: 0, rebroadcast: 0, completed: 0, failed: 0, awaitingFloat: 0, stuck: { count: 0, oldestAgeSeconds: 0 }, replaced: 0, feeCapReached: 0 };
  // Read once a run, when the first withdrawal needs them: the final block before any receipt, so
  // that a payout mined by then has its receipt found (usedAtFinal's reasoning rests on it).
  let final: Promise<ChainBlock> | undefined;
  let usedAtFinal: Promise<number> | undefined;
  let wallet: Promise<string> | undefined;
  let capBelowBaseFee: Promise<{ cap: bigint; baseFee: bigint } | null> | undefined;
  const underCap: string[] = [];
  /** Still processing, not in a block; and in a block, not yet final (the stuck alarm's two clocks). */
  const remaining: Withdrawal[] = [];
  const awaitingFinality: Withdrawal[] = [];
  const settle = async (withdrawal: Withdrawal) => {
    final ??= deps.chain.finalBlock();
    const outcome = await nonceOutcome(deps.chain, nonceTransactionOf(withdrawal), await final);
    // The record ends with the hash of the version that landed, whichever it is.
    const landed: Withdrawal = { ...withdrawal, txHash: outcome.txHash };
    const cost = networkCostOf(outcome.receipt);
    const settled =
      outcome.settled === null
        ? null
        : outcome.settled === 'SUCCESS'
          ? complete(landed, now(), outcome.receipt ? receivedBy(outcome.receipt, withdrawal.address, sameEvmAddress) : null, cost)
          : outcome.settled === 'REFUSED_BY_NODE'
            ? fail(withdrawal, outcome.settled, now(), cost)
            : fail(landed, outcome.settled, now(), cost);
    if (settled) {
      if (await deps.store.transition(withdrawal, settled.after, settled)) {
        if (settled.after.status === 'completed') result.completed++;
        else result.failed++;
      }
      return;
    }
    if (outcome.inBlock) {
      awaitingFinality.push(withdrawal); // in a block, not yet final
      return;
    }
    remaining.push(withdrawal);
    // No receipt for any version, yet the wallet's count at the final block says its nonce is used.
    // That alone proves nothing (a backend behind a load balancer may lack the receipt of a payout
    // mined long ago): it is signed again on a nonce of its own (past every nonce used on chain), as
    // if never sent, only once the final chain shows another transaction at its nonce, which no
    // version of it can then ever be mined over (nonceHolder). Its own there: mined, nothing to do
    // but wait for a node that has its receipt.
    wallet ??= deps.payouts.wallet();
    usedAtFinal ??= (async () => deps.chain.transactionCountAt(await wallet!, (await final!).number))();
    const holder =
      (await usedAtFinal) > withdrawal.transaction!.nonce! && !withdrawal.transaction!.filler
        ? await nonceHolder(deps.chain, await wallet, nonceTransactionOf(withdrawal), await final, await usedAtFinal).catch((error: unknown) => {
            log.warn('could not find what holds the payout nonce; left as it is', { withdrawalId: withdrawal.id, nonce: withdrawal.transaction!.nonce, error: String(error) });
            return 'unknown' as const;
          })
        : 'unknown';
    if (holder === 'own') {
      log.warn('payout mined (a final block holds it at its nonce) but the node has no receipt for it yet: waiting', { withdrawalId: withdrawal.id, nonce: withdrawal.transaction!.nonce });
      return;
    }
    // While the token is paused or the hot wallet frozen, whatever is sent reverts and burns its gas
    // (a replacement at a higher fee, more): the payout waits `processing` until the control lifts.
    if (!hotWalletMaySend) {
      heldBack++;
      return;
    }
    if (holder === 'outside') {
      // Signed again, it pays anew: screened first, as a pending payout is. None of its versions can
      // be mined (its one nonce is another's, in a final block), so a destination listed since
      // fails it with its funds back, nothing paid.
      if ((await sanctionedNow(deps, [withdrawal])).size > 0) {
        await failSanctioned(deps, withdrawal, result);
        return;
      }
      const again = await signAndStore(deps, withdrawal, await wallet, undefined, now, await usedAtFinal);
      if (again === 'moved') return; // the next run sees it again
      if (again === 'would-revert') {
        if (await controlledSince(deps)) {
          heldBack++;
          return;
        }
        // Nothing of it can be mined (its one nonce is another's), and the node says a new one
        // would revert: failed, the funds back, as a payout refused before its first send.
        const failed = fail(withdrawal, 'TRANSFER_WOULD_REVERT', now());
        if (await deps.store.transition(withdrawal, failed.after, failed)) result.failed++;
        return;
      }
      log.error('payout nonce used outside Cambio (a transaction from the hot wallet that Cambio did not sign): signed again on a new nonce', {
        withdrawalId: withdrawal.id,
        nonce: withdrawal.transaction!.nonce,
        abandonedTxHash: withdrawal.txHash,
        txHash: again.txHash,
        newNonce: again.transaction!.nonce,
      });
      await broadcastStored(deps, again, now);
      result.rebroadcast++;
      return;
    }
    // Under a base fee above the cap no version can be mined and the node refuses each: neither
    // broadcast nor replaced, counted for the alarm (logged once a run, below), until it falls.
    // Read once a run, afresh: a payout waiting for the base fee to fall goes in the first run after.
    capBelowBaseFee ??= deps.payouts.feeCapBelowBaseFee({ fresh: true }).catch(() => null);
    if (await capBelowBaseFee) {
      result.feeCapReached++;
      underCap.push(withdrawal.id);
      return;
    }
    try {
      const due = dueForReplacement(nonceTransactionOf(withdrawal), now(), replaceAfterMs(deps));
      await replaceOrRebroadcast(due ? () => replace(deps, withdrawal, now) : null, () => broadcastWithdrawal(deps, withdrawal, now), result);
    } catch (error) {
      log.error('rebroadcast failed; will retry', { withdrawalId: withdrawal.id, error: String(error) });
    }
  };
  // Side by side within a page (each payout its own nonce, reads and guarded write); rebroadcasts
  // may then reach the node out of nonce order, which it queues until the gap before them fills.
  for await (const page of withdrawalPagesIn(deps, 'processing', FINISH_RESERVE_MS)) await inParallel(page, SETTLE_IN_FLIGHT, settle);
  if (heldBack > 0) log.warn("the hot wallet's USDT may not move: processing payouts wait, neither broadcast again nor replaced", { withdrawals: heldBack });
  const underBaseFee = await capBelowBaseFee;
  if (underBaseFee) logFeeCapBelowBaseFee(log, underBaseFee, { unmined: result.feeCapReached, withdrawalIds: underCap.slice(0, LOGGED_IDS) });
  result.stuck = oldestOf(stuckProcessing(remaining, now()), stuckProcessing(awaitingFinality, now(), FINALITY_STALLED_MS));
  return result;
}

/**
 * A payout in a block waits for its network's finality, not for Cambio: Ethereum's finalized block
 * trails by 13–19 minutes, Arbitrum's by ~20, so STUCK_PROCESSING_MS (TRON's minute, with room) would
 * put WithdrawalsStuckProcessing in alarm for ordinary payouts there, and teach people to ignore it.
 * One mined an hour ago and still not final means the chain's finality, or the node's view of it,
 * has stalled: that is stuck.
 */
const FINALITY_STALLED_MS = 60 * 60_000;

/** The stuck count of both clocks, and the older of their oldest. */
const oldestOf = (a: SettleResult['stuck'], b: SettleResult['stuck']): SettleResult['stuck'] => ({ count: a.count + b.count, oldestAgeSeconds: Math.max(a.oldestAgeSeconds, b.oldestAgeSeconds) });

const replaceAfterMs = (deps: EvmSendingDeps) => deps.replaceAfterMs ?? DEFAULT_REPLACE_AFTER_SECONDS * 1000;

/** The payout's next version, at a higher fee, in place of the newest (replaceUnmined). */
const replace = (deps: EvmSendingDeps, withdrawal: Withdrawal, now: () => Date) =>
  replaceUnmined(nonceTransactionOf(withdrawal), {
    payouts: deps.payouts,
    log: deps.log ?? stderrLog,
    what: 'payout',
    fields: { withdrawalId: withdrawal.id },
    save: (replaced) => storedVersion(deps, withdrawal, replaced),
    broadcast: (replacement) => broadcastWithdrawal(deps, replacement, now),
  });

/** The payout with a new version of its transaction (or of its filler) in place of the newest, the
 * hashes before kept (withReplacement), as written; null when the withdrawal moved on. No ledger
 * entry, no event. */
async function storedVersion(deps: EvmSendingDeps, withdrawal: Withdrawal, { signed, txHash, replacedTxHashes, filler, broadcastAt }: VersionFields): Promise<Withdrawal | null> {
  // updatedAt is kept (the stuck alarm's age): a copy read before this write is told stale by
  // its txHash (transition, claimNonce), and claimNonce checks the filler's hash too.
  const replacement: Withdrawal = { ...withdrawal, txHash, transaction: { ...withdrawal.transaction!, signed, replacedTxHashes, filler: filler ?? undefined, broadcastAt } };
  return (await deps.store.transition(withdrawal, replacement, { entry: null, event: null })) ? replacement : null;
}
