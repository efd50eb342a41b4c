import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { PASSWORD_RESET_ANSWER_MS } from '#functions/people/password-reset';
import { passwordResetItem } from '#adapters/dynamo/items/team';
import { useTestApi } from '../support/local-api.ts';
import { dashboardBrowser, signedUpOwner, STRONG_PASSWORD, uniqueEmail } from '../support/dashboard.ts';
import { mailsTo, type OutboxMail } from '../support/outbox.ts';

/**
 * `Forgot your password?` through the dashboard API over a real socket against the local runtime
 * (its Cognito emulator; its mail in the outbox folder): the mailed link sets a new password once,
 * ends the person's sessions, and is logged; asking tells nobody whether an account exists.
 */
const api = useTestApi();
const NEW_PASSWORD = 'Another-Horse-43';

const resetLinkIn = (mail: OutboxMail | undefined) => /^https?:\/\/\S+\/dashboard\/reset-password\?token=\S+$/m.exec(mail?.text ?? '')?.[0];
const tokenOf = (link: string | undefined) => new URL(link!).searchParams.get('token')!;

async function askReset(email: string) {
  return dashboardBrowser(api.runtime).call('POST', '/password-reset', { body: { email } });
}

async function signInStatus(email: string, password: string) {
  return (await dashboardBrowser(api.runtime).call('POST', '/session', { body: { email, password } })).status;
}

