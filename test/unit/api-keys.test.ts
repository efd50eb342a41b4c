import { describe, expect, it } from 'vitest';
import { authenticate, hashSecret, issueCredentials, type ApiKeyRecord } from '#domain/api-keys';

const now = new Date('2026-11-22T12:00:00.000Z');

function lookupOf(records: ApiKeyRecord[]) {
  const reads: string[] = [];
  return {
    reads,
    findApiKey: async (keyId: string) => {
      reads.push(keyId);
      return records.find((record) => record.keyId === keyId) ?? null;
    },
  };
}

describe('API credentials', () => {
  it('name their environment and store only a hash of the secret', () => {
    const sandbox = issueCredentials('cmp_1', 'sandbox', now);
    const live = issueCredentials('cmp_1', 'production', now);
    expect(sandbox.apiKey).toMatch(/^ck_test_[A-Za-z0-9_-]{24}$/);
    expect(live.apiKey).toMatch(/^ck_live_[A-Za-z0-9_-]{24}$/);
    expect(sandbox.apiSecret).toMatch(/^cs_test_[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(sandbox.record)).not.toContain(sandbox.apiSecret);
    expect(sandbox.record.secretHash).toBe(hashSecret(sandbox.apiSecret));
  });

  it('are never issued twice', () => {
    const keys = new Set(Array.from({ length: 200 }, () => issueCredentials('cmp_1', 'sandbox', now).apiKey));
    expect(keys.size).toBe(200);
  });

  it('authenticate the right pair and refuse every wrong one the same way', async () => {
    const mine = issueCredentials('cmp_mine', 'sandbox', now);
    const theirs = issueCredentials('cmp_theirs', 'sandbox', now);
    const lookup = lookupOf([mine.record, theirs.record]);

    expect((await authenticate(lookup, mine.apiKey, mine.apiSecret))?.companyId).toBe('cmp_mine');
    expect(await authenticate(lookup, mine.apiKey, theirs.apiSecret)).toBeNull();
    expect(await authenticate(lookup, mine.apiKey, `${mine.apiSecret}x`)).toBeNull();
    expect(await authenticate(lookup, 'ck_test_AAAAAAAAAAAAAAAAAAAAAAAA', mine.apiSecret)).toBeNull();
    expect(await authenticate(lookup, undefined, mine.apiSecret)).toBeNull();
    expect(await authenticate(lookup, mine.apiKey, undefined)).toBeNull();
    expect(await authenticate(lookup, mine.apiKey, '')).toBeNull();
  });

  it('do not read the table for a key that cannot be one', async () => {
    const lookup = lookupOf([]);
    expect(await authenticate(lookup, "ck_test_' OR 1=1 --", 'secret')).toBeNull();
    expect(await authenticate(lookup, 'x'.repeat(5000), 'secret')).toBeNull();
    expect(lookup.reads).toEqual([]);
  });
});
