import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDashboardSessions } from '#adapters/dynamo/dashboard-session-store';
import { sessionKeyOf } from '#functions/people/dashboard-sessions';
import { totpCode } from '#local/totp';
import { LOCAL_USER_POOL_ID } from '#local/cognito-emulator';
import { useTestApi } from '../support/local-api.ts';
import { rawSessionItem, sessionTokens } from '../support/dashboard-sessions.ts';
import { dashboardBrowser, invitationTokenMailedTo, signedUpOwner, signedUpOwnerWithTwoFactor, STRONG_PASSWORD } from '../support/dashboard.ts';

/**
 * Someone signed in to the dashboard calling the identity provider (locally the Cognito emulator,
 * over Cognito's own protocol) with whatever their browser holds (../shared/dashboard.md,
 * Security): a Cognito access token would let them replace or turn off their second factor there,
 * with no password, no code and no audit entry, escaping their company's two-factor rule. The
 * browser holds Cambio's own session cookie only (functions/people/dashboard-sessions.ts).
 */
const api = useTestApi();

/** One action of the user pool's API, as the AWS SDK sends it. */
async function userPool(action: string, input: Record<string, unknown>): Promise<{ status: number; type: string }> {
  const response = await fetch(api.runtime.cognitoEndpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-amz-json-1.1', 'X-Amz-Target': `AWSCognitoIdentityProviderService.${action}` },
    body: JSON.stringify(input),
  });
  const body = (await response.json()) as { __type?: string };
  return { status: response.status, type: body.__type ?? '' };
}

