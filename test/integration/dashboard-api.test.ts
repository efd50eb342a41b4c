import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoApiKeyStore } from '#adapters/dynamo/api-key-store';
import { DynamoInvitationStore } from '#adapters/dynamo/invitation-store';
import { membershipItem } from '#adapters/dynamo/items/team';
import { createCompanyInvitingOwner } from '#functions/people/invitations';
import { hashSecret } from '#functions/api-keys/api-keys';
import { apiClient, useTestApi } from '../support/local-api.ts';
import { totpCode } from '#local/totp';
import { companyItems as companyItemsOf, dashboardBrowser, nextTotpCode, signedUpOwner, STRONG_PASSWORD, uniqueEmail, verifyTokenMailedTo } from '../support/dashboard.ts';
import { apiKeyItem } from '#adapters/dynamo/items/company';
import { DynamoDashboardSessions } from '#adapters/dynamo/dashboard-session-store';
import { sessionKeyOf } from '#functions/people/dashboard-sessions';
import { LOCAL_CLIENT_ID } from '#local/cognito-emulator';
import { sessionTokens } from '../support/dashboard-sessions.ts';

/**
 * The dashboard API through a real socket against the local runtime, with sign-in through the
 * local Cognito emulator: sign-up, keys made, rolled and revoked, the audit log, and every refusal
 * the dashboard's security section asks for, each shown to write nothing.
 */
const api = useTestApi((db, tableName) => ({ keys: new DynamoApiKeyStore(db, tableName), invitations: new DynamoInvitationStore(db, tableName) }));

const companyItems = (companyId: string) => companyItemsOf(api.db, api.runtime, companyId);

