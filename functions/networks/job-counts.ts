import type { TokenStanding } from './token-standing.ts';

/**
 * The counts every network's signing jobs publish, under the names the stack's alarms read
 * (lib/chain-alarms.ts, lib/alarms.ts); a family adds its own beside them (evm/jobs.ts,
 * tron/jobs.ts).
 */
export function standingCounts(standing: Pick<TokenStanding, 'paused' | 'hotWalletFrozen'>): Record<string, number> {
  return { TokenPaused: standing.paused ? 1 : 0, HotWalletFrozen: standing.hotWalletFrozen ? 1 : 0 };
}

/** A withdrawal sender's run: sent, completed, failed, stuck in `processing`, waiting for a float. */
export function senderCounts({
  sent,
  settled,
  standing,
}: {
  sent: { sent: number; failed: number; awaitingFloat: number };
  settled: { completed: number; failed: number; stuck: { count: number } };
  standing: Pick<TokenStanding, 'paused' | 'hotWalletFrozen'>;
}): Record<string, number> {
  return {
    WithdrawalsSent: sent.sent,
    WithdrawalsCompleted: settled.completed,
    WithdrawalsFailed: sent.failed + settled.failed,
    WithdrawalsStuckProcessing: settled.stuck.count,
    WithdrawalsAwaitingFloat: sent.awaitingFloat,
    ...standingCounts(standing),
  };
}

/** The sender's figure in seconds: how long the oldest withdrawal stuck in `processing` has been. */
export function senderSeconds(settled: { stuck: { oldestAgeSeconds: number } }): Record<string, number> {
  return { OldestStuckWithdrawalAge: settled.stuck.oldestAgeSeconds };
}