describe('a password reset by mail', () => {
  it('mails a link that sets a new password once, ends every session of the person, and is in the audit log', async () => {
    const owner = await signedUpOwner(api.runtime, 'Forgetful Co');
    expect((await owner.browser.call('GET', '/me')).status).toBe(200);

    const asked = await askReset(owner.email.toUpperCase());

    expect(asked.status).toBe(202);
    const [mail, ...more] = mailsTo(api.runtime.outboxDir, owner.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Reset your Cambio password');
    const link = resetLinkIn(mail);
    expect(link).toMatch(new RegExp(`^${new URL(api.runtime.apiUrl).origin}/dashboard/reset-password\\?token=[0-9a-f-]{36}\\.[\\w-]{43}$`));

    const reset = await dashboardBrowser(api.runtime).call('POST', '/password-reset/confirm', { body: { token: tokenOf(link), password: NEW_PASSWORD } });

    expect(reset.status).toBe(200);
    // The session cookie as a Cookie header the authorizer has not seen (its cache, as API Gateway's, holds an answer 60 s).
    const session = owner.browser.jar.get('cambio_session')!;
    expect((await fetch(`${owner.browser.origin}/dashboard/api/me`, { headers: { Cookie: `cambio_session=${session}; uncached=${Math.random()}` } })).status).toBe(401);
    expect(await signInStatus(owner.email, STRONG_PASSWORD)).toBe(401);
    const signedIn = dashboardBrowser(api.runtime);
    expect((await signedIn.call('POST', '/session', { body: { email: owner.email, password: NEW_PASSWORD } })).status).toBe(200);
    const again = await dashboardBrowser(api.runtime).call('POST', '/password-reset/confirm', { body: { token: tokenOf(link), password: 'Third-Horse-44!' } });
    expect(again.status).toBe(404);
    expect(again.body.error.message).toContain('This password reset link is not valid');
    const audit = (await signedIn.call('GET', `/companies/${owner.companyId}/audit-log`)).body.data as { action: string; actor: { email: string } }[];
    expect(audit[1]).toMatchObject({ action: 'password.reset', actor: { email: owner.email } });
  });

  it('answers an address with no account exactly as one with an account, no sooner, and mails it nothing', async () => {
    const owner = await signedUpOwner(api.runtime, 'Known Co');
    const stranger = uniqueEmail('nobody');

    const known = await askReset(owner.email);
    const started = performance.now();
    const unknown = await askReset(stranger);
    const unknownMs = performance.now() - started;

    expect([unknown.status, unknown.body]).toEqual([known.status, known.body]);
    // Not a speed target: the floor that keeps the time from telling (PASSWORD_RESET_ANSWER_MS).
    expect(unknownMs).toBeGreaterThanOrEqual(PASSWORD_RESET_ANSWER_MS - 10);
    expect(mailsTo(api.runtime.outboxDir, stranger)).toEqual([]);
  });

  it('sends one mail a minute: asking again at once sends nothing and keeps the first link working', async () => {
    const owner = await signedUpOwner(api.runtime, 'Impatient Co');

    const answers = await Promise.all([askReset(owner.email), askReset(owner.email), askReset(owner.email)]);

    expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202]);
    const mails = mailsTo(api.runtime.outboxDir, owner.email);
    expect(mails).toHaveLength(1);
    expect((await dashboardBrowser(api.runtime).call('POST', '/password-reset/confirm', { body: { token: tokenOf(resetLinkIn(mails[0])), password: NEW_PASSWORD } })).status).toBe(200);
  });

  it('mails an address a few resets a day, not one a minute: past the limit the answer is the same, and nothing is sent', async () => {
    const owner = await signedUpOwner(api.runtime, 'Flooded Co');
    const personId = (await owner.browser.call('GET', '/me')).body.data.personId as string;
    // functions/people/password-reset.ts's limit on an address's reset mails a day from one source,
    // written out so the test stands without it: the local API's requests all come from one.
    const MAILS_PER_ADDRESS_AND_SOURCE_PER_DAY = 5;

    const answers = [];
    for (let asked = 0; asked < 20; asked += 1) {
      answers.push((await askReset(owner.email)).status);
      // The stored link made two minutes ago, as if the script waited out the one-a-minute limit each time.
      await api.db.send(
        new UpdateCommand({ TableName: api.runtime.tableName, Key: passwordResetItem.key(personId), UpdateExpression: 'SET createdAt = :before', ExpressionAttributeValues: { ':before': new Date(Date.now() - 120_000).toISOString() } }),
      );
    }

    expect(answers).toEqual(answers.map(() => 202));
    const resets = mailsTo(api.runtime.outboxDir, owner.email).filter((mail) => mail.subject === 'Reset your Cambio password');
    expect(resets).toHaveLength(MAILS_PER_ADDRESS_AND_SOURCE_PER_DAY);
  });

  it('refuses a password the policy refuses and keeps the link for a better one', async () => {
    const owner = await signedUpOwner(api.runtime, 'Weak Co');
    await askReset(owner.email);
    const token = tokenOf(resetLinkIn(mailsTo(api.runtime.outboxDir, owner.email)[0]));

    const weak = await dashboardBrowser(api.runtime).call('POST', '/password-reset/confirm', { body: { token, password: 'short' } });

    expect(weak.status).toBe(400);
    expect(weak.body.error.details).toEqual([expect.objectContaining({ path: 'password' })]);
    expect(await signInStatus(owner.email, STRONG_PASSWORD)).toBe(200);
    expect((await dashboardBrowser(api.runtime).call('POST', '/password-reset/confirm', { body: { token, password: NEW_PASSWORD } })).status).toBe(200);
  });

  it('lets one of two uses of the same link at the same moment through', async () => {
    const owner = await signedUpOwner(api.runtime, 'Racing Co');
    await askReset(owner.email);
    const token = tokenOf(resetLinkIn(mailsTo(api.runtime.outboxDir, owner.email)[0]));

    const [first, second] = await Promise.all(
      ['First-Horse-45!', 'Second-Horse-46!'].map((password) => dashboardBrowser(api.runtime).call('POST', '/password-reset/confirm', { body: { token, password } })),
    );

    expect([first!.status, second!.status].sort()).toEqual([200, 404]);
    const chosen = first!.status === 200 ? 'First-Horse-45!' : 'Second-Horse-46!';
    expect(await signInStatus(owner.email, chosen)).toBe(200);
  });

  it('refuses a link an hour old, a made-up secret and a malformed token, changing nothing', async () => {
    const owner = await signedUpOwner(api.runtime, 'Late Co');
    await askReset(owner.email);
    const token = tokenOf(resetLinkIn(mailsTo(api.runtime.outboxDir, owner.email)[0]));
    const [personId] = token.split('.');
    const confirm = (body: object) => dashboardBrowser(api.runtime).call('POST', '/password-reset/confirm', { body });

    expect((await confirm({ token: `${personId}.${'A'.repeat(43)}`, password: NEW_PASSWORD })).status).toBe(404);
    expect((await confirm({ token: 'not-a-token', password: NEW_PASSWORD })).status).toBe(400);
    await api.db.send(
      new UpdateCommand({ TableName: api.runtime.tableName, Key: passwordResetItem.key(personId!), UpdateExpression: 'SET expiresAt = :past', ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() } }),
    );
    expect((await confirm({ token, password: NEW_PASSWORD })).status).toBe(404);

    expect(await signInStatus(owner.email, STRONG_PASSWORD)).toBe(200);
  });
});

