import { describe, expect, it } from 'vitest';
import { SOURCE_FAILURES, STRANGER_FAILURES } from '#functions/people/sign-in-limits';
import { useTestApi } from '../support/local-api.ts';
import { cookieHeader, invitationTokenMailedTo, signedUpOwner, signedUpOwnerWithTwoFactor, STRONG_PASSWORD, uniqueEmail } from '../support/dashboard.ts';
import { rawDashboardRequest } from '../support/raw-dashboard-request.ts';

/**
 * Issues #31 (Security and correctness II), item 4, and #43 (Security III), item 2, replayed over
 * real sockets against the local runtime and its Cognito emulator. Each caller has a source address
 * of its own on the loopback network (127.0.x.y), which the local API reports as the source IP, as
 * API Gateway does. signedUpOwner signs the person in from 127.0.0.1: their usual place.
 */
const api = useTestApi();
const WRONG = `${STRONG_PASSWORD}-wrong`;
const USUAL = '127.0.0.1';

const signIn = (email: string, password: string, from: string) => rawDashboardRequest(api.runtime, 'POST', '/session', { body: { email, password }, from });
const answerOf = ({ status, body }: { status: number; body: any }) => ({ status, error: body?.error ?? null });

async function wrongTimes(email: string, from: string, times: number) {
  const answers = [];
  for (let i = 0; i < times; i += 1) answers.push(answerOf(await signIn(email, WRONG, from)));
  return answers;
}

