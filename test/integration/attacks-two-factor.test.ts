import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { twoFactorMarkItem } from '#adapters/dynamo/items/two-factor';
import { REPLACEMENT_CONFIRM_MS } from '#functions/people/two-factor';
import { CODE_FAILURE_LIMIT } from '#functions/people/code-attempts';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { totpCode } from '#local/totp';
import { useTestApi } from '../support/local-api.ts';
import { authenticatorApp, dashboardBrowser, signedUpOwnerWithTwoFactor, STRONG_PASSWORD, type DashboardCall } from '../support/dashboard.ts';

/**
 * Attacks on authenticator codes through the dashboard API of the local runtime (real sockets,
 * DynamoDB Local, the Cognito emulator), each by someone who has the person's password, or only
 * their session cookie: guessing the code without end, in parallel, using a code twice, replacing
 * the authenticator app or turning it off. Cambio's own limits (functions/people/code-attempts.ts)
 * hold whatever the identity provider does.
 */
// Long enough for every test here to set up and act on a recent sign-in (a loaded CI machine
// included); attacks-two-factor-old-session.test.ts proves what happens once it is older.
const RECENT_SECONDS = 45;
const api = useTestApi(undefined, { environment: { DASHBOARD_RECENT_SIGN_IN_SECONDS: String(RECENT_SECONDS) } });
const destination = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 9_402);

const ownerWithTwoFactor = (companyName: string) => signedUpOwnerWithTwoFactor(api.runtime, companyName);
type Owner = Awaited<ReturnType<typeof ownerWithTwoFactor>>;

/** Six digits the app does not show now, nor a step either side: a guess that misses. */
function wrongCode(secret: string, n: number): string {
  const accepted = [-30_000, 0, 30_000].map((offset) => totpCode(secret, Date.now() + offset));
  for (let candidate = 100_000 + n; ; candidate += 1000) if (!accepted.includes(String(candidate))) return String(candidate);
}

/** Someone with the password but not the app: a browser of their own, the password, then `code`. */
async function signInWithCode(owner: Owner, code: string): Promise<DashboardCall> {
  const browser = dashboardBrowser(api.runtime);
  const password = await browser.call('POST', '/session', { body: { email: owner.email, password: STRONG_PASSWORD } });
  expect(password.body.data).toEqual({ signedIn: false, twoFactorRequired: true });
  return browser.call('POST', '/session/two-factor', { body: { code } });
}

/** Every place a code is checked, each after the right password. */
const PLACES: Record<string, (owner: Owner, code: string, n: number) => Promise<DashboardCall>> = {
  "sign-in's second step": signInWithCode,
  "Confirm it's you": (owner, code) => owner.browser.call('POST', '/session/confirm', { body: { password: STRONG_PASSWORD, code } }),
  'New withdrawal': (owner, code, n) =>
    owner.browser.call('POST', `/companies/${owner.companyId}/withdrawals`, { body: { network: 'tron', address: destination, amount: '5', reference: `guess-${n}`, password: STRONG_PASSWORD, code } }),
  'replacing the authenticator app': (owner, code) => owner.browser.call('POST', '/me/two-factor/setup', { body: { password: STRONG_PASSWORD, currentCode: code } }),
};

function expectCodesLocked(call: DashboardCall): void {
  expect(call.status).toBe(429);
  expect(call.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { reason: 'CODE_ATTEMPTS', lockedUntil: expect.any(String) } });
  expect(call.body.error.message).toMatch(/^Too many wrong authentication codes: try again after \d\d:\d\d UTC$/);
  const lockedForSeconds = (Date.parse(call.body.error.details.lockedUntil) - Date.now()) / 1000;
  expect(lockedForSeconds).toBeGreaterThan(14 * 60);
  expect(lockedForSeconds).toBeLessThanOrEqual(15 * 60);
}

