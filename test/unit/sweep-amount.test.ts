import { describe, expect, it } from 'vitest';
import { sweepAmount } from '#functions/deposits/sweep-amount';

describe('how much a sweep may take from a deposit address', () => {
  it('takes no more than the USDT recorded there: a payment not yet recorded stays', () => {
    expect(sweepAmount(55_000_000n, { sweepable: 5_000_000n, credited: 5_000_000n })).toEqual({ amount: 5_000_000n, takenOffCounts: { sweepable: 5_000_000n, credited: 5_000_000n } });
  });

  it('takes what is there when less than was recorded (the issuer erased some): the credit left is at most what stays recorded', () => {
    expect(sweepAmount(3_000_000n, { sweepable: 8_000_000n, credited: 6_000_000n })).toEqual({ amount: 3_000_000n, takenOffCounts: { sweepable: 3_000_000n, credited: 1_000_000n } });
  });

  it('counts a split share or a released payment as sweepable but not as credit a freeze takes back', () => {
    // 10 recorded, of which 4 credited in the freeze's sense: all 10 swept, the 4 taken off.
    expect(sweepAmount(10_000_000n, { sweepable: 10_000_000n, credited: 4_000_000n })).toEqual({ amount: 10_000_000n, takenOffCounts: { sweepable: 10_000_000n, credited: 4_000_000n } });
  });

  it('takes the whole balance at an address that was never counted, and nothing off its counts', () => {
    expect(sweepAmount(55_000_000n, { sweepable: null, credited: 5_000_000n })).toEqual({ amount: 55_000_000n, takenOffCounts: null });
  });

  it('takes nothing where the count is below zero', () => {
    expect(sweepAmount(5_000_000n, { sweepable: -1n, credited: 0n })).toEqual({ amount: 0n, takenOffCounts: { sweepable: 0n, credited: 0n } });
  });
});
