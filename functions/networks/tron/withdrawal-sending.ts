import { receivedBy, sentTransactionOutcome, type Broadcaster, type ChainReader, type TransferBuilder } from '../chain.ts';
import type { TransactionSigner } from '../signer.ts';
import { domainEvent } from '../../shared/events.ts';
import { stderrLog, type Log } from '../../shared/log.ts';
import { inParallel } from '../../shared/in-parallel.ts';
import { DuplicateOfAnotherPayout, SIGNING_ATTEMPTS, TransactionIdTaken, broadcastOwned, withdrawalOwner, type TransactionClaims } from '../../withdrawals/payouts.ts';
import { withdrawalView, type Withdrawal } from '../../withdrawals/withdrawals.ts';
import { complete, fail, networkCostOf, FINISH_RESERVE_MS, PayoutFloat, SETTLE_IN_FLIGHT, sendablePages, spendableFloat, stuckProcessing, withdrawalPagesIn, type SendingRun, type SendResult, type SettleOptions, type SettleResult } from '../../withdrawals/withdrawal-sending.ts';

/**
 * Sending withdrawals on TRON, where a transaction has no nonce: its id is the hash of its body,
 * and it expires unmined after a few minutes. Each payout is built and signed, stored with the
 * claim `pending → processing` and the claim of its transaction id (functions/withdrawals/payouts.ts:
 * two equal withdrawals never share one transaction), and only then broadcast; settling completes
 * it from its final receipt, fails it once expired unmined, and broadcasts again one whose
 * broadcast was lost. What every network's sending shares (pages, the float, completing and
 * failing, the stuck alarm) is functions/withdrawals/withdrawal-sending.ts.
 *
 * Nothing is sent while the issuer pauses the token or freezes the hot wallet, read before each
 * page; one that lands between that read and a page's broadcasts still has those payouts mined
 * REVERT. Such a payout fails (REVERT, its funds back) whatever the standing when it settles: a
 * REVERT receipt is final (no USDT left, and that transaction can never move any), and it does not
 * say why it reverted: one that reverted for its own reason, settled while the token happens to be
 * paused, reads the same, and signed again once the control lifts it would burn TRX reverting again.
 */

export interface SendingDeps extends SendingRun {
  chain: ChainReader;
  builder: TransferBuilder;
  broadcaster: Broadcaster;
  signer: TransactionSigner;
  claims: TransactionClaims;
  now?: () => Date;
  /** The run's logger; stderr JSON when absent. */
  log?: Log;
  /** The hot wallet's TRX and the most one payout may burn of it (its fee limit), read once a run
   * when something is pending; absent, not checked. */
  hotWalletTrx?: () => Promise<HotWalletTrx>;
  /** Whether USDT may move from the hot wallet now (../token-standing.ts), read again before each
   * page is sent: the run read the standing once, before sending (../job-runs.ts), and a pause or a
   * freeze of the hot wallet since has every payout broadcast mined REVERT, its TRX burnt and the
   * withdrawal failed, where ../shared/networks.md has them wait `pending`. Absent: not read again. */
  usdtMayMoveNow?: () => Promise<boolean>;
}

export interface HotWalletTrx {
  balanceSun: bigint;
  /** WITHDRAWAL_FEE_LIMIT_SUN: what one payout may burn at most. */
  feeLimitSun: bigint;
}

/** hotWalletTrx over a chain: the hot wallet's TRX (sun), and what one payout may burn of it. */
export const hotWalletTrxOf =
  (chain: { feeBalance(address: string): Promise<bigint> }, signer: Pick<TransactionSigner, 'address'>, feeLimitSun: bigint) =>
  async (): Promise<HotWalletTrx> => ({ balanceSun: await chain.feeBalance(await signer.address()), feeLimitSun });

/** Whether the hot wallet holds less TRX than one payout may burn: the HotWalletGasLow alarm's reading. */
export const trxShort = ({ balanceSun, feeLimitSun }: HotWalletTrx): boolean => balanceSun < feeLimitSun;

/**
 * Sends the pending withdrawals. A payout is signed only while the hot wallet's TRX, less the fee
 * limit of every payout the run signed before it, still covers its own fee limit: past that it would
 * be mined OUT_OF_ENERGY, burning what is left, or refused for bandwidth and expire, and either way
 * fail for the customer to ask again. The rest wait `pending` (HotWalletGasLow says why) and go out
 * on a later run, once the wallet is funded or the burn of those sent is known, as a payout short of
 * USDT waits for the float.
 */