describe('the identity provider, called with what the browser holds', () => {
  it('refuses every self-service call of a member with two-factor sign-in in a company that requires it; their factors stay as they were', async () => {
    const owner = await signedUpOwnerWithTwoFactor(api.runtime, 'Required Co');
    const required = await owner.browser.call('PUT', `/companies/${owner.companyId}/two-factor-requirement`, { body: { required: true } });
    expect(required.status, JSON.stringify(required.body)).toBe(200);

    const held = [...owner.browser.jar.values()];
    expect(held.length).toBeGreaterThan(0);
    for (const value of held) {
      for (const [action, input] of [
        ['SetUserMFAPreference', { AccessToken: value, SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false } }],
        ['AssociateSoftwareToken', { AccessToken: value }],
        ['VerifySoftwareToken', { AccessToken: value, UserCode: totpCode(owner.secret) }],
        ['GetUser', { AccessToken: value }],
        ['ChangePassword', { AccessToken: value, PreviousPassword: STRONG_PASSWORD, ProposedPassword: `${STRONG_PASSWORD}-new` }],
      ] as const) {
        expect(await userPool(action, input), `${action} with ${value.slice(0, 12)}…`).toEqual({ status: 400, type: 'NotAuthorizedException' });
      }
    }

    expect((await owner.browser.call('GET', '/me/two-factor')).body.data).toEqual({ enabled: true });
    const again = dashboardBrowser(api.runtime);
    expect((await again.call('POST', '/session', { body: { email: owner.email, password: STRONG_PASSWORD } })).body.data).toEqual({ signedIn: false, twoFactorRequired: true });
  });

  it('takes the user pool’s word on two-factor at each sign-in: turned off there by an operator, the company that requires it refuses the person and Team shows it off', async () => {
    const owner = await signedUpOwnerWithTwoFactor(api.runtime, 'Operator Co');
    expect((await owner.browser.call('PUT', `/companies/${owner.companyId}/two-factor-requirement`, { body: { required: true } })).status).toBe(200);
    const operator = await userPool('AdminSetUserMFAPreference', { UserPoolId: LOCAL_USER_POOL_ID, Username: owner.email, SoftwareTokenMfaSettings: { Enabled: false } });
    expect(operator.status).toBe(200);

    // The password alone now signs in: the user pool asks for no code.
    const browser = dashboardBrowser(api.runtime);
    expect((await browser.call('POST', '/session', { body: { email: owner.email, password: STRONG_PASSWORD } })).body.data).toEqual({ signedIn: true });
    expect((await browser.call('GET', '/me/two-factor')).body.data).toEqual({ enabled: false });
    // The company requires it: everything in the company is refused until it is on again.
    const refused = await browser.call('GET', `/companies/${owner.companyId}/team`);
    expect(refused.status).toBe(403);
  });

  it('takes the user pool’s word at Confirm it’s you too: a session renewed there on the password alone, two-factor turned off by an operator, is refused where a company requires it', async () => {
    const owner = await signedUpOwnerWithTwoFactor(api.runtime, 'Confirmed Co');
    expect((await owner.browser.call('PUT', `/companies/${owner.companyId}/two-factor-requirement`, { body: { required: true } })).status).toBe(200);
    expect((await userPool('AdminSetUserMFAPreference', { UserPoolId: LOCAL_USER_POOL_ID, Username: owner.email, SoftwareTokenMfaSettings: { Enabled: false } })).status).toBe(200);

    // The old session confirms on the password alone: the user pool asks for no code.
    expect((await owner.browser.call('POST', '/session/confirm', { body: { password: STRONG_PASSWORD } })).status).toBe(200);
    expect((await owner.browser.call('GET', `/companies/${owner.companyId}/team`)).status).toBe(403);
  });

  it('takes the user pool’s word when the person joins another company through an invitation: two-factor turned off there, their own company that requires it refuses them', async () => {
    const person = await signedUpOwnerWithTwoFactor(api.runtime, 'Own Required Co');
    expect((await person.browser.call('PUT', `/companies/${person.companyId}/two-factor-requirement`, { body: { required: true } })).status).toBe(200);
    expect((await userPool('AdminSetUserMFAPreference', { UserPoolId: LOCAL_USER_POOL_ID, Username: person.email, SoftwareTokenMfaSettings: { Enabled: false } })).status).toBe(200);
    const inviter = await signedUpOwner(api.runtime, 'Joined Later Co');
    expect((await inviter.browser.call('POST', `/companies/${inviter.companyId}/team/invitations`, { body: { email: person.email, role: 'Viewer' } })).status).toBe(201);

    // The password alone joins: the user pool asks for no code.
    const browser = dashboardBrowser(api.runtime);
    expect((await browser.call('POST', '/invitations/accept', { body: { token: invitationTokenMailedTo(api.runtime, person.email), password: STRONG_PASSWORD } })).status).toBe(200);
    expect((await browser.call('GET', '/me/two-factor')).body.data).toEqual({ enabled: false });
    expect((await browser.call('GET', `/companies/${person.companyId}/team`)).status).toBe(403);
  });

  it("keeps the session's Cognito tokens on the server, sealed under the hash of the cookie, and renews its access token there once expired", async () => {
    const owner = await signedUpOwnerWithTwoFactor(api.runtime, 'Stored Co');
    const cookieValue = owner.browser.jar.get('cambio_session')!;
    const sessions = new DynamoDashboardSessions(api.db, api.runtime.tableName);
    const stored = (await sessions.find(sessionKeyOf(cookieValue)))!;
    const tokens = await sessionTokens(api.db, api.runtime, cookieValue);
    expect(tokens).toMatchObject({ accessToken: expect.stringMatching(/^ey/), refreshToken: expect.any(String) });
    // The item as the table, its backups and its daily export hold it: the tokens only sealed.
    const item = (await rawSessionItem(api.db, api.runtime, cookieValue))!;
    expect(Object.keys(item).sort()).toEqual(['PK', 'SK', 'accessExpiresAt', 'authTime', 'expiresAt', 'openedAt', 'personId', 'sealedTokens', 'sessionId', 'ttl', 'type']);
    expect(item.sealedTokens).toMatch(/^local:/);
    // Nowhere in the table is the cookie's value, or either token in the clear.
    const { Items = [] } = await api.db.send(new ScanCommand({ TableName: api.runtime.tableName, ConsistentRead: true }));
    for (const secret of [cookieValue, tokens.accessToken, tokens.refreshToken]) expect(JSON.stringify(Items)).not.toContain(secret);

    await sessions.save(sessionKeyOf(cookieValue), { ...stored, accessExpiresAt: 0 });
    expect((await owner.browser.call('GET', '/me/two-factor')).body.data).toEqual({ enabled: true });
    const renewed = (await sessions.find(sessionKeyOf(cookieValue)))!;
    const renewedTokens = await sessionTokens(api.db, api.runtime, cookieValue);
    expect(renewedTokens.accessToken).not.toBe(tokens.accessToken);
    expect(renewedTokens.refreshToken).toBe(tokens.refreshToken);
    expect(renewed.accessExpiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(JSON.stringify(await rawSessionItem(api.db, api.runtime, cookieValue))).not.toContain(renewedTokens.accessToken);
    // A renewal landing after the session ended (signed out meanwhile) does not bring its tokens back.
    expect((await owner.browser.call('DELETE', '/session')).status).toBe(200);
    await sessions.renewAccess(sessionKeyOf(cookieValue), renewed.sealedTokens, renewed.accessExpiresAt);
    expect(await sessions.find(sessionKeyOf(cookieValue))).toBeNull();
  });

  it('treats a session stored before its tokens were sealed as signed out: its person signs in again', async () => {
    const owner = await signedUpOwnerWithTwoFactor(api.runtime, 'Legacy Co');
    const cookieValue = owner.browser.jar.get('cambio_session')!;
    const tokens = await sessionTokens(api.db, api.runtime, cookieValue);
    const { sealedTokens: _, ...item } = (await rawSessionItem(api.db, api.runtime, cookieValue))!;
    // The item as the code before sealing wrote it: Cognito's tokens in the clear.
    await api.db.send(new PutCommand({ TableName: api.runtime.tableName, Item: { ...item, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken } }));

    expect((await owner.browser.call('GET', '/me')).status).toBe(401);
    expect((await owner.browser.call('GET', '/me/two-factor')).status).toBe(401);
    expect((await owner.browser.call('POST', '/session/refresh')).status).toBe(401);
    const again = dashboardBrowser(api.runtime);
    expect((await again.call('POST', '/session', { body: { email: owner.email, password: STRONG_PASSWORD } })).body.data).toEqual({ signedIn: false, twoFactorRequired: true });
    expect((await again.call('POST', '/session/two-factor', { body: { code: await owner.app() } })).status).toBe(200);
    expect((await again.call('GET', '/me/two-factor')).body.data).toEqual({ enabled: true });
  });
});
