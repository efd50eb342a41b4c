import { describe, expect, it } from 'vitest';
import { leasedRun } from '#functions/networks/run-lease';
import { DynamoRunLeases } from '#adapters/dynamo/run-lease-store';
import { useFreshTable } from '../support/dynamo.ts';

/**
 * One run at a time of a signing job on one network (functions/networks/run-lease.ts), against
 * DynamoDB Local: the withdrawal sender's and the sweeper's runs of one network never overlap, runs
 * of different networks go side by side, and a run that died frees its network once its lease lapses.
 */
const env = useFreshTable();
const leases = new DynamoRunLeases(env.db, env.tableName);
const T0 = new Date('2026-11-29T05:00:00.000Z');
const at = (ms: number) => () => new Date(T0.getTime() + ms);

describe('a job run leased per network', () => {
  it('lets one of two runs of one network started together work, the other finding it held; both networks of two run', async () => {
    let inside = 0;
    let most = 0;
    const work = async () => {
      most = Math.max(most, ++inside);
      await new Promise((resolve) => setTimeout(resolve, 200));
      inside--;
      return 'done';
    };
    const runs = await Promise.all([
      leasedRun(leases, { name: 'withdrawal send#polygon', holder: 'run-1', leaseMs: 60_000 }, work),
      leasedRun(leases, { name: 'withdrawal send#polygon', holder: 'run-2', leaseMs: 60_000 }, work),
      leasedRun(leases, { name: 'withdrawal send#ethereum', holder: 'run-3', leaseMs: 60_000 }, work),
    ]);
    expect(runs.filter((run) => run.ran).length).toBe(2);
    expect(runs[2]).toEqual({ ran: true, result: 'done' });
    expect([runs[0]!.ran, runs[1]!.ran].sort()).toEqual([false, true]);
    // The polygon run and the ethereum run overlapped; never two polygon runs.
    expect(most).toBe(2);
  });

  it('gives the network to the next run once a run ends, and keeps it from a run while one holds it', async () => {
    const name = 'deposit sweep#bsc';
    expect(await leasedRun(leases, { name, holder: 'a', leaseMs: 60_000, now: at(0) }, async () => 1)).toEqual({ ran: true, result: 1 });
    // Released at its end: the next run takes it at once.
    expect(await leasedRun(leases, { name, holder: 'b', leaseMs: 60_000, now: at(1_000) }, async () => 2)).toEqual({ ran: true, result: 2 });
    expect(await leases.take(name, 'c', new Date(T0.getTime() + 62_000), at(2_000)())).toBe(true);
    expect(await leasedRun(leases, { name, holder: 'd', leaseMs: 60_000, now: at(30_000) }, async () => 3)).toEqual({ ran: false });
  });

  it("frees a network whose run died holding it once the lease lapses, and a late release by the dead run takes nothing back", async () => {
    const name = 'withdrawal send#arbitrum';
    // A run takes the lease and dies (no release).
    expect(await leases.take(name, 'dead', new Date(T0.getTime() + 60_000), at(0)())).toBe(true);
    expect(await leases.take(name, 'next', new Date(T0.getTime() + 120_000), at(59_000)())).toBe(false);
    expect(await leases.take(name, 'next', new Date(T0.getTime() + 120_000), at(60_000)())).toBe(true);
    // The dead run's release, arriving late, leaves the new holder's lease in force.
    await leases.release(name, 'dead', at(61_000)());
    expect(await leases.take(name, 'third', new Date(T0.getTime() + 180_000), at(62_000)())).toBe(false);
  });

  it('releases the lease when the run throws, so the next run is not kept out for a minute', async () => {
    const name = 'deposit sweep#tron';
    await expect(leasedRun(leases, { name, holder: 'x', leaseMs: 60_000, now: at(0) }, async () => Promise.reject(new Error('node down')))).rejects.toThrow('node down');
    expect(await leasedRun(leases, { name, holder: 'y', leaseMs: 60_000, now: at(1_000) }, async () => 'ok')).toEqual({ ran: true, result: 'ok' });
  });
});
