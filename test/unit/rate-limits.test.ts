import { describe, expect, it } from 'vitest';
import { TokenBucket, TokenBuckets, usageIdentifier } from '#functions/api-keys/rate-limits';

describe('TokenBucket (API Gateway throttling: a burst, then a steady rate)', () => {
  it('admits the burst at once, then refuses with the whole seconds until the next token', () => {
    const bucket = new TokenBucket({ rateLimit: 2, burstLimit: 3 }, 0);

    const answers = [0, 0, 0, 0].map(() => bucket.take(0));

    expect(answers.slice(0, 3)).toEqual([{ allowed: true }, { allowed: true }, { allowed: true }]);
    expect(answers[3]).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('refills at the rate, never beyond the burst', () => {
    const bucket = new TokenBucket({ rateLimit: 2, burstLimit: 3 }, 0);
    for (let i = 0; i < 3; i++) bucket.take(0);

    expect(bucket.take(500)).toEqual({ allowed: true });
    expect(bucket.take(500).allowed).toBe(false);
    const later = [1, 2, 3, 4].map(() => bucket.take(60_000));
    expect(later.map((answer) => answer.allowed)).toEqual([true, true, true, false]);
  });

  it('says a wait of several seconds when the rate is under one a second', () => {
    const bucket = new TokenBucket({ rateLimit: 0.25, burstLimit: 1 }, 0);
    bucket.take(0);

    expect(bucket.take(0)).toEqual({ allowed: false, retryAfterSeconds: 4 });
  });
});

describe('TokenBuckets', () => {
  it("keeps one bucket per company, so one company's burst leaves another's untouched", () => {
    const buckets = new TokenBuckets({ rateLimit: 1, burstLimit: 2 });
    buckets.take('cmp_a', 0);
    buckets.take('cmp_a', 0);

    expect(buckets.take('cmp_a', 0).allowed).toBe(false);
    expect(buckets.take('cmp_b', 0)).toEqual({ allowed: true });
  });
});

it("names a company's API Gateway key with at least the 20 characters API Gateway requires", () => {
  expect(usageIdentifier('cmp_1').length).toBeGreaterThanOrEqual(20);
  expect(usageIdentifier('cmp_01JABC')).not.toBe(usageIdentifier('cmp_01JABD'));
});
