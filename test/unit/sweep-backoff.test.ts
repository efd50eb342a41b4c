import { describe, expect, it } from 'vitest';
import { sweepBackoffUntil, type Sweep } from '#functions/networks/tron/sweeps';

const sweep = (status: Sweep['status'], updatedAt: string): Sweep => ({
  address: 'TAddress',
  addressIndex: 1,
  amount: 1_000_000n,
  status,
  topUpTxHash: 'a'.repeat(64),
  sweepTxHash: null,
  reclaimTxHash: null,
  reclaimedSun: null,
  takenOffCounts: null,
  reclaimAttempts: 0,
  stepExpiresAt: null,
  failureReason: status === 'failed' ? 'TRANSACTION_EXPIRED' : null,
  createdAt: updatedAt,
  updatedAt,
});
const at = (hour: number) => `2026-11-22T${String(hour).padStart(2, '0')}:00:00.000Z`;

describe('sweepBackoffUntil (newest first)', () => {
  it('tries now with no history, or fewer than three failures in a row', () => {
    expect(sweepBackoffUntil([])).toBeNull();
    expect(sweepBackoffUntil([sweep('failed', at(3)), sweep('failed', at(2))])).toBeNull();
    expect(sweepBackoffUntil([sweep('failed', at(3)), sweep('failed', at(2)), sweep('done', at(1)), sweep('failed', at(0))])).toBeNull();
  });

  it('waits an hour after the third failure in a row, doubling with each further one', () => {
    const three = [sweep('failed', at(3)), sweep('failed', at(2)), sweep('failed', at(1)), sweep('done', at(0))];
    expect(sweepBackoffUntil(three)?.toISOString()).toBe(at(4));
    const five = [sweep('failed', at(10)), ...[9, 8, 7, 6].map((hour) => sweep('failed', at(hour)))];
    expect(sweepBackoffUntil(five)?.toISOString()).toBe(at(14));
  });

  it('never waits more than a day', () => {
    const many = Array.from({ length: 10 }, (_, i) => sweep('failed', at(20 - i)));
    expect(sweepBackoffUntil(many)?.toISOString()).toBe('2026-11-23T20:00:00.000Z');
  });
});
