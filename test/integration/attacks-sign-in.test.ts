import { describe, expect, it } from 'vitest';
import { accountWaitMs, SOURCE_FAILURES } from '#functions/people/sign-in-limits';
import { useTestApi } from '../support/local-api.ts';
import { signedUpOwner, STRONG_PASSWORD, uniqueEmail } from '../support/dashboard.ts';
import { rawDashboardRequest } from '../support/raw-dashboard-request.ts';

/**
 * Issue #31 (Security and correctness II), item 4, replayed over real sockets against the local
 * runtime and its Cognito emulator. Each caller has a source address of its own on the loopback
 * network (127.0.0.x), which the local API reports as the source IP, as API Gateway does.
 */
const api = useTestApi();
const WRONG = `${STRONG_PASSWORD}-wrong`;
/** The user pool's own lockout after its fifth failure in a row (local/cognito-emulator.ts, as Cognito). */
const POOL_FIRST_LOCKOUT_MS = 1_000;

const signIn = (email: string, password: string, from: string) => rawDashboardRequest(api.runtime, 'POST', '/session', { body: { email, password }, from });
const answerOf = ({ status, body }: { status: number; body: any }) => ({ status, error: body?.error ?? null });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function wrongTimes(email: string, from: string, times: number) {
  const answers = [];
  for (let i = 0; i < times; i += 1) answers.push(answerOf(await signIn(email, WRONG, from)));
  return answers;
}

describe('the sign-in lockout', () => {
  it('answers an address with no account exactly as one with an account: five refusals, then the wait', async () => {
    const { email } = await signedUpOwner(api.runtime, 'Enumerated Co');
    const stranger = uniqueEmail('nobody');

    const known = await wrongTimes(email, '127.0.0.2', SOURCE_FAILURES + 3);
    const unknown = await wrongTimes(stranger, '127.0.0.3', SOURCE_FAILURES + 3);

    expect(unknown).toEqual(known);
    expect(known.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    // The right password from that source waits too: that source is done guessing for a while.
    expect((await signIn(email, STRONG_PASSWORD, '127.0.0.2')).status).toBe(429);
  });

  it('counts an account’s failures from every source alike for both, and lets the right password in after the short wait', async () => {
    const { email } = await signedUpOwner(api.runtime, 'Spread Co');
    const stranger = uniqueEmail('nobody');
    const spread = async (address: string, base: number) => [
      ...(await wrongTimes(address, `127.0.${base}.1`, 3)),
      ...(await wrongTimes(address, `127.0.${base}.2`, 2)),
      answerOf(await signIn(address, WRONG, `127.0.${base}.3`)),
    ];

    const known = await spread(email, 10);
    const unknown = await spread(stranger, 11);

    expect(unknown).toEqual(known);
    expect(known.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 429]);
    await sleep(accountWaitMs(5) + 200);
    expect((await signIn(email, STRONG_PASSWORD, '127.0.10.3')).status).toBe(200);
  });

  it('does not keep the person out while someone floods their address from elsewhere', async () => {
    const { email } = await signedUpOwner(api.runtime, 'Victim Co');
    // Where the person usually signs in.
    expect((await signIn(email, STRONG_PASSWORD, '127.0.20.1')).status).toBe(200);

    const flood: number[] = [];
    for (let round = 0; round < 30; round += 1) {
      flood.push(...(await Promise.all([1, 2, 3, 4, 5].map(() => signIn(email, WRONG, '127.0.20.66')))).map((answer) => answer.status));
    }
    const flooded = Date.now();

    expect(flood.filter((status) => status === 401).length).toBeLessThanOrEqual(SOURCE_FAILURES);
    // The user pool locks the account itself for a second after its fifth failure (Cognito does
    // too, and Cambio cannot skip it): the five the flood's source was allowed may end with its
    // last round, so the person signs in from their usual place once that second is over. A loaded
    // CI run, whose last counted failure came late in the flood, was refused inside it.
    await sleep(Math.max(0, flooded + POOL_FIRST_LOCKOUT_MS + 200 - Date.now()));
    expect((await signIn(email, STRONG_PASSWORD, '127.0.20.1')).status).toBe(200);
    // From a new place too, once the account's short wait has passed (its count starts again at
    // the right password, so this is the wait at most).
    await sleep(Math.max(0, flooded + accountWaitMs(SOURCE_FAILURES) + 200 - Date.now()));
    expect((await signIn(email, STRONG_PASSWORD, '127.0.20.2')).status).toBe(200);
  });

  it('counts concurrent guesses: twenty at once from one source get five answers from the pool', async () => {
    const stranger = uniqueEmail('nobody');

    const answers = await Promise.all(Array.from({ length: 20 }, () => signIn(stranger, WRONG, '127.0.30.1')));

    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(SOURCE_FAILURES);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
  });
});
