import { describe, expect, it } from 'vitest';
import { sweepAmount, unrecordedAt } from '#functions/deposits/sweep-amount';

describe('how much a sweep may take from a deposit address', () => {
  it('takes no more than the USDT recorded there: a payment not yet recorded stays', () => {
    expect(sweepAmount(55_000_000n, { sweepable: 5_000_000n, credited: 5_000_000n, dust: 0n })).toEqual({ amount: 5_000_000n, takenOffCounts: { sweepable: 5_000_000n, credited: 5_000_000n } });
  });

  it('takes what is there when less than was recorded (the issuer erased some): the credit left is at most what stays recorded', () => {
    expect(sweepAmount(3_000_000n, { sweepable: 8_000_000n, credited: 6_000_000n, dust: 0n })).toEqual({ amount: 3_000_000n, takenOffCounts: { sweepable: 3_000_000n, credited: 1_000_000n } });
  });

  it('counts a split share or a released payment as sweepable but not as credit a freeze takes back', () => {
    // 10 recorded, of which 4 credited in the freeze's sense: all 10 swept, the 4 taken off.
    expect(sweepAmount(10_000_000n, { sweepable: 10_000_000n, credited: 4_000_000n, dust: 0n })).toEqual({ amount: 10_000_000n, takenOffCounts: { sweepable: 10_000_000n, credited: 4_000_000n } });
  });

  it('takes the whole balance at an address that was never counted, and nothing off its counts', () => {
    expect(sweepAmount(55_000_000n, { sweepable: null, credited: 5_000_000n, dust: 0n })).toEqual({ amount: 55_000_000n, takenOffCounts: null });
  });

  it('takes nothing where the count is below zero', () => {
    expect(sweepAmount(5_000_000n, { sweepable: -1n, credited: 0n, dust: 0n })).toEqual({ amount: 0n, takenOffCounts: { sweepable: 0n, credited: 0n } });
  });

  it('counts what recorded dust rounds a balance up by as recorded, and nothing else (18 decimals: 1e12 base units to 1e-6 USDT)', () => {
    const unit = 10n ** 12n;
    // 2 USDT credited, then 13 transfers of 0.0000009 recorded as dust: the balance reads 2.000011.
    const counts = { sweepable: 2_000_000n, credited: 2_000_000n, dust: 13n * 900_000_000_000n };
    expect(unrecordedAt(2_000_011n, counts, unit)).toBe(0n);
    // A payment of 0.5 not recorded yet.
    expect(unrecordedAt(2_500_011n, counts, unit)).toBe(500_000n - 1n);
    // An address never counted: nothing is known to be unrecorded.
    expect(unrecordedAt(9_000_000n, { sweepable: null, credited: 0n, dust: 0n }, 1n)).toBe(0n);
  });
});
