import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { checkedCode, CODE_FAILURE_LIMIT, CODE_LOCK_SECONDS, USED_CODE_SECONDS } from '#functions/people/code-attempts';
import { ApiError, signInRefused } from '#functions/shared/errors';
import { DynamoCodeAttempts } from '#adapters/dynamo/code-attempt-store';
import { useFreshTable } from '../support/dynamo.ts';

/**
 * The limits on authenticator codes (functions/people/code-attempts.ts) over DynamoDB Local, the
 * provider's answer played by `check`, and the clock passed in: what the attacks on the local API
 * (attacks-two-factor.test.ts) cannot wait for, a lock running out after 15 minutes, a code used
 * again once it could no longer be accepted.
 */
const table = useFreshTable();
const codes = new DynamoCodeAttempts(table.db, table.tableName);
const start = new Date('2026-11-26T10:00:00.000Z');
const later = (seconds: number) => new Date(start.getTime() + seconds * 1000);
const person = () => `person-${randomUUID().slice(0, 8)}@example.com`;

const RIGHT = '123456';
/** The provider: only RIGHT passes; `expired` answers as a challenge no longer open does. */
const provider = (options: { expired?: boolean } = {}) => async (code: string) => {
  if (options.expired) throw signInRefused.expired();
  if (code !== RIGHT) throw signInRefused.wrongCode();
  return 'signed in';
};
const attempt = (email: string, code: string, at: Date, options: { expired?: boolean } = {}) =>
  checkedCode(codes, email, code, provider(options), 'code', at).then(
    (result) => result,
    (error: ApiError) => error.code,
  );
const wrong = (n: number) => String(200_000 + n);

describe('the limits on codes', () => {
  it(`locks after ${CODE_FAILURE_LIMIT} wrong codes, the right one too, until ${CODE_LOCK_SECONDS / 60} minutes after the last`, async () => {
    const email = person();
    for (let n = 0; n < CODE_FAILURE_LIMIT; n += 1) expect(await attempt(email, wrong(n), later(n))).toBe('AUTH_FAILED');
    const locked = await checkedCode(codes, email, RIGHT, provider(), 'code', later(10)).catch((error: ApiError) => error);
    expect(locked).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many wrong authentication codes: try again after 10:15 UTC',
      details: { reason: 'CODE_ATTEMPTS', lockedUntil: later(CODE_FAILURE_LIMIT - 1 + CODE_LOCK_SECONDS).toISOString(), retryAfterSeconds: CODE_LOCK_SECONDS - 6 },
    });
    expect(await attempt(email, RIGHT, later(CODE_LOCK_SECONDS))).toBe('RATE_LIMITED');
    expect(await attempt(email, RIGHT, later(CODE_FAILURE_LIMIT - 1 + CODE_LOCK_SECONDS + 1))).toBe('signed in');
  });

  it('starts the count again after a right code, and after a quiet lock-length', async () => {
    const email = person();
    for (let n = 0; n < CODE_FAILURE_LIMIT - 1; n += 1) await attempt(email, wrong(n), later(n));
    expect(await attempt(email, RIGHT, later(10))).toBe('signed in');
    for (let n = 0; n < CODE_FAILURE_LIMIT - 1; n += 1) expect(await attempt(email, wrong(n), later(20 + n))).toBe('AUTH_FAILED');
    // Four more, but long after: the count starts at one, so the right code still passes.
    expect(await attempt(email, wrong(9), later(30 + CODE_LOCK_SECONDS))).toBe('AUTH_FAILED');
    expect(await attempt(email, '654321', later(31 + CODE_LOCK_SECONDS))).toBe('AUTH_FAILED');
    expect(await attempt(email, RIGHT, later(200 + CODE_LOCK_SECONDS))).toBe('signed in');
  });

  it('does not count what the provider did not judge: an expired sign-in, or a made-up session for someone else', async () => {
    const email = person();
    for (let n = 0; n < CODE_FAILURE_LIMIT * 2; n += 1) expect(await attempt(email, wrong(n), later(n), { expired: true })).toBe('AUTH_FAILED');
    expect(await attempt(email, RIGHT, later(30))).toBe('signed in');
  });

  it('lets the same code through once until it could no longer be accepted; a refused one stays usable', async () => {
    const email = person();
    expect(await attempt(email, RIGHT, start, { expired: true })).toBe('AUTH_FAILED');
    expect(await attempt(email, RIGHT, later(1))).toBe('signed in');
    const again = await checkedCode(codes, email, RIGHT, provider(), 'currentCode', later(2)).catch((error: ApiError) => error);
    expect(again).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'currentCode', message: 'was used already: enter the next code your authenticator app shows' }] });
    // Not counted as a guess: a replay says nothing of the secret.
    for (let n = 0; n < CODE_FAILURE_LIMIT; n += 1) expect(await attempt(email, RIGHT, later(3 + n))).toBe('VALIDATION_FAILED');
    expect(await attempt(email, RIGHT, later(1 + USED_CODE_SECONDS + 1))).toBe('signed in');
    // Another person's use of the same digits is theirs alone.
    expect(await attempt(person(), RIGHT, later(2))).toBe('signed in');
  });

  it('lets no more than the limit of parallel guesses reach the provider, and one of two parallel uses of a code', async () => {
    const email = person();
    let judged = 0;
    const counting = async (code: string) => {
      judged += 1;
      return provider()(code);
    };
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, n) => checkedCode(codes, email, wrong(n), counting, 'code', start).catch((error: ApiError) => error.code)));
    expect(judged).toBe(CODE_FAILURE_LIMIT);
    expect(outcomes.filter((outcome) => outcome === 'AUTH_FAILED')).toHaveLength(CODE_FAILURE_LIMIT);
    expect(outcomes.filter((outcome) => outcome === 'RATE_LIMITED')).toHaveLength(20 - CODE_FAILURE_LIMIT);

    const other = person();
    const pair = await Promise.all([attempt(other, RIGHT, start), attempt(other, RIGHT, start)]);
    expect(pair.sort()).toEqual(['VALIDATION_FAILED', 'signed in']);
  });
});
