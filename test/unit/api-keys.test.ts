import { describe, expect, it } from 'vitest';
import { authenticate, hashSecret, issueCredentials, recordKeyUse, rollSecret, type ApiKeyRecord } from '#functions/api-keys/api-keys';
import { may, ROLES } from '#functions/people/team';

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

describe('rolling and revoking a key', () => {
  it('keeps the old secret valid until the chosen expiry, and only the newest two secrets ever', async () => {
    const issued = issueCredentials('cmp_1', 'sandbox', now);
    const first = rollSecret(issued.record, '1h', now);
    const second = rollSecret(first.record, 'now', now);
    const at = (iso: string) => new Date(iso);

    expect(await authenticate(lookupOf([first.record]), issued.apiKey, issued.apiSecret, at('2026-11-22T12:59:59.000Z'))).not.toBeNull();
    expect(await authenticate(lookupOf([first.record]), issued.apiKey, issued.apiSecret, at('2026-11-22T13:00:00.000Z'))).toBeNull();
    expect(await authenticate(lookupOf([first.record]), issued.apiKey, first.apiSecret, at('2026-11-29T12:00:00.000Z'))).not.toBeNull();
    expect(await authenticate(lookupOf([second.record]), issued.apiKey, first.apiSecret, now)).toBeNull();
    expect(await authenticate(lookupOf([second.record]), issued.apiKey, issued.apiSecret, now)).toBeNull();
    expect(await authenticate(lookupOf([second.record]), issued.apiKey, second.apiSecret, now)).not.toBeNull();
  });

  it('refuses a revoked key even with its right secret', async () => {
    const issued = issueCredentials('cmp_1', 'sandbox', now);
    const revoked: ApiKeyRecord = { ...issued.record, status: 'revoked', revokedAt: now.toISOString() };
    expect(await authenticate(lookupOf([revoked]), issued.apiKey, issued.apiSecret, now)).toBeNull();
  });

  it('records last use at most once per five minutes', async () => {
    const writes: string[] = [];
    const recorder = { recordKeyUse: async (_keyId: string, at: string) => void writes.push(at) };
    const record = issueCredentials('cmp_1', 'sandbox', now).record;
    await recordKeyUse(recorder, record, now);
    await recordKeyUse(recorder, { ...record, lastUsedAt: now.toISOString() }, new Date(now.getTime() + 4 * 60_000));
    await recordKeyUse(recorder, { ...record, lastUsedAt: now.toISOString() }, new Date(now.getTime() + 6 * 60_000));
    expect(writes).toEqual([now.toISOString(), '2026-11-22T12:06:00.000Z']);
  });
});

describe('roles', () => {
  it('let a Viewer read and change nothing, a Developer manage keys but not the team', () => {
    expect(ROLES.filter((role) => may(role, 'manageKeys'))).toEqual(['Owner', 'Admin', 'Developer']);
    expect(ROLES.filter((role) => may(role, 'manageTeam'))).toEqual(['Owner', 'Admin']);
    expect(ROLES.every((role) => may(role, 'read'))).toBe(true);
  });
});
