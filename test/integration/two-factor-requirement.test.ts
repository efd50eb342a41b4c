import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { totpCode } from '#local/totp';
import { twoFactorMarkItem } from '#adapters/dynamo/items/two-factor';
import { useTestApi } from '../support/local-api.ts';
import { mailsTo } from '../support/outbox.ts';
import { companyItems, invitedMember, nextTotpCode, signedUpOwner, STRONG_PASSWORD } from '../support/dashboard.ts';

/**
 * Team → Two-factor sign-in through the dashboard API against the local runtime: an Owner who has it
 * on may require it of every member; from then a member without it is refused everything in the
 * company (403 `reason: TWO_FACTOR_REQUIRED`) but their own account, where they turn it on.
 */
const api = useTestApi();

type Browser = Awaited<ReturnType<typeof signedUpOwner>>['browser'];

async function turnOnTwoFactor(browser: Browser): Promise<string> {
  const { secret } = (await browser.call('POST', '/me/two-factor/setup', { body: {} })).body.data as { secret: string };
  expect((await browser.call('POST', '/me/two-factor/confirm', { body: { code: totpCode(secret) } })).status).toBe(200);
  return secret;
}

describe('requiring two-factor sign-in of a company', () => {
  it('an Owner with it on requires it; members without it are refused until they turn it on', async () => {
    const owner = await signedUpOwner(api.runtime, 'Strict Co');
    const base = `/companies/${owner.companyId}`;
    const admin = await invitedMember(api.runtime, owner.browser, owner.companyId, 'Admin');
    const developer = await invitedMember(api.runtime, owner.browser, owner.companyId, 'Developer');
    const require = (browser: Browser, required: boolean) => browser.call('PUT', `${base}/two-factor-requirement`, { body: { required } });

    // Not before the Owner has it: the rule would lock out the person who set it.
    const before = await companyItems(api.db, api.runtime, owner.companyId);
    const tooSoon = await require(owner.browser, true);
    expect(tooSoon.status).toBe(400);
    expect(tooSoon.body.error.details[0].path).toBe('required');
    expect(await companyItems(api.db, api.runtime, owner.companyId)).toEqual(before);
    await turnOnTwoFactor(owner.browser);
    // An Admin, even with two-factor sign-in on, may not set the company's rule.
    await turnOnTwoFactor(admin.browser);
    expect((await require(admin.browser, true)).status).toBe(403);

    const required = await require(owner.browser, true);
    expect(required.status).toBe(200);
    expect(required.body.data).toEqual({ required: true, changedAt: expect.any(String) });
    // Mailed to whom it stops, the Developer, and to nobody who has it on.
    const notices = (to: string) => mailsTo(api.runtime.outboxDir, to).filter((mail) => mail.subject === 'Strict Co requires two-factor sign-in');
    expect(notices(developer.email)).toHaveLength(1);
    expect(notices(developer.email)[0]!.text).toContain(`${owner.email} made Strict Co require two-factor sign-in of every member`);
    expect([...notices(owner.email), ...notices(admin.email)]).toEqual([]);

    // The Developer, without it: nothing in the company, their own account still.
    for (const path of [base, `${base}/team`, `${base}/api-keys`, `${base}/audit-log`]) {
      const refused = await developer.browser.call('GET', path);
      expect(refused.status, path).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'TWO_FACTOR_REQUIRED' } });
    }
    expect((await developer.browser.call('POST', `${base}/api-keys`, { body: { name: 'Sneaky', password: STRONG_PASSWORD } })).status).toBe(403);
    expect((await developer.browser.call('GET', '/me')).status).toBe(200);
    const team = (await owner.browser.call('GET', `${base}/team`)).body.data;
    expect(team.twoFactorRequired).toBe(true);
    expect(Object.fromEntries(team.members.map((m: { email: string; twoFactorOn: boolean }) => [m.email, m.twoFactorOn]))).toEqual({
      [owner.email]: true,
      [admin.email]: true,
      [developer.email]: false,
    });

    await turnOnTwoFactor(developer.browser);
    expect((await developer.browser.call('GET', `${base}/team`)).status).toBe(200);

    const audit = (await owner.browser.call('GET', `${base}/audit-log`)).body.data as { action: string }[];
    expect(audit.map((entry) => entry.action)).toContain('two_factor.required');
    expect((await require(owner.browser, false)).body.data).toMatchObject({ required: false });
    expect((await owner.browser.call('GET', `${base}/team`)).body.data.twoFactorRequired).toBe(false);
  });

  it('lets in someone whose two-factor sign-in predates the marks once they sign in with a code', async () => {
    const owner = await signedUpOwner(api.runtime, 'Legacy Co');
    const base = `/companies/${owner.companyId}`;
    const developer = await invitedMember(api.runtime, owner.browser, owner.companyId, 'Developer');
    await turnOnTwoFactor(owner.browser);
    const secret = await turnOnTwoFactor(developer.browser);
    expect((await owner.browser.call('PUT', `${base}/two-factor-requirement`, { body: { required: true } })).status).toBe(200);
    // As if they had turned it on before this release: Cognito has it, no mark says so.
    await api.db.send(new DeleteCommand({ TableName: api.runtime.tableName, Key: twoFactorMarkItem.key(developer.personId) }));
    expect((await developer.browser.call('GET', `${base}/team`)).body.error.details.reason).toBe('TWO_FACTOR_REQUIRED');

    await developer.browser.call('DELETE', '/session');
    expect((await developer.browser.call('POST', '/session', { body: { email: developer.email, password: STRONG_PASSWORD } })).body.data).toEqual({ signedIn: false, twoFactorRequired: true });
    expect((await developer.browser.call('POST', '/session/two-factor', { body: { code: nextTotpCode(secret) } })).status).toBe(200);
    expect((await developer.browser.call('GET', `${base}/team`)).status).toBe(200);
  });

  it('keeps a member from turning it off while the company requires it; once not, their password and code turn it off', async () => {
    const owner = await signedUpOwner(api.runtime, 'Kept Co');
    const base = `/companies/${owner.companyId}`;
    const secret = await turnOnTwoFactor(owner.browser);
    await owner.browser.call('PUT', `${base}/two-factor-requirement`, { body: { required: true } });
    const proof = { password: STRONG_PASSWORD, code: nextTotpCode(secret) };
    const refused = await owner.browser.call('POST', '/me/two-factor/turn-off', { body: proof });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Kept Co requires two-factor sign-in of every member: an Owner can stop requiring it under Team');
    expect((await owner.browser.call('GET', '/me/two-factor')).body.data).toEqual({ enabled: true });

    await owner.browser.call('PUT', `${base}/two-factor-requirement`, { body: { required: false } });
    expect((await owner.browser.call('POST', '/me/two-factor/turn-off', { body: proof })).body.data).toEqual({ enabled: false });
    expect((await owner.browser.call('GET', '/me/two-factor')).body.data).toEqual({ enabled: false });
    expect((await owner.browser.call('GET', `${base}/team`)).body.data.members[0].twoFactorOn).toBe(false);
    const audit = (await owner.browser.call('GET', `${base}/audit-log`)).body.data as { action: string }[];
    expect(audit[0]!.action).toBe('two_factor.disabled');
    // The password alone signs in again.
    expect((await owner.browser.call('POST', '/session', { body: { email: owner.email, password: STRONG_PASSWORD } })).body.data).toEqual({ signedIn: true });
  });

  it('tells a stranger nothing about the rule: 404, as for any company they are not in', async () => {
    const owner = await signedUpOwner(api.runtime, 'Private Co');
    await turnOnTwoFactor(owner.browser);
    await owner.browser.call('PUT', `/companies/${owner.companyId}/two-factor-requirement`, { body: { required: true } });
    const stranger = await signedUpOwner(api.runtime, 'Stranger Co');
    const refused = await stranger.browser.call('GET', `/companies/${owner.companyId}/team`);
    expect(refused.status).toBe(404);
    expect(refused.body.error.details).toBeNull();
  });
});