describe('guessing the authenticator code with the password', () => {
  for (const [place, attempt] of Object.entries(PLACES)) {
    it(`locks codes after ${CODE_FAILURE_LIMIT} wrong ones at ${place}, the right one too, everywhere; the right password clears nothing`, async () => {
      const owner = await ownerWithTwoFactor(`Guessed Co`);
      for (let n = 0; n < CODE_FAILURE_LIMIT; n += 1) {
        const guess = await attempt(owner, wrongCode(owner.secret, n), n);
        expect([400, 401], JSON.stringify(guess.body)).toContain(guess.status);
      }
      // Each guess came after the right password; the app's right code now is refused all the same
      // (refused, so not spent: the same code serves both).
      expectCodesLocked(await attempt(owner, totpCode(owner.secret), CODE_FAILURE_LIMIT));
      expectCodesLocked(await signInWithCode(owner, totpCode(owner.secret)));
      expect((await owner.browser.call('GET', '/me/two-factor')).body.data).toEqual({ enabled: true });
    }, 90_000);
  }

  it(`lets no more than ${CODE_FAILURE_LIMIT} of 20 parallel guesses be judged`, async () => {
    const owner = await ownerWithTwoFactor('Parallel Co');
    // The passwords one after another: Cambio's sign-in limits take 20 sign-ins of one account from
    // one address at once as the flood they would be. The guesses are what race.
    const browsers: ReturnType<typeof dashboardBrowser>[] = [];
    for (let n = 0; n < 20; n += 1) {
      const browser = dashboardBrowser(api.runtime);
      expect((await browser.call('POST', '/session', { body: { email: owner.email, password: STRONG_PASSWORD } })).body.data).toMatchObject({ twoFactorRequired: true });
      browsers.push(browser);
    }
    const guesses = await Promise.all(browsers.map((browser, n) => browser.call('POST', '/session/two-factor', { body: { code: wrongCode(owner.secret, n) } })));
    const statuses = guesses.map((guess) => guess.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(CODE_FAILURE_LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20 - CODE_FAILURE_LIMIT);
    expectCodesLocked(await signInWithCode(owner, await owner.app()));
  }, 90_000);
});

describe('a code used twice', () => {
  it('lets one of two sessions in with the same code; the other needs the next code', async () => {
    const owner = await ownerWithTwoFactor('Replay Co');
    const [first, second] = [dashboardBrowser(api.runtime), dashboardBrowser(api.runtime)];
    for (const browser of [first, second]) await browser.call('POST', '/session', { body: { email: owner.email, password: STRONG_PASSWORD } });
    const code = await owner.app();
    const answers = await Promise.all([first, second].map((browser) => browser.call('POST', '/session/two-factor', { body: { code } })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    const refused = answers.find((answer) => answer.status === 400)!;
    expect(refused.body.error.details).toEqual([{ path: 'code', message: 'was used already: enter the next code your authenticator app shows' }]);
    // Once in, the same code again: refused at `Confirm it's you` too.
    const signedIn = answers[0]!.status === 200 ? first : second;
    const again = await signedIn.call('POST', '/session/confirm', { body: { password: STRONG_PASSWORD, code } });
    expect(again.status).toBe(400);
    expect(again.body.error.details[0].message).toBe('was used already: enter the next code your authenticator app shows');
    // The refused sign-in was not spent: the app's next code finishes it.
    const waiting = answers[0]!.status === 200 ? second : first;
    expect((await waiting.call('POST', '/session/two-factor', { body: { code: await owner.app() } })).status).toBe(200);
  }, 90_000);
});

describe('the authenticator app, with a session alone', () => {
  it('is replaced only with the password and the current app’s code, asked before a new secret is handed out', async () => {
    const owner = await ownerWithTwoFactor('Replace Co');
    const setUp = (body: object) => owner.browser.call('POST', '/me/two-factor/setup', { body });
    const refusals: [object, string, string][] = [
      [{}, 'password', 'is needed to replace your authenticator app: your password and the code the app you have now shows'],
      [{ password: STRONG_PASSWORD }, 'currentCode', 'is needed to replace your authenticator app: your password and the code the app you have now shows'],
      [{ password: 'Not-The-Password-1', currentCode: wrongCode(owner.secret, 0) }, 'password', 'is wrong'],
      [{ password: STRONG_PASSWORD, currentCode: wrongCode(owner.secret, 1) }, 'currentCode', 'does not match: enter the one your authenticator app shows now'],
    ];
    for (const [body, path, message] of refusals) {
      const refused = await setUp(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.details).toEqual([{ path, message }]);
    }
    // Nothing was begun at the user pool: a set-up begun would let the password alone in (Cognito's
    // reference, which the local pool follows); signing in still asks for the code.
    const password = await dashboardBrowser(api.runtime).call('POST', '/session', { body: { email: owner.email, password: STRONG_PASSWORD } });
    expect(password.body.data).toEqual({ signedIn: false, twoFactorRequired: true });

    const { secret: newSecret } = (await setUp({ password: STRONG_PASSWORD, currentCode: await owner.app() })).body.data as { secret: string };
    const newApp = authenticatorApp(newSecret);
    expect((await owner.browser.call('POST', '/me/two-factor/confirm', { body: { code: await newApp() } })).body.data).toEqual({ enabled: true });
    const audit = (await owner.browser.call('GET', `/companies/${owner.companyId}/audit-log`)).body.data as { action: string }[];
    expect(audit[0]!.action).toBe('two_factor.replaced');
    // The old app's codes no longer sign in (the step before's, which the pool took a moment ago and
    // no one has used); the new one's do.
    expect((await signInWithCode(owner, totpCode(owner.secret, Date.now() - 30_000))).status).toBe(401);
    expect((await signInWithCode(owner, await newApp())).status).toBe(200);
  }, 90_000);

  it('is replaced only by a confirm of a replacement begun with the proof in the last 15 minutes', async () => {
    const owner = await ownerWithTwoFactor('Late Co');
    const { secret } = (await owner.browser.call('POST', '/me/two-factor/setup', { body: { password: STRONG_PASSWORD, currentCode: await owner.app() } })).body.data as { secret: string };
    // As a set-up begun without the proof would be (by a session alone, before this rule): no
    // replacement the person began lately.
    const { personId } = (await owner.browser.call('GET', '/me')).body.data as { personId: string };
    const longAgo = new Date(Date.now() - REPLACEMENT_CONFIRM_MS - 1000).toISOString();
    await api.db.send(new UpdateCommand({ TableName: api.runtime.tableName, Key: twoFactorMarkItem.key(personId), UpdateExpression: 'SET replacementBegunAt = :at', ExpressionAttributeValues: { ':at': longAgo } }));

    const refused = await owner.browser.call('POST', '/me/two-factor/confirm', { body: { code: totpCode(secret) } });

    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ path: 'code', message: 'confirms no replacement begun with your password and current code in the last 15 minutes: begin it again' }]);
  }, 90_000);

  it('is not replaced through a set-up its person began and left unconfirmed, in which the pool asks for no code', async () => {
    const owner = await ownerWithTwoFactor('Left Co');
    const left = (await owner.browser.call('POST', '/me/two-factor/setup', { body: { password: STRONG_PASSWORD, currentCode: await owner.app() } })).body.data as { secret: string };
    // Cognito's reference: an associated, unverified token lets the person sign in on the password
    // alone (the local pool does as it says). Someone with the password then offers any code as the
    // current app's: the pool never checks it, so it is refused, and no new app goes on.
    const refused = await owner.browser.call('POST', '/me/two-factor/setup', { body: { password: STRONG_PASSWORD, currentCode: wrongCode(owner.secret, 2) } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ path: 'currentCode', message: 'could not be checked: signing in did not ask for it, as after a replacement begun and left. Confirm that one with the app you added its key to, or turn two-factor sign-in off and set it up again' }]);
    // The person's way back: the code of the app they added the left set-up's key to.
    const added = authenticatorApp(left.secret);
    expect((await owner.browser.call('POST', '/me/two-factor/confirm', { body: { code: await added() } })).body.data).toEqual({ enabled: true });
    expect((await signInWithCode(owner, await added())).status).toBe(200);
  }, 90_000);

  it('is turned off only with the password and its code', { timeout: 90_000 }, async () => {
    const owner = await ownerWithTwoFactor('Turn-off Co');
    const turnOff = (body: object) => owner.browser.call('POST', '/me/two-factor/turn-off', { body });
    const noCode = await turnOff({ password: STRONG_PASSWORD });
    expect(noCode.body.error.details).toEqual([{ path: 'code', message: 'is needed: the 6 digits your authenticator app shows' }]);
    // A right code with a wrong password: refused on the password, before the code is claimed.
    expect((await turnOff({ password: 'Not-The-Password-1', code: totpCode(owner.secret) })).body.error.details[0].path).toBe('password');
    expect((await turnOff({ password: STRONG_PASSWORD, code: wrongCode(owner.secret, 0) })).body.error.details[0].path).toBe('code');
    expect((await owner.browser.call('GET', '/me/two-factor')).body.data).toEqual({ enabled: true });

    expect((await turnOff({ password: STRONG_PASSWORD, code: await owner.app() })).body.data).toEqual({ enabled: false });
    expect((await owner.browser.call('GET', '/me/two-factor')).body.data).toEqual({ enabled: false });
    const audit = (await owner.browser.call('GET', `/companies/${owner.companyId}/audit-log`)).body.data as { action: string }[];
    expect(audit[0]!.action).toBe('two_factor.disabled');
  });
});
