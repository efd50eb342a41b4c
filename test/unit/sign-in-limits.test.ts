import { describe, expect, it } from 'vitest';
import { ApiError } from '#functions/shared/errors';
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