export async function sendWithdrawals(deps: SendingDeps): Promise<TronSendResult> {
  const now = deps.now ?? (() => new Date());
  const result: TronSendResult = { sent: 0, rebroadcast: 0, completed: 0, failed: 0, awaitingFloat: 0, awaitingFee: 0 };
  let from: string | undefined;
  let float: PayoutFloat | undefined;
  // A TRON transaction has no nonce: the payouts of a page are signed, claimed and broadcast side by
  // side, in order of age, each its own transaction (the builder gives each its own timestamp).
  let trx: HotWalletTrx | undefined;
  const send = async (withdrawal: Withdrawal) => {
    // Counted down before anything awaits, so the payouts signed side by side never share the TRX.
    if (trx) {
      if (trx.balanceSun < trx.feeLimitSun) {
        result.awaitingFee++;
        result.hotWalletTrxShort = true;
        return;
      }
      trx.balanceSun -= trx.feeLimitSun;
    }
    const processing = await float!.claim(withdrawal, result, () => signAndClaim(deps, withdrawal, from!, now, { announce: true }));
    if (!processing) {
      // Not signed (waiting for the float, or moved on): its TRX is free for the next.
      if (trx) trx.balanceSun += trx.feeLimitSun;
      return;
    }
    result.sent++;
    try {
      await broadcastStored(deps, processing, now);
    } catch (error) {
      // Stored and signed: settleWithdrawals broadcasts it again on a later run.
      (deps.log ?? stderrLog).error('broadcast failed; will retry', { withdrawalId: withdrawal.id, error: String(error) });
    }
  };
  for await (const page of sendablePages(deps, result)) {
    if (deps.usdtMayMoveNow && !(await deps.usdtMayMoveNow())) {
      (deps.log ?? stderrLog).warn("the issuer paused the token or froze the hot wallet during the run: nothing more is sent, the withdrawals wait pending", { network: 'tron' });
      break;
    }
    // Read once a run, and only when something is pending.
    if (deps.hotWalletTrx && result.hotWalletTrxShort === undefined) {
      trx = await deps.hotWalletTrx();
      result.hotWalletTrxShort = trxShort(trx);
    }
    if (result.hotWalletTrxShort) {
      result.awaitingFee += page.length;
      continue;
    }
    from ??= await deps.signer.address();
    float ??= new PayoutFloat(await spendableFloat(deps));
    await inParallel(page, SEND_IN_FLIGHT, send);
  }
  return result;
}

/** TRON's sending: SendResult, and the withdrawals left pending because the hot wallet lacked the TRX
 * one payout may burn. */
export interface TronSendResult extends SendResult {
  awaitingFee: number;
  /** Whether the hot wallet's TRX fell short of a payout's fee limit in this run (at its start, or
   * once the payouts signed before had reserved theirs), where it read it: only when something was
   * pending. */
  hotWalletTrxShort?: boolean;
}

/** TRON payouts signed, claimed and broadcast at once by one run. */
export const SEND_IN_FLIGHT = 8;

/**
 * Signs a transfer for the withdrawal and stores it, claimed, as `processing` (or, for one already
 * processing whose transaction turned out not to be its own, in place of that transaction). A
 * transaction id another payout holds is signed afresh: the builder's next transaction has
 * another timestamp, so another id. Null: the withdrawal moved on in between.
 */
async function signAndClaim(deps: SendingDeps, withdrawal: Withdrawal, from: string, now: () => Date, { announce }: { announce: boolean }): Promise<Withdrawal | null> {
  for (let attempt = 1; ; attempt++) {
    const unsigned = await deps.builder.usdtTransfer({ from, to: withdrawal.address, amount: withdrawal.amount });
    const signature = await deps.signer.signTransactionId(Buffer.from(unsigned.txId, 'hex'));
    const signed = deps.builder.signed(unsigned, signature);
    const processing: Withdrawal = {
      ...withdrawal,
      status: 'processing',
      txHash: unsigned.txId,
      transaction: { signed: JSON.stringify(signed), expiresAt: unsigned.expiresAt, broadcastAt: null },
      updatedAt: now().toISOString(),
    };
    try {
      const event = announce ? domainEvent(withdrawal.companyId, 'withdrawal.processing', withdrawalView(processing), now()) : null;
      return (await deps.store.transition(withdrawal, processing, { entry: null, event })) ? processing : null;
    } catch (error) {
      if (!(error instanceof TransactionIdTaken) || attempt >= SIGNING_ATTEMPTS) throw error;
      (deps.log ?? stderrLog).warn('transaction id already claimed by another payout; signing afresh', { withdrawalId: withdrawal.id, txId: error.txId });
    }
  }
}

