import { describe, expect, it } from 'vitest';
import { ACCOUNT_LONGEST_WAIT_MS, accountWaitMs } from '#functions/people/sign-in-limits';

/** Cognito's own lockout after n failed passwords (its developer guide, "Lockout behavior for failed
 * sign-in attempts"): 2^(n-5) seconds from the fifth on, at most about 15 minutes. */
const cognitoLockoutMs = (failures: number) => (failures < 5 ? 0 : Math.min(15 * 60_000, 1000 * 2 ** (failures - 5)));

describe("an account's wait after failed sign-ins", () => {
  it('is none for the first four failures, then doubles from 2 s up to 16 minutes', () => {
    expect([1, 4, 5, 6, 7, 13, 14, 40].map(accountWaitMs)).toEqual([0, 0, 2000, 4000, 8000, 512_000, ACCOUNT_LONGEST_WAIT_MS, ACCOUNT_LONGEST_WAIT_MS]);
  });

  it("outlasts Cognito's own lockout after the same failures, so a stranger never meets the pool's", () => {
    for (let failures = 5; failures <= 40; failures += 1) expect(accountWaitMs(failures), `${failures}`).toBeGreaterThan(cognitoLockoutMs(failures));
  });
});
