import { describe, expect, it } from 'vitest';
import { STUCK_PROCESSING_MS, stuckProcessing } from '#functions/withdrawals/withdrawal-sending';
import type { Withdrawal } from '#functions/withdrawals/withdrawals';

const now = new Date('2026-03-01T12:00:00.000Z');
const processingSince = (minutesAgo: number) => ({ updatedAt: new Date(now.getTime() - minutesAgo * 60_000).toISOString() }) as Withdrawal;

describe('stuck processing withdrawals (the alarm metric)', () => {
  it('counts only those processing for longer than 15 minutes and reports the oldest age', () => {
    const result = stuckProcessing([processingSince(1), processingSince(16), processingSince(42)], now);

    expect(STUCK_PROCESSING_MS).toBe(15 * 60_000);
    expect(result).toEqual({ count: 2, oldestAgeSeconds: 42 * 60 });
  });

  it('reports zero when nothing is stuck', () => {
    expect(stuckProcessing([processingSince(14)], now)).toEqual({ count: 0, oldestAgeSeconds: 0 });
    expect(stuckProcessing([], now)).toEqual({ count: 0, oldestAgeSeconds: 0 });
  });
});