describe('sign-up and the API keys of Integrations', () => {
  it('tells the signed-out pages what the local stage offers: sign-up and a password reset by mail', async () => {
    const stage = await dashboardBrowser(api.runtime).call('GET', '/stage');

    expect(stage.status).toBe(200);
    expect(stage.body.data).toEqual({ environment: 'sandbox', selfSignUp: true, passwordResetByMail: true, networks: ['tron'] });
  });

  it('signs a new person up as the Owner of a sandbox company once the mailed link confirms the address, in HttpOnly SameSite=Strict cookies', async () => {
    const browser = dashboardBrowser(api.runtime);
    const email = uniqueEmail('new');
    const signedUp = await browser.call('POST', '/sign-up', { body: { companyName: 'Fresh Co', email, password: STRONG_PASSWORD } });
    expect(signedUp.status).toBe(202);
    expect(signedUp.setCookies).toEqual([]);

    const response = await browser.call('POST', '/sign-up/verify', { body: { token: verifyTokenMailedTo(api.runtime, email), password: STRONG_PASSWORD } });
    expect(response.status).toBe(200);
    const session = response.setCookies.find((c) => c.startsWith('cambio_session='))!;
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Strict/);
    // Plain http on loopback: a Secure cookie would never come back.
    expect(session).not.toMatch(/Secure/);
    expect(response.setCookies.find((c) => c.startsWith('cambio_csrf='))).not.toMatch(/HttpOnly/);
    const me = await browser.call('GET', '/me');
    expect(me.body.data).toMatchObject({ email, companies: [{ id: expect.any(String), name: 'Fresh Co', environment: 'sandbox', role: 'Owner' }] });
    const overview = await browser.call('GET', `/companies/${me.body.data.companies[0].id}`);
    expect(overview.body.data.balance.balances).toEqual([
      { currency: 'USDT', available: '0.000000', pending: '0.000000', locked: '0.000000' },
      { currency: 'BRL', available: '0.00', pending: '0.00', locked: '0.00' },
    ]);
    // Held deposits are counted apart from the balance (../shared/dashboard.md, Held deposits).
    expect(overview.body.data.held).toEqual([
      { currency: 'USDT', amount: '0.000000' },
      { currency: 'BRL', amount: '0.00' },
    ]);
  });

  it('refuses a weak password, for an address already registered as for a new one', async () => {
    const { email } = await signedUpOwner(api.runtime);
    for (const address of [uniqueEmail('weak'), email]) {
      const weak = await dashboardBrowser(api.runtime).call('POST', '/sign-up', { body: { companyName: 'Weak', email: address, password: 'short' } });
      expect(weak.status).toBe(400);
      expect(weak.body.error.details[0].path).toBe('password');
    }
  });

  it('makes a key whose secret is shown once and calls /v1 with it; the list shows no secret and records last use', async () => {
    const { browser, companyId } = await signedUpOwner(api.runtime);
    const created = await browser.call('POST', `/companies/${companyId}/api-keys`, { body: { name: 'Checkout server', password: STRONG_PASSWORD } });
    expect(created.status).toBe(201);
    const { apiKey, apiSecret } = created.body.data;

    const company = await apiClient(api.runtime, { apiKey, apiSecret })('GET', '/company');
    expect(company.status).toBe(200);
    expect(company.body.data.id).toBe(companyId);

    const list = await browser.call('GET', `/companies/${companyId}/api-keys`);
    expect(list.body.data).toEqual([
      expect.objectContaining({ keyId: apiKey, name: 'Checkout server', status: 'active', lastUsedAt: expect.any(String) }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain(apiSecret);
    const stored = await api.keys.findApiKey(apiKey);
    expect(stored?.secretHash).toBe(hashSecret(apiSecret));
  });

  it('rolls a secret keeping the old one valid for the chosen time, and revokes a key with 401 AUTH_FAILED after', async () => {
    const { browser, companyId } = await signedUpOwner(api.runtime);
    const { apiKey, apiSecret: first } = (await browser.call('POST', `/companies/${companyId}/api-keys`, { body: { name: 'Rolled', password: STRONG_PASSWORD } })).body.data;

    const rolled = await browser.call('POST', `/companies/${companyId}/api-keys/${apiKey}/roll`, { body: { oldSecretValidFor: '1h', password: STRONG_PASSWORD } });
    expect(rolled.status).toBe(200);
    const second = rolled.body.data.apiSecret;
    expect(second).not.toBe(first);
    expect(rolled.body.data.key.previousSecretExpiresAt).toEqual(expect.any(String));
    expect((await apiClient(api.runtime, { apiKey, apiSecret: first })('GET', '/company')).status).toBe(200);
    expect((await apiClient(api.runtime, { apiKey, apiSecret: second })('GET', '/company')).status).toBe(200);

    const third = (await browser.call('POST', `/companies/${companyId}/api-keys/${apiKey}/roll`, { body: { oldSecretValidFor: 'now', password: STRONG_PASSWORD } })).body.data.apiSecret;
    const revoked = await browser.call('POST', `/companies/${companyId}/api-keys/${apiKey}/revoke`, { body: {} });
    expect(revoked.body.data).toMatchObject({ status: 'revoked', revokedAt: expect.any(String) });
    // This pair was never seen by the authorizer, so no cached answer stands in for it.
    const refused = await apiClient(api.runtime, { apiKey, apiSecret: third })('GET', '/company');
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('AUTH_FAILED');

    const audit = await browser.call('GET', `/companies/${companyId}/audit-log`);
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual(['api_key.revoked', 'api_key.rolled', 'api_key.rolled', 'api_key.created', 'email.verified', 'signed_up']);
    expect(audit.body.data[2]).toMatchObject({ target: apiKey, details: { oldSecretValidFor: '1h' }, sourceIp: expect.stringMatching(/127\.0\.0\.1/), actor: { email: expect.any(String) } });
  });

  it('reads a key stored before the dashboard as an active "Default key" that works, and can revoke it', async () => {
    const { browser, companyId } = await signedUpOwner(api.runtime);
    const legacySecret = 'cs_test_legacylegacylegacylegacylegacylegacyleg';
    const legacyKey = 'ck_test_LegacyLegacyLegacyLegacy';
    await api.db.send(
      new PutCommand({
        TableName: api.runtime.tableName,
        Item: { ...apiKeyItem.keys(companyId, legacyKey), keyId: legacyKey, companyId, environment: 'sandbox', secretHash: hashSecret(legacySecret), createdAt: '2026-01-01T00:00:00.000Z' },
      }),
    );
    expect((await apiClient(api.runtime, { apiKey: legacyKey, apiSecret: legacySecret })('GET', '/company')).status).toBe(200);
    const list = await browser.call('GET', `/companies/${companyId}/api-keys`);
    expect(list.body.data).toEqual([expect.objectContaining({ keyId: legacyKey, name: 'Default key', status: 'active', access: 'full', lastUsedAt: expect.any(String) })]);
    // Full access, as every key was before read-only keys.
    expect((await apiClient(api.runtime, { apiKey: legacyKey, apiSecret: legacySecret })('POST', '/deposits', { body: { method: 'usdt', network: 'tron', reference: 'legacy' } })).status).toBe(201);
    expect((await browser.call('POST', `/companies/${companyId}/api-keys/${legacyKey}/revoke`, { body: {} })).status).toBe(200);
  });
});

describe('sessions', () => {
  it("signs out (the session ends, and the user pool revokes its refresh token) and back in; a wrong password is refused", async () => {
    const { browser, email, companyId } = await signedUpOwner(api.runtime);
    const session = browser.jar.get('cambio_session')!;
    const sessions = new DynamoDashboardSessions(api.db, api.runtime.tableName);
    const { refreshToken } = await sessionTokens(api.db, api.runtime, session);
    expect((await browser.call('DELETE', '/session')).status).toBe(200);
    expect(browser.jar.has('cambio_session')).toBe(false);
    expect((await browser.call('GET', '/me')).status).toBe(401);
    browser.jar.set('cambio_session', session);
    expect((await browser.call('GET', '/me')).status).toBe(401);
    expect((await browser.call('POST', '/session/refresh')).status).toBe(401);
    expect(await sessions.find(sessionKeyOf(session))).toBeNull();
    // The session's refresh token, revoked at the user pool: no one renews a token from it.
    const renewal = await fetch(api.runtime.cognitoEndpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-amz-json-1.1', 'X-Amz-Target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
      body: JSON.stringify({ AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId: LOCAL_CLIENT_ID, AuthParameters: { REFRESH_TOKEN: refreshToken } }),
    });
    expect(renewal.status).toBe(400);
    browser.jar.clear();

    const wrong = await browser.call('POST', '/session', { body: { email, password: `${STRONG_PASSWORD}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.message).toBe('Sign-in failed: wrong email or password');
    const unknown = await browser.call('POST', '/session', { body: { email: uniqueEmail('nobody'), password: STRONG_PASSWORD } });
    expect(unknown.body.error).toEqual(wrong.body.error);

    expect((await browser.call('POST', '/session', { body: { email: email.toUpperCase(), password: STRONG_PASSWORD } })).status).toBe(200);
    expect((await browser.call('GET', '/me')).body.data.companies[0].id).toBe(companyId);
    const audit = await browser.call('GET', `/companies/${companyId}/audit-log`);
    expect(audit.body.data[0]).toMatchObject({ action: 'signed_in', actor: { email } });
  });

  it('refuses a copied session cookie once its person signs out, on every device, and lets them sign in again at once', async () => {
    const { browser, email } = await signedUpOwner(api.runtime);
    const copiedSession = browser.jar.get('cambio_session')!;
    // The same person on a second device, signed in a second earlier than the sign-out.
    const otherDevice = dashboardBrowser(api.runtime);
    expect((await otherDevice.call('POST', '/session', { body: { email, password: STRONG_PASSWORD } })).status).toBe(200);
    const otherSession = otherDevice.jar.get('cambio_session')!;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // The page's refresh keeps the same session (the cookie is not replaced).
    expect((await browser.call('POST', '/session/refresh')).status).toBe(200);
    const refreshedSession = browser.jar.get('cambio_session')!;
    expect(refreshedSession).toBe(copiedSession);

    expect((await browser.call('DELETE', '/session')).status).toBe(200);

    // Whoever holds a copy of a cookie: a Cookie header of their own (API Gateway caches the
    // authorizer's answer per Cookie header).
    const withOnly = (session: string) => fetch(`${browser.origin}/dashboard/api/me`, { headers: { Cookie: `cambio_session=${session}; copied=${Math.random()}` } });
    expect((await withOnly(copiedSession)).status).toBe(401);
    expect((await withOnly(refreshedSession)).status).toBe(401);
    expect((await withOnly(otherSession)).status).toBe(401);

    const again = dashboardBrowser(api.runtime);
    expect((await again.call('POST', '/session', { body: { email, password: STRONG_PASSWORD } })).status).toBe(200);
    expect((await again.call('GET', '/me')).status).toBe(200);
  });

  it('turns on two-factor sign-in with an authenticator app, then asks for its code after the password', async () => {
    const { browser, email, companyId } = await signedUpOwner(api.runtime);
    expect((await browser.call('GET', '/me/two-factor')).body.data).toEqual({ enabled: false });
    const setup = await browser.call('POST', '/me/two-factor/setup', { body: {} });
    expect(setup.status).toBe(200);
    const { secret, uri } = setup.body.data as { secret: string; uri: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toBe(`otpauth://totp/${encodeURIComponent(`Cambio:${email}`)}?secret=${secret}&issuer=Cambio&algorithm=SHA1&digits=6&period=30`);
    // A wrong code leaves it off; the app's code turns it on.
    const wrongSetup = await browser.call('POST', '/me/two-factor/confirm', { body: { code: '000000' === totpCode(secret) ? '111111' : '000000' } });
    expect(wrongSetup.status).toBe(400);
    expect(wrongSetup.body.error.details[0].path).toBe('code');
    expect((await browser.call('GET', '/me/two-factor')).body.data).toEqual({ enabled: false });
    expect((await browser.call('POST', '/me/two-factor/confirm', { body: { code: totpCode(secret) } })).body.data).toEqual({ enabled: true });
    expect((await browser.call('DELETE', '/session')).status).toBe(200);

    // The password alone: no session, a challenge cookie only /session sees.
    const password = await browser.call('POST', '/session', { body: { email, password: STRONG_PASSWORD } });
    expect(password.body.data).toEqual({ signedIn: false, twoFactorRequired: true });
    expect(browser.jar.has('cambio_session')).toBe(false);
    const challengeCookie = password.setCookies.find((c) => c.startsWith('cambio_two_factor='))!;
    expect(challengeCookie).toMatch(/; HttpOnly/);
    expect(challengeCookie).toMatch(/; Path=\/dashboard\/api\/session;/);
    expect((await browser.call('GET', '/me')).status).toBe(401);
    // A wrong code ends that sign-in: the password must be given again.
    const wrong = await browser.call('POST', '/session/two-factor', { body: { code: totpCode(secret, Date.now() - 5 * 60_000) } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.message).toBe('Wrong authentication code: sign in again');
    expect((await browser.call('POST', '/session/two-factor', { body: { code: nextTotpCode(secret) } })).status).toBe(401);

    await browser.call('POST', '/session', { body: { email, password: STRONG_PASSWORD } });
    const right = await browser.call('POST', '/session/two-factor', { body: { code: nextTotpCode(secret) } });
    expect(right.status).toBe(200);
    expect(browser.jar.has('cambio_two_factor')).toBe(false);
    expect((await browser.call('GET', '/me')).status).toBe(200);
    const audit = await browser.call('GET', `/companies/${companyId}/audit-log`);
    expect(audit.body.data.map((e: { action: string }) => e.action).slice(0, 2)).toEqual(['signed_in', 'two_factor.enabled']);
  });

  it('answers the page’s refresh with 200 while its session lives, and 401 without one', async () => {
    const { browser } = await signedUpOwner(api.runtime);
    expect((await browser.call('POST', '/session/refresh')).status).toBe(200);
    expect((await browser.call('GET', '/me')).status).toBe(200);
    browser.jar.delete('cambio_session');
    expect((await browser.call('GET', '/me')).status).toBe(401);
    expect((await browser.call('POST', '/session/refresh')).status).toBe(401);
  });

  it('throttles sign-in after five failures, even with the right password', async () => {
    const { email } = await signedUpOwner(api.runtime);
    const browser = dashboardBrowser(api.runtime);
    for (let i = 0; i < 5; i++) expect((await browser.call('POST', '/session', { body: { email, password: 'Wrong-password-1' } })).status).toBe(401);
    const sixth = await browser.call('POST', '/session', { body: { email, password: 'Wrong-password-1' } });
    const right = await browser.call('POST', '/session', { body: { email, password: STRONG_PASSWORD } });
    expect(sixth.status).toBe(429);
    expect(right.status).toBe(429);
    expect(right.body.error.code).toBe('RATE_LIMITED');
  });

  it('lets an invited Owner in through the link once (company:create --owner-email)', async () => {
    const email = uniqueEmail('invited');
    const { company, token } = await createCompanyInvitingOwner(api.invitations, { name: 'Invited Co', environment: 'sandbox', ownerEmail: email });
    const browser = dashboardBrowser(api.runtime);
    const accepted = await browser.call('POST', '/invitations/accept', { body: { token, password: STRONG_PASSWORD } });
    expect(accepted.status).toBe(200);
    expect((await browser.call('GET', '/me')).body.data.companies).toEqual([{ id: company.id, name: 'Invited Co', environment: 'sandbox', role: 'Owner' }]);
    const again = await dashboardBrowser(api.runtime).call('POST', '/invitations/accept', { body: { token, password: STRONG_PASSWORD } });
    expect(again.status).toBe(404);
  });
});

describe('the dashboard API refuses, and writes nothing', () => {
  it('another company’s key: not found, to roll, revoke or list', async () => {
    const mine = await signedUpOwner(api.runtime, 'Mine');
    const theirs = await signedUpOwner(api.runtime, 'Theirs');
    const { apiKey } = (await theirs.browser.call('POST', `/companies/${theirs.companyId}/api-keys`, { body: { name: 'Theirs', password: STRONG_PASSWORD } })).body.data;
    const before = { mine: await companyItems(mine.companyId), theirs: await companyItems(theirs.companyId), key: await api.keys.findApiKey(apiKey) };

    expect((await mine.browser.call('POST', `/companies/${mine.companyId}/api-keys/${apiKey}/revoke`, { body: {} })).status).toBe(404);
    expect((await mine.browser.call('POST', `/companies/${mine.companyId}/api-keys/${apiKey}/roll`, { body: { oldSecretValidFor: 'now', password: STRONG_PASSWORD } })).status).toBe(404);
    // Their company through its own path: not a member, so it does not exist for me.
    expect((await mine.browser.call('POST', `/companies/${theirs.companyId}/api-keys/${apiKey}/revoke`, { body: {} })).status).toBe(404);
    expect((await mine.browser.call('GET', `/companies/${theirs.companyId}/api-keys`)).status).toBe(404);
    expect((await mine.browser.call('GET', `/companies/${theirs.companyId}/audit-log`)).status).toBe(404);

    expect(await companyItems(mine.companyId)).toEqual(before.mine);
    expect(await companyItems(theirs.companyId)).toEqual(before.theirs);
    expect(await api.keys.findApiKey(apiKey)).toEqual(before.key);
  });

  it('a path id longer than any id or address: 404, not a 500 from a key DynamoDB refuses', async () => {
    const { browser, companyId } = await signedUpOwner(api.runtime, 'Long paths');
    const before = await companyItems(companyId);

    const answers = await Promise.all([
      browser.call('GET', `/companies/${'c'.repeat(2100)}`),
      browser.call('GET', `/companies/${'c'.repeat(2100)}/audit-log`),
      browser.call('POST', `/companies/${companyId}/api-keys/${'k'.repeat(2100)}/revoke`, { body: {} }),
      browser.call('DELETE', `/companies/${companyId}/withdrawal-allowlist/addresses/${'T'.repeat(1100)}`),
    ]);

    expect(answers.map((answer) => [answer.status, answer.body.error.code])).toEqual(Array(4).fill([404, 'NOT_FOUND']));
    expect(await companyItems(companyId)).toEqual(before);
  });

  it('a Viewer’s change: 403, though the Viewer reads everything', async () => {
    const owner = await signedUpOwner(api.runtime, 'Viewed');
    const { apiKey } = (await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'Live', password: STRONG_PASSWORD } })).body.data;
    const viewer = await signedUpOwner(api.runtime, 'Viewer Own');
    const viewerId = (await viewer.browser.call('GET', '/me')).body.data.personId;
    await api.db.send(
      new PutCommand({ TableName: api.runtime.tableName, Item: membershipItem.toItem({ companyId: owner.companyId, personId: viewerId, email: viewer.email, role: 'Viewer', createdAt: new Date().toISOString() }) }),
    );
    const before = await companyItems(owner.companyId);
    const keyBefore = await api.keys.findApiKey(apiKey);

    expect((await viewer.browser.call('GET', `/companies/${owner.companyId}/api-keys`)).status).toBe(200);
    expect((await viewer.browser.call('GET', `/companies/${owner.companyId}/audit-log`)).status).toBe(200);
    for (const [path, body] of [
      ['/api-keys', { name: 'Sneaky' }],
      [`/api-keys/${apiKey}/roll`, { oldSecretValidFor: 'now' }],
      [`/api-keys/${apiKey}/revoke`, {}],
    ] as const) {
      const refused = await viewer.browser.call('POST', `/companies/${owner.companyId}${path}`, { body });
      expect(refused.status, path).toBe(403);
      expect(refused.body.error.code).toBe('FORBIDDEN');
    }
    expect(await companyItems(owner.companyId)).toEqual(before);
    expect(await api.keys.findApiKey(apiKey)).toEqual(keyBefore);
  });

  it('no session: 401 on every route but the public ones', async () => {
    const owner = await signedUpOwner(api.runtime);
    const before = await companyItems(owner.companyId);
    const stranger = dashboardBrowser(api.runtime);
    expect((await stranger.call('GET', '/me')).status).toBe(401);
    expect((await stranger.call('GET', `/companies/${owner.companyId}`)).status).toBe(401);
    expect((await stranger.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'x', password: STRONG_PASSWORD }, csrf: 'x' })).status).toBe(401);
    // A token that is not the pool's.
    stranger.jar.set('cambio_session', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.');
    expect((await stranger.call('GET', '/me')).status).toBe(401);
    expect(await companyItems(owner.companyId)).toEqual(before);
  });

  it('a forged cross-site request: 403, whether from another origin or without the CSRF token', async () => {
    const owner = await signedUpOwner(api.runtime);
    const before = await companyItems(owner.companyId);
    const create = (options: Parameters<typeof owner.browser.call>[2]) => owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'Forged', password: STRONG_PASSWORD }, ...options });

    expect((await create({ origin: 'https://evil.example' })).status).toBe(403);
    expect((await create({ csrf: null })).status).toBe(403);
    expect((await create({ csrf: 'not-the-cookie-value-at-all-00000' })).status).toBe(403);
    expect((await create({ origin: null, csrf: null })).status).toBe(403);
    // Sign-in from another site's form (login CSRF) is refused too.
    expect((await dashboardBrowser(api.runtime).call('POST', '/session', { body: { email: owner.email, password: STRONG_PASSWORD }, origin: 'https://evil.example' })).status).toBe(403);
    expect(await companyItems(owner.companyId)).toEqual(before);

    expect((await create({})).status).toBe(201);
  });
});
