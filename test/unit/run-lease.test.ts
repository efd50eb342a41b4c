import { describe, expect, it } from 'vitest';
import { leasedRun, type RunLeases } from '#functions/networks/run-lease';

/** A lease table whose release always fails (the table unreachable at the end of a run). */
const leasesThatCannotRelease = (): RunLeases => ({
  take: async () => true,
  release: async () => {
    throw new Error('table unreachable');
  },
});

describe('a leased run whose lease cannot be released', () => {
  it('still answers the run’s result: the lease lapses at its expiry', async () => {
    const outcome = await leasedRun(leasesThatCannotRelease(), { name: 'withdrawal send:tron', holder: 'run-1', leaseMs: 60_000 }, async () => ({ completed: 3 }));
    expect(outcome).toEqual({ ran: true, result: { completed: 3 } });
  });

  it('fails with the run’s own error, not the release’s', async () => {
    const run = leasedRun(leasesThatCannotRelease(), { name: 'withdrawal send:tron', holder: 'run-1', leaseMs: 60_000 }, async () => {
      throw new Error('node refused the broadcast');
    });
    await expect(run).rejects.toThrow('node refused the broadcast');
  });
});
