import { describe, expect, it } from 'vitest';
import { ApiError, signInRefused } from '#functions/shared/errors';
import type { SessionTokens } from '#functions/people/identity';
import { signIn, type SignInDeps } from '#functions/people/sign-in';
import {
  ACCOUNT_QUIET_MS,
  admitSignIn,
  attemptKey,
  signInSucceeded,
  SOURCE_FAILURES,
  STRANGER_FAILURES,
  type AccountAttempts,
  type SignInAttempts,
  type SourceAttempts,
} from '#functions/people/sign-in-limits';

/** The counts in memory, with the table store's version checks (functions/adapters/dynamo/sign-in-attempts-store.ts). */
function memoryAttempts(): SignInAttempts {
  const accounts = new Map<string, AccountAttempts>();
  const sources = new Map<string, SourceAttempts>();
  const sourceKey = (key: { account: string; source: string }) => `${key.account}/${key.source}`;
  return {
    read: async (key) => ({ account: accounts.get(key.account) ?? null, source: sources.get(sourceKey(key)) ?? null }),
    charge: async (key, before, after) => {
      if ((accounts.get(key.account)?.version ?? null) !== (before.account?.version ?? null)) return false;
      if ((sources.get(sourceKey(key))?.version ?? null) !== (before.source?.version ?? null)) return false;
      accounts.set(key.account, after.account);
      sources.set(sourceKey(key), after.source);
      return true;
    },
    clear: async (key, knownUntil) => {
      accounts.delete(key.account);
      const source = sources.get(sourceKey(key));
      sources.set(sourceKey(key), { failures: 0, windowEndsAt: new Date(0).toISOString(), knownUntil, version: (source?.version ?? 0) + 1 });
    },
  };
}

/** Whether the attempt reaches the user pool (true) or is refused before it (false). */
const reachesPool = (attempts: SignInAttempts, from: string, at: Date) =>
  admitSignIn(attempts, attemptKey('person@example.com', from), at).then(
    () => true,
    (error: unknown) => {
      if (error instanceof ApiError && error.code === 'RATE_LIMITED') return false;
      throw error;
    },
  );

/** Cognito locks a user out from its fifth failure in a row (its developer guide, "Lockout behavior
 * for failed sign-in attempts"); a right password ends the run. */
const POOL_FREE_FAILURES = 5;

describe("an account's failures from strangers", () => {
  it('reach the user pool fewer times than its lockout needs, from however many sources, while the person’s usual source gets in', async () => {
    const attempts = memoryAttempts();
    const now = new Date('2025-01-01T00:00:00Z');
    await admitSignIn(attempts, attemptKey('person@example.com', '10.0.0.1'), now);
    await signInSucceeded(attempts, attemptKey('person@example.com', '10.0.0.1'), now);

    let poolRun = 0;
    for (let round = 0; round < 10; round++) {
      const at = new Date(now.getTime() + round * 60_000);
      for (let stranger = 0; stranger < 5; stranger++) if (await reachesPool(attempts, `198.51.${round}.${stranger}`, at)) poolRun += 1;
      expect(poolRun, `round ${round}`).toBeLessThan(POOL_FREE_FAILURES - 1);
      // The person, from where they usually sign in, with the right password: the pool's run ends.
      expect(await reachesPool(attempts, '10.0.0.1', at)).toBe(true);
      await signInSucceeded(attempts, attemptKey('person@example.com', '10.0.0.1'), at);
      poolRun = 0;
    }
  });

  it('stop at STRANGER_FAILURES until 30 quiet minutes pass; a known source keeps only its own five', async () => {
    const attempts = memoryAttempts();
    const now = new Date('2025-01-01T00:00:00Z');
    await admitSignIn(attempts, attemptKey('person@example.com', '10.0.0.1'), now);
    await signInSucceeded(attempts, attemptKey('person@example.com', '10.0.0.1'), now);

    const admitted = [];
    for (let n = 0; n < STRANGER_FAILURES + 2; n++) admitted.push(await reachesPool(attempts, `198.51.100.${n}`, now));
    expect(admitted).toEqual([...Array(STRANGER_FAILURES).fill(true), false, false]);
    const known = [];
    for (let n = 0; n < SOURCE_FAILURES + 1; n++) known.push(await reachesPool(attempts, '10.0.0.1', now));
    expect(known).toEqual([...Array(SOURCE_FAILURES).fill(true), false]);
    expect(await reachesPool(attempts, '198.51.100.9', new Date(now.getTime() + ACCOUNT_QUIET_MS - 1000))).toBe(false);
    expect(await reachesPool(attempts, '198.51.100.9', new Date(now.getTime() + ACCOUNT_QUIET_MS))).toBe(true);
  });
});

/** signIn's dependencies: a user pool of one person (`sub` is their Cognito username, which it also
 * takes in place of their address), recording what it is asked; `verified` whether their address is proven. */
