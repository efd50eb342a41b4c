import { describe, expect, it } from 'vitest';
import { backoffDelay, checkRetryPolicy } from '#functions/shared/retry';

describe('backoffDelay', () => {
  const policy = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 2_000 };

  it('waits between half and all of a wait that doubles with each retry', () => {
    expect([1, 2, 3].map((retry) => backoffDelay(policy, retry, () => 0))).toEqual([250, 500, 1_000]);
    expect([1, 2, 3].map((retry) => backoffDelay(policy, retry, () => 1))).toEqual([500, 1_000, 2_000]);
  });

  it('never waits longer than maxDelayMs', () => {
    expect(backoffDelay(policy, 10, () => 1)).toBe(2_000);
  });
});

describe('checkRetryPolicy', () => {
  it.each([0, 1.5, Number.NaN])('refuses %s attempts', (maxAttempts) => {
    expect(() => checkRetryPolicy({ ...policyOf(maxAttempts) })).toThrow(/maxAttempts must be a positive integer/);
  });
});

const policyOf = (maxAttempts: number) => ({ maxAttempts, baseDelayMs: 0, maxDelayMs: 0 });
