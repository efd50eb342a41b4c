import { describe, expect, it } from 'vitest';
import { companyOfUsageIdentifier, TokenBucket, TokenBuckets, tierWithLimit, usageIdentifier } from '#functions/api-keys/rate-limits';

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

  it("gives a company whose limit changed (another tier) a full bucket of the new size, and keeps an unchanged one's as it was", () => {
    const standard = { rateLimit: 1, burstLimit: 2 };
    const growth = { rateLimit: 5, burstLimit: 4 };
    const buckets = new TokenBuckets(standard);
    for (const key of ['cmp_a', 'cmp_b', 'cmp_a', 'cmp_b']) buckets.take(key, 0, standard);

    const raised = [1, 2, 3, 4, 5].map(() => buckets.take('cmp_a', 0, growth).allowed);

    expect(raised).toEqual([true, true, true, true, false]);
    expect(buckets.take('cmp_b', 0, standard).allowed).toBe(false);
  });
});

describe('tiers', () => {
  const tiers = { standard: { rateLimit: 10, burstLimit: 20 }, growth: { rateLimit: 50, burstLimit: 100 }, scale: { rateLimit: 100, burstLimit: 200 } };

  it('finds the tier whose figures are exactly those asked, and none for figures between tiers', () => {
    expect(tierWithLimit(tiers, { rateLimit: 50, burstLimit: 100 })).toBe('growth');
    expect(tierWithLimit(tiers, { rateLimit: 50, burstLimit: 200 })).toBeNull();
    expect(tierWithLimit(tiers, { rateLimit: 30, burstLimit: 60 })).toBeNull();
  });

  it('reads the company back from its usage identifier, and no company from any other key', () => {
    expect(companyOfUsageIdentifier(usageIdentifier('cmp_01JABC'))).toBe('cmp_01JABC');
    expect(companyOfUsageIdentifier('someone-else')).toBeNull();
  });
});

it("names a company's API Gateway key with at least the 20 characters API Gateway requires", () => {
  expect(usageIdentifier('cmp_1').length).toBeGreaterThanOrEqual(20);
  expect(usageIdentifier('cmp_01JABC')).not.toBe(usageIdentifier('cmp_01JABD'));
});