describe('the sign-in lockout', () => {
  it('answers an address with no account exactly as one with an account: a stranger’s few refusals, then the wait', async () => {
    const { email } = await signedUpOwner(api.runtime, 'Enumerated Co');
    const stranger = uniqueEmail('nobody');

    const known = await wrongTimes(email, '127.0.0.2', SOURCE_FAILURES + 3);
    const unknown = await wrongTimes(stranger, '127.0.0.3', SOURCE_FAILURES + 3);

    expect(unknown).toEqual(known);
    expect(known.map((answer) => answer.status)).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
    // The right password from that source waits too: that source is done guessing for a while.
    expect((await signIn(email, STRONG_PASSWORD, '127.0.0.2')).status).toBe(429);
  });

  it('counts an account’s failures from every unknown source together, for both alike; the person’s usual place still gets in', async () => {
    const { email } = await signedUpOwner(api.runtime, 'Spread Co');
    const stranger = uniqueEmail('nobody');
    const spread = async (address: string, base: number) => [
      ...(await wrongTimes(address, `127.0.${base}.1`, 2)),
      ...(await wrongTimes(address, `127.0.${base}.2`, 2)),
      answerOf(await signIn(address, WRONG, `127.0.${base}.3`)),
    ];

    const known = await spread(email, 10);
    const unknown = await spread(stranger, 11);

    expect(unknown).toEqual(known);
    expect(known.map((answer) => answer.status)).toEqual([...Array(STRANGER_FAILURES).fill(401), 429, 429]);
    // A new place waits for the account's count to start again (30 quiet minutes); the usual one does not.
    expect((await signIn(email, STRONG_PASSWORD, '127.0.10.4')).status).toBe(429);
    expect((await signIn(email, STRONG_PASSWORD, USUAL)).status).toBe(200);
  });

  it('does not keep the person out while someone floods their address from elsewhere', async () => {
    const { email } = await signedUpOwner(api.runtime, 'Victim Co');

    const flood: number[] = [];
    for (let round = 0; round < 30; round += 1) {
      flood.push(...(await Promise.all([1, 2, 3, 4, 5].map(() => signIn(email, WRONG, '127.0.20.66')))).map((answer) => answer.status));
    }

    // Fewer than the pool needs to lock the account, so the person gets in at once.
    expect(flood.filter((status) => status === 401).length).toBeLessThanOrEqual(STRANGER_FAILURES);
    expect((await signIn(email, STRONG_PASSWORD, USUAL)).status).toBe(200);
  });

  it('stops fifty strangers’ wrong passwords, from fifty addresses, before the user pool counts them: the person gets in every time', async () => {
    const { email } = await signedUpOwner(api.runtime, 'Besieged Co');
    const rounds = [];
    for (let round = 0; round < 10; round += 1) {
      const strangers = await Promise.all([1, 2, 3, 4, 5].map((n) => signIn(email, WRONG, `127.0.${40 + round}.${n}`)));
      rounds.push({ strangers: strangers.map((answer) => answer.status).sort(), person: (await signIn(email, STRONG_PASSWORD, USUAL)).status });
    }
    for (const { strangers, person } of rounds) {
      expect(person).toBe(200);
      expect(strangers.every((status) => status === 401 || status === 429)).toBe(true);
    }
  }, 60_000);

  it('counts wrong passwords through an invitation’s link as sign-ins: fifty addresses with a leaked link do not lock the person out either', async () => {
    const { email } = await signedUpOwner(api.runtime, 'Linked Co');
    const inviter = await signedUpOwner(api.runtime, 'Inviting Co');
    expect((await inviter.browser.call('POST', '/session/confirm', { body: { password: STRONG_PASSWORD } })).status).toBe(200);
    expect((await inviter.browser.call('POST', `/companies/${inviter.companyId}/team/invitations`, { body: { email, role: 'Viewer' } })).status).toBe(201);
    const token = invitationTokenMailedTo(api.runtime, email);
    const accept = (password: string, from: string) => rawDashboardRequest(api.runtime, 'POST', '/invitations/accept', { body: { token, password }, from });

    const rounds = [];
    for (let round = 0; round < 10; round += 1) {
      const strangers = await Promise.all([1, 2, 3, 4, 5].map((n) => accept(WRONG, `127.0.${60 + round}.${n}`)));
      rounds.push({ strangers: strangers.map((answer) => answer.status), person: (await signIn(email, STRONG_PASSWORD, USUAL)).status });
    }
    for (const { strangers, person } of rounds) {
      expect(person).toBe(200);
      expect(strangers.every((status) => status === 401 || status === 429)).toBe(true);
    }
    expect(rounds.flatMap((round) => round.strangers).filter((status) => status === 401).length).toBeLessThanOrEqual(10 * STRANGER_FAILURES);
    // The person joins through the link from where they are.
    expect((await accept(STRONG_PASSWORD, USUAL)).status).toBe(200);
  }, 60_000);

  it('counts wrong passwords a session gives again (Confirm it’s you, Change password) as sign-ins: a stolen cookie guesses no further, and the person is not locked out', async () => {
    const owner = await signedUpOwner(api.runtime, 'Cookie Taken Co');
    const { jar, origin } = owner.browser;
    const asThief = async (path: string, body: object) =>
      (await rawDashboardRequest(api.runtime, 'POST', path, { body, from: '127.0.90.1', headers: { Cookie: cookieHeader(jar), Origin: origin, 'X-CSRF-Token': jar.get('cambio_csrf')! } })).status;

    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push(await asThief('/session/confirm', { password: WRONG }));
    // Account → Change password asks the current one: counted alike.
    for (let i = 0; i < 4; i += 1) answers.push(await asThief('/me/password', { currentPassword: WRONG, newPassword: `${STRONG_PASSWORD}-new` }));

    // A wrong password is 400 on the field (the page keeps its session), until the stranger's few are spent.
    expect(answers).toEqual([...Array(STRANGER_FAILURES).fill(400), ...Array(8 - STRANGER_FAILURES).fill(429)]);
    expect((await signIn(owner.email, STRONG_PASSWORD, USUAL)).status).toBe(200);
  });

  it('counts concurrent guesses: twenty at once from one source get at most three answers from the pool', async () => {
    const stranger = uniqueEmail('nobody');

    const answers = await Promise.all(Array.from({ length: 20 }, () => signIn(stranger, WRONG, '127.0.30.1')));

    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(STRANGER_FAILURES);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
  });

  it('takes the source from CloudFront, not from the viewer: a guesser who sends the person’s usual place as CloudFront-Viewer-Address is still a stranger', async () => {
    const { email } = await signedUpOwner(api.runtime, 'Impersonated Co');
    const guess = () =>
      rawDashboardRequest(api.runtime, 'POST', '/session', { body: { email, password: WRONG }, from: '127.0.40.1', headers: { 'CloudFront-Viewer-Address': `${USUAL}:443` } });

    const statuses = [];
    for (let i = 0; i < STRANGER_FAILURES + 2; i += 1) statuses.push((await guess()).status);

    expect(statuses).toEqual([...Array(STRANGER_FAILURES).fill(401), 429, 429]);
    expect((await signIn(email, STRONG_PASSWORD, USUAL)).status).toBe(200);
  });

  it('keeps a thief with the password but not the code a stranger: their password step makes none of their addresses known', async () => {
    const { email } = await signedUpOwnerWithTwoFactor(api.runtime, 'Phished Co');
    const thiefAt = ['127.0.50.1', '127.0.50.2'];
    for (const from of thiefAt) expect((await signIn(email, STRONG_PASSWORD, from)).body.data).toEqual({ signedIn: false, twoFactorRequired: true });

    const statuses = [];
    for (const from of thiefAt) statuses.push(...(await wrongTimes(email, from, STRANGER_FAILURES)).map((answer) => answer.status));

    expect(statuses).toEqual([...Array(STRANGER_FAILURES).fill(401), ...Array(STRANGER_FAILURES).fill(429)]);
    // The pool never locked the person out: from their usual place, the password step asks for the code.
    expect((await signIn(email, STRONG_PASSWORD, USUAL)).body.data).toEqual({ signedIn: false, twoFactorRequired: true });
  });
});
