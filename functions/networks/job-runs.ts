import { RunFailedAfterWork, type DepositSweeperRun, type JobRunOutcome, type TokenStanding, type WithdrawalSenderRun } from './network.ts';
import { usdtMayMove } from './token-standing.ts';

/**
 * One run of a network's signing jobs, the same on every network (functions/networks/<family>/
 * jobs.ts gives the steps): the token's standing first, since nothing new is sent or swept while
 * the issuer pauses the token or freezes the hot wallet (token-standing.ts); then the family's work,
 * and the counts every network publishes, under the names the stack's alarms read
 * (lib/chain-alarms.ts, lib/alarms.ts), with the family's own beside them.
 */

/** What a family adds to a run: its counts, and how many of them say the run did something. */
export interface FamilyCounts {
  counts: Record<string, number>;
  moved: number;
}

/** The withdrawal sender: send what is pending (unless the token may not move), then settle what was sent. */
export async function withdrawalSenderRun<Sent extends WithdrawalSenderRun['sent'], Settled extends WithdrawalSenderRun['settled']>(steps: {
  standing(): Promise<TokenStanding>;
  /** What the run learns before sending (the addresses the API refuses to pay: refused-destinations.ts). */
  beforeSending(): Promise<void>;
  send(): Promise<Sent>;
  nothingSent: Sent;
  /** `hotWalletMaySend`: false while the token may not move: settling then sends nothing either (no
   * lost broadcast made again, no replacement), which would only revert and burn its fee. */
  settle(hotWalletMaySend: boolean): Promise<Settled>;
  family?(sent: Sent, settled: Settled): Promise<FamilyCounts>;
}): Promise<JobRunOutcome<{ sent: Sent; settled: Settled; standing: TokenStanding }>> {
  const standing = await steps.standing();
  await steps.beforeSending();
  // A send the node fails (past its retries) still leaves this run's settling to do: what was sent
  // before is completed, and broadcasts lost are sent again, on a provider that errs often too. The
  // send's error is then the run's (the Lambda's Errors metric, which the sending alarm watches),
  // carrying the counts of what the run did (RunFailedAfterWork).
  let sendFailure: { error: unknown } | undefined;
  const sent = usdtMayMove(standing)
    ? await steps.send().catch((error: unknown) => {
        sendFailure = { error };
        return steps.nothingSent;
      })
    : steps.nothingSent;
  const settled = await steps.settle(usdtMayMove(standing));
  const family = (await steps.family?.(sent, settled)) ?? { counts: {}, moved: 0 };
  const run: JobRunOutcome<{ sent: Sent; settled: Settled; standing: TokenStanding }> = {
    outcome: { sent, settled, standing },
    counts: {
      WithdrawalsSent: sent.sent,
      WithdrawalsCompleted: settled.completed,
      WithdrawalsFailed: sent.failed + settled.failed,
      WithdrawalsStuckProcessing: settled.stuck.count,
      WithdrawalsAwaitingFloat: sent.awaitingFloat,
      ...standingCounts(standing),
      ...family.counts,
    },
    // How long the oldest withdrawal stuck in `processing` has been.
    seconds: { OldestStuckWithdrawalAge: settled.stuck.oldestAgeSeconds },
    busy: !usdtMayMove(standing) || sent.sent + sent.awaitingFloat + settled.rebroadcast + settled.completed + settled.failed + family.moved > 0,
  };
  // What was settled is counted (networkJobHandler publishes it) before the send's error fails the run.
  if (sendFailure) throw new RunFailedAfterWork(run, sendFailure.error);
  return run;
}

/** The sweeper: frozen addresses the issuer has unfrozen go back to the due list first, and a page of
 * those below the sweep minimum is checked for a freeze (frozen-addresses.ts reviewFrozenAddresses);
 * then, unless the token may not move, the family's sweep (`frozen`: due addresses it set aside as frozen). */
export async function depositSweeperRun<Swept extends Record<keyof Swept, number> & { frozen: number }>(steps: {
  reviewFrozen(): Promise<{ stillFrozen: number }>;
  standing(): Promise<TokenStanding>;
  sweep(): Promise<Swept>;
  family(swept: Swept): Promise<Record<string, number>>;
}): Promise<JobRunOutcome<DepositSweeperRun>> {
  const { stillFrozen } = await steps.reviewFrozen();
  const standing = await steps.standing();
  if (!usdtMayMove(standing)) {
    return { outcome: { outcome: null, standing, frozenAddresses: stillFrozen }, counts: { DepositAddressesFrozen: stillFrozen, ...standingCounts(standing) }, busy: true };
  }
  const swept = await steps.sweep();
  const frozenAddresses = stillFrozen + swept.frozen;
  const outcome: Record<string, number> = { ...swept };
  return {
    outcome: { outcome, standing, frozenAddresses },
    counts: { DepositAddressesFrozen: frozenAddresses, ...standingCounts(standing), ...(await steps.family(swept)) },
    busy: frozenAddresses > 0 || Object.values(outcome).some((count) => count > 0),
  };
}

function standingCounts(standing: TokenStanding): Record<string, number> {
  return { TokenPaused: standing.paused ? 1 : 0, HotWalletFrozen: standing.hotWalletFrozen ? 1 : 0 };
}
