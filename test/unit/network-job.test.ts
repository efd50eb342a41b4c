import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { networkJobHandler } from '#functions/handlers/jobs/network-job';
import { RunFailedAfterWork, type JobRunOutcome } from '#functions/networks/network';
import type { RunLeases } from '#functions/networks/run-lease';
import { jsonLines } from '../support/log-lines.ts';

/** A network job's handler publishes what a run did as metrics (EMF lines on stdout), even for a run
 * that failed after part of its work, and then fails with the run's own error. */
const leases: RunLeases = { take: async () => true, release: async () => undefined };
const lambdaContext = { awsRequestId: 'run-1', getRemainingTimeInMillis: () => 50_000 } as never;
const settledThree: JobRunOutcome<{ settled: number }> = { outcome: { settled: 3 }, counts: { WithdrawalsCompleted: 3 }, busy: true };

describe('a network job’s handler', () => {
  const written: string[] = [];
  const metrics = () => jsonLines(written).filter((line) => line._aws);
  beforeAll(() => {
    // The test run turns metrics off (test/support/global-setup.ts); this test reads them.
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    const capture = (chunk: unknown) => (written.push(String(chunk)), true);
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  });
  afterEach(() => void (written.length = 0));
  afterAll(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('publishes the counts of a run that settled three payouts before the node failed it, then fails with the node’s error', async () => {
    const handler = networkJobHandler('withdrawal send', leases, async () => {
      throw new RunFailedAfterWork(settledThree, new Error('node unreachable'));
    });

    await expect(handler({ network: 'ethereum' }, lambdaContext)).rejects.toThrow('node unreachable');
    expect(metrics()).toContainEqual(expect.objectContaining({ WithdrawalsCompleted: 3, Network: 'ethereum' }));
  });

  it('publishes nothing of a run that failed before any work', async () => {
    const handler = networkJobHandler('withdrawal send', leases, async () => {
      throw new Error('table unreachable');
    });

    await expect(handler({ network: 'ethereum' }, lambdaContext)).rejects.toThrow('table unreachable');
    expect(metrics().some((line) => 'WithdrawalsCompleted' in line)).toBe(false);
  });

  it('publishes a finished run’s counts', async () => {
    const handler = networkJobHandler('withdrawal send', leases, async () => settledThree);

    await expect(handler({ network: 'ethereum' }, lambdaContext)).resolves.toEqual({ settled: 3 });
    expect(metrics()).toContainEqual(expect.objectContaining({ WithdrawalsCompleted: 3 }));
  });
});