describe('Account → Change password', () => {
  it('changes the password with the current one, ends every session, this one too, and is in the audit log', async () => {
    const owner = await signedUpOwner(api.runtime, 'Changing Co');
    const session = owner.browser.jar.get('cambio_session')!;

    const changed = await owner.browser.call('POST', '/me/password', { body: { currentPassword: STRONG_PASSWORD, newPassword: NEW_PASSWORD } });

    expect(changed.status).toBe(200);
    expect((await fetch(`${owner.browser.origin}/dashboard/api/me`, { headers: { Cookie: `cambio_session=${session}; uncached=${Math.random()}` } })).status).toBe(401);
    expect(await signInStatus(owner.email, STRONG_PASSWORD)).toBe(401);
    const signedIn = dashboardBrowser(api.runtime);
    expect((await signedIn.call('POST', '/session', { body: { email: owner.email, password: NEW_PASSWORD } })).status).toBe(200);
    const audit = (await signedIn.call('GET', `/companies/${owner.companyId}/audit-log`)).body.data as { action: string; actor: { email: string } }[];
    expect(audit[1]).toMatchObject({ action: 'password.changed', actor: { email: owner.email } });
  });

  it('ends the person’s other sessions at once: their next request is refused within a second, not when a cached answer lapses', async () => {
    const owner = await signedUpOwner(api.runtime, 'Two Devices Co');
    const laptop = dashboardBrowser(api.runtime);
    expect((await laptop.call('POST', '/session', { body: { email: owner.email, password: STRONG_PASSWORD } })).status).toBe(200);
    // The laptop's session was just admitted: an authorizer answer cached for it would admit it again.
    expect((await laptop.call('GET', '/me')).status).toBe(200);

    expect((await owner.browser.call('POST', '/me/password', { body: { currentPassword: STRONG_PASSWORD, newPassword: NEW_PASSWORD } })).status).toBe(200);
    const changedAt = Date.now();

    expect((await laptop.call('GET', '/me')).status).toBe(401);
    expect(Date.now() - changedAt).toBeLessThan(1000);
  });

  it('refuses a wrong current password and a new one the policy refuses, changing nothing', async () => {
    const owner = await signedUpOwner(api.runtime, 'Careful Co');

    const wrong = await owner.browser.call('POST', '/me/password', { body: { currentPassword: 'Not-The-Password-1', newPassword: NEW_PASSWORD } });
    const weak = await owner.browser.call('POST', '/me/password', { body: { currentPassword: STRONG_PASSWORD, newPassword: 'weak' } });
    const signedOut = await dashboardBrowser(api.runtime).call('POST', '/me/password', { body: { currentPassword: STRONG_PASSWORD, newPassword: NEW_PASSWORD } });

    expect([wrong.status, wrong.body.error.details]).toEqual([400, [expect.objectContaining({ path: 'currentPassword', message: 'is not your password' })]]);
    expect([weak.status, weak.body.error.details]).toEqual([400, [expect.objectContaining({ path: 'newPassword' })]]);
    expect(signedOut.status).toBe(401);
    expect((await owner.browser.call('GET', '/me')).status).toBe(200);
    expect(await signInStatus(owner.email, STRONG_PASSWORD)).toBe(200);
  });
});