function oneAccountPool(options: { verified: boolean }) {
  const person = { email: 'person@example.com', sub: '1b0c4b5e-8f5a-4c57-9d8e-1f6f9d1a2b3c', password: 'Right-Password-1' };
  const asked: string[] = [];
  const tokens: SessionTokens = { accessToken: 'access', refreshToken: 'refresh', expiresInSeconds: 3600, personId: person.sub, sessionId: 'session' };
  const attempts = memoryAttempts();
  const deps: SignInDeps = {
    identity: {
      createUser: async () => ({ personId: person.sub }),
      signIn: async (username, password) => {
        asked.push(username);
        if ((username === person.email || username === person.sub) && password === person.password) return tokens;
        throw signInRefused.wrongEmailOrPassword();
      },
      refresh: async () => tokens,
      signOut: async () => {},
    },
    people: { getPerson: async (personId) => ({ personId, email: person.email, createdAt: '2025-01-01T00:00:00Z', emailVerifiedAt: options.verified ? '2025-01-01T00:00:00Z' : null }) },
    attempts,
    marks: { isTwoFactorOn: async () => false, markTwoFactorOff: async () => {} },
    memberships: { membershipsOf: async () => [] },
    auditLog: { appendAudit: async () => {} },
  };
  return { person, asked, attempts, deps };
}

const refusal = (attempt: Promise<unknown>) =>
  attempt.then(
    () => null,
    (error: unknown) => (error instanceof ApiError ? { code: error.code, message: error.message, details: error.details } : error),
  );

describe('a sign-in names the person by their address only', () => {
  it('refuses their Cognito username (the personId co-members see) as a wrong email or password, and neither counts it nor asks the pool', async () => {
    const { person, asked, attempts, deps } = oneAccountPool({ verified: true });
    const origin = { sourceIp: '198.51.100.7', userAgent: null };
    const now = new Date('2025-01-01T00:00:00Z');

    const bySub = await refusal(signIn(deps, { email: person.sub, password: person.password }, origin, now));
    const byWrongAddress = await refusal(signIn(deps, { email: 'someone-else@example.com', password: person.password }, origin, now));

    expect(bySub).toEqual(byWrongAddress);
    expect(bySub).toMatchObject({ code: 'AUTH_FAILED' });
    expect(asked).toEqual(['someone-else@example.com']);
    // No second set of counts: nothing was written under the sub.
    expect(await attempts.read(attemptKey(person.sub, origin.sourceIp))).toEqual({ account: null, source: null });
  });
});

describe('a source is known for an address only after a complete sign-in', () => {
  it("a squatter's right password on an account never proven is refused and leaves their sources strangers'", async () => {
    const { person, deps, attempts } = oneAccountPool({ verified: false });
    const now = new Date('2025-01-01T00:00:00Z');
    const squatterAt = ['203.0.113.1', '203.0.113.2', '203.0.113.3'];

    for (const sourceIp of squatterAt) {
      expect(await refusal(signIn(deps, { email: person.email, password: person.password }, { sourceIp, userAgent: null }, now))).toMatchObject({ details: { reason: 'EMAIL_NOT_VERIFIED' } });
    }
    // Strangers' wrong passwords spend the account's few.
    for (let n = 0; n < STRANGER_FAILURES; n++) expect(await reachesPool(attempts, `198.51.100.${n}`, now)).toBe(true);

    // The squatter's sources wait with every stranger's: none was made known for the address.
    for (const sourceIp of squatterAt) expect(await reachesPool(attempts, sourceIp, now)).toBe(false);
  });

  it('a right password not yet a complete sign-in is no failure either: the person may retry it', async () => {
    const { person, deps, attempts } = oneAccountPool({ verified: false });
    const now = new Date('2025-01-01T00:00:00Z');

    for (let n = 0; n < SOURCE_FAILURES + 1; n++) await refusal(signIn(deps, { email: person.email, password: person.password }, { sourceIp: '203.0.113.1', userAgent: null }, now));

    expect(await attempts.read(attemptKey(person.email, '203.0.113.1'))).toMatchObject({ account: { failures: 0 }, source: { failures: 0, knownUntil: null } });
  });

  it("a right password not yet a complete sign-in does not restart the account's 30 quiet minutes: strangers' failures are forgotten on time", async () => {
    const { person, deps, attempts } = oneAccountPool({ verified: false });
    const start = new Date('2025-01-01T00:00:00Z');
    const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
    // Strangers' failures at the start, one short of the limit.
    for (let n = 0; n < STRANGER_FAILURES - 1; n++) expect(await reachesPool(attempts, `198.51.100.${n}`, start)).toBe(true);
    // The right password, twice, without completing the sign-in (here: an address never proven).
    await refusal(signIn(deps, { email: person.email, password: person.password }, { sourceIp: '203.0.113.1', userAgent: null }, at(25)));
    await refusal(signIn(deps, { email: person.email, password: person.password }, { sourceIp: '203.0.113.2', userAgent: null }, at(50)));

    // 30 minutes after the strangers' last failure the account's count starts again: a new source
    // gets the strangers' whole allowance, not the one try left.
    for (let n = 0; n < STRANGER_FAILURES; n++) expect(await reachesPool(attempts, `192.0.2.${n}`, at(51)), `try ${n + 1}`).toBe(true);
  });
});
