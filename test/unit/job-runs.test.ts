import { describe, expect, it } from 'vitest';
import { withdrawalSenderRun } from '#functions/networks/job-runs';
import { RunFailedAfterWork } from '#functions/networks/network';

/** One run of a network's withdrawal sender (functions/networks/job-runs.ts), its steps as a family gives them. */
const NOTHING = { sent: 0, failed: 0, awaitingFloat: 0 };
const settledNone = { completed: 0, failed: 0, rebroadcast: 0, stuck: { count: 0, oldestAgeSeconds: 0 } };

describe('a withdrawal sender run', () => {
  it('settles what was sent before even when the node fails the send, then fails the run with the send\'s error', async () => {
    const steps: string[] = [];
    const run = withdrawalSenderRun({
      standing: async () => ({ paused: false, hotWalletFrozen: false }),
      beforeSending: async () => void steps.push('before'),
      send: async () => {
        steps.push('send');
        throw new Error('node unreachable');
      },
      nothingSent: NOTHING,
      settle: async () => (steps.push('settle'), { ...settledNone, completed: 3 }),
    });
    const failed = await run.then(
      () => null,
      (error: unknown) => error,
    );
    expect(steps).toEqual(['before', 'send', 'settle']);
    // The run fails with the send's error, carrying the counts of what it settled for the handler to publish.
    expect(failed).toBeInstanceOf(RunFailedAfterWork);
    expect((failed as RunFailedAfterWork<unknown>).failure).toEqual(new Error('node unreachable'));
    expect((failed as RunFailedAfterWork<unknown>).run.counts).toMatchObject({ WithdrawalsSent: 0, WithdrawalsCompleted: 3 });
  });

  it('sends nothing while the token may not move, and still settles', async () => {
    const steps: string[] = [];
    const run = await withdrawalSenderRun({
      standing: async () => ({ paused: true, hotWalletFrozen: false }),
      beforeSending: async () => {},
      send: async () => (steps.push('send'), { sent: 1, failed: 0, awaitingFloat: 0 }),
      nothingSent: NOTHING,
      settle: async (hotWalletMaySend) => (steps.push(`settle, sending ${hotWalletMaySend ? 'allowed' : 'held back'}`), settledNone),
    });
    // Settling is told too: a lost broadcast made again would revert and burn its fee.
    expect(steps).toEqual(['settle, sending held back']);
    expect(run.counts).toMatchObject({ WithdrawalsSent: 0, TokenPaused: 1 });
    expect(run.busy).toBe(true);
  });
});