/** Settles sent withdrawals by their receipts once final, and rebroadcasts any whose
 * broadcast was lost (a sender that died between storing and broadcasting). Reports those still
 * processing for too long (read oldest first, so the oldest age is exact even when the run's time
 * ends before the last page). */
export async function settleWithdrawals(deps: SendingDeps, { hotWalletMaySend = true }: SettleOptions = {}): Promise<SettleResult> {
  const now = deps.now ?? (() => new Date());
  let heldBack = 0;
  const result: SettleResult = { sent: 0, rebroadcast: 0, completed: 0, failed: 0, awaitingFloat: 0, stuck: { count: 0, oldestAgeSeconds: 0 } };
  // Read once a run, when the first withdrawal needs it.
  let final: ReturnType<SendingDeps['chain']['finalBlock']> | undefined;
  const remaining: Withdrawal[] = [];
  const settle = async (withdrawal: Withdrawal) => {
    final ??= deps.chain.finalBlock();
    const expiresAt = Date.parse(withdrawal.transaction!.expiresAt!);
    const { seen: receipt, settled: verdict } = await sentTransactionOutcome(deps.chain, withdrawal.txHash!, withdrawal.transaction!.expiresAt, await final);
    if (verdict && !(await ownsTransaction(deps, withdrawal))) {
      // Signed before claims existed and collapsed into another payout's identical transaction:
      // that receipt is not this withdrawal's. It gets a transaction of its own.
      await signAndClaim(deps, withdrawal, await deps.signer.address(), now, { announce: false });
      remaining.push(withdrawal);
      return;
    }
    if (verdict) {
      const settled =
        verdict === 'expired'
          ? fail(withdrawal, 'TRANSACTION_EXPIRED', now())
          : verdict.result === 'SUCCESS'
            ? complete(withdrawal, now(), receivedBy(verdict, withdrawal.address), networkCostOf(verdict))
            : fail(withdrawal, verdict.result, now(), networkCostOf(verdict));
      if (await deps.store.transition(withdrawal, settled.after, settled)) {
        if (settled.after.status === 'completed') result.completed++;
        else result.failed++;
      }
      return;
    }
    remaining.push(withdrawal);
    if (receipt) return; // in a block, not yet final
    if (!withdrawal.transaction!.broadcastAt && now().getTime() < expiresAt) {
      // While the token is paused or the hot wallet frozen it would revert and burn its energy: it
      // is not sent, and expires unsent (failed, its funds back) unless the control lifts first.
      if (!hotWalletMaySend) {
        heldBack++;
        return;
      }
      // Only logged, as on the other networks: one transaction the node keeps refusing must not stop
      // the run (inParallel starts nothing after a failure), leaving the withdrawals behind it
      // unsettled and the stuck alarm unpublished. It is tried again next run, until it expires.
      try {
        await broadcastStored(deps, withdrawal, now);
        result.rebroadcast++;
      } catch (error) {
        (deps.log ?? stderrLog).error('rebroadcast failed; will retry', { withdrawalId: withdrawal.id, txHash: withdrawal.txHash, error: String(error) });
      }
    }
  };
  for await (const page of withdrawalPagesIn(deps, 'processing', FINISH_RESERVE_MS)) await inParallel(page, SETTLE_IN_FLIGHT, settle);
  if (heldBack > 0) (deps.log ?? stderrLog).warn("the hot wallet's USDT may not move: payouts signed and never broadcast are not sent", { network: 'tron', withdrawals: heldBack });
  result.stuck = stuckProcessing(remaining, now());
  return result;
}

async function ownsTransaction(deps: SendingDeps, withdrawal: Withdrawal): Promise<boolean> {
  const owner = withdrawalOwner(withdrawal.id);
  return (await deps.claims.claimIfFree(withdrawal.txHash!, owner)) === owner;
}

async function broadcastStored(deps: SendingDeps, withdrawal: Withdrawal, now: () => Date): Promise<void> {
  const transaction = withdrawal.transaction!;
  try {
    await broadcastOwned(deps.broadcaster, deps.claims, withdrawal.txHash!, JSON.parse(transaction.signed) as Record<string, unknown>, withdrawalOwner(withdrawal.id));
  } catch (error) {
    if (!(error instanceof DuplicateOfAnotherPayout)) throw error;
    // The chain holds another payout's transaction under this id: this withdrawal was not sent.
    (deps.log ?? stderrLog).error(error.message, { withdrawalId: withdrawal.id });
    await signAndClaim(deps, withdrawal, await deps.signer.address(), now, { announce: false });
    return;
  }
  const broadcast: Withdrawal = { ...withdrawal, transaction: { ...transaction, broadcastAt: now().toISOString() } };
  await deps.store.transition(withdrawal, broadcast, { entry: null, event: null });
}
