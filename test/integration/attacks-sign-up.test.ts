import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { personItem } from '#adapters/dynamo/items/team';
import { STRANGER_FAILURES } from '#functions/people/sign-in-limits';
import { totpCode } from '#local/totp';
import { useTestApi } from '../support/local-api.ts';
import { mailsTo, verifyLinkIn } from '../support/outbox.ts';
import { rawDashboardRequest } from '../support/raw-dashboard-request.ts';
import { dashboardBrowser, invitationTokenMailedTo, signedUpOwner, STRONG_PASSWORD, uniqueEmail, verifyTokenMailedTo } from '../support/dashboard.ts';

/**
 * Attacks on sandbox sign-up (issue #31, items 5 and 11) through a real socket, DynamoDB Local and
 * the Cognito emulator: the answer must not tell who has an account, and an address must be proven
 * before its account is usable, so nobody can squat a stranger's address (with a second factor of
 * their own) before its owner arrives.
 */
/** The stage's floor on sign-up's answer (test/support/local-api.ts lowers it for other files). */
const ANSWER_MS = 1000;
const api = useTestApi(undefined, { environment: { SIGN_UP_ANSWER_MS: String(ANSWER_MS) } });
const SQUATTER_PASSWORD = 'Squatter-Pass-99';
const OWNER_PASSWORD = 'Rightful-Owner-77';
/** functions/people/email-verification.ts's limits, written out so the test stands without them. */
const SIGN_UP_MAILS_PER_ADDRESS_PER_DAY = 5;
const SIGN_UP_MAILS_PER_SOURCE_PER_HOUR = 30;

const signUp = (email: string, companyName: string, password = STRONG_PASSWORD) =>
  dashboardBrowser(api.runtime).call('POST', '/sign-up', { body: { companyName, email, password } });

async function itemsWhere(type: string, field: string, value: string): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await api.db.send(
    new ScanCommand({ TableName: api.runtime.tableName, FilterExpression: '#type = :type AND #field = :value', ExpressionAttributeNames: { '#type': 'type', '#field': field }, ExpressionAttributeValues: { ':type': type, ':value': value }, ConsistentRead: true }),
  );
  return Items;
}
const companiesNamed = (name: string) => itemsWhere('Company', 'name', name);

/** An unproven account with two-factor sign-in on, which the API never allows: its Person is marked
 * verified for a moment, so it signs in and turns the factor on, then marked unproven again. */
async function squatWithTwoFactor(email: string): Promise<void> {
  expect((await signUp(email, 'Squat Co', SQUATTER_PASSWORD)).status).toBeLessThan(300);
  const [person] = await itemsWhere('Person', 'email', email);
  const personId = person!.personId as string;
  const setVerified = (at: string | null) =>
    api.db.send(new UpdateCommand({ TableName: api.runtime.tableName, Key: personItem.key(personId), UpdateExpression: 'SET emailVerifiedAt = :at', ExpressionAttributeValues: { ':at': at } }));
  await setVerified(new Date().toISOString());
  const squatter = dashboardBrowser(api.runtime);
  expect((await squatter.call('POST', '/session', { body: { email, password: SQUATTER_PASSWORD } })).status).toBe(200);
  const { secret } = (await squatter.call('POST', '/me/two-factor/setup', { body: {} })).body.data as { secret: string };
  expect((await squatter.call('POST', '/me/two-factor/confirm', { body: { code: totpCode(secret) } })).status).toBe(200);
  await setVerified(null);
}

describe('sign-up tells nobody who has an account', () => {
  it('a registered address gets the same answer as a new one, no session, and its holder a notice; nothing is made', async () => {
    const holder = await signedUpOwner(api.runtime);
    const fresh = await signUp(uniqueEmail('fresh'), 'Fresh Co');
    const taken = await signUp(holder.email, 'Again Co');

    expect({ status: taken.status, body: taken.body, cookies: taken.setCookies }).toEqual({ status: fresh.status, body: fresh.body, cookies: fresh.setCookies });
    expect(taken).toMatchObject({ status: 202, body: { data: { checkYourMail: true } }, setCookies: [] });
    const mails = mailsTo(api.runtime.outboxDir, holder.email);
    expect(mails.at(-1)!.subject).toBe('Someone tried to create a Cambio account with your address');
    expect(mails.at(-1)!.text).not.toContain('Again Co');
    // signedUpOwner removed the link it followed: the second sign-up mailed the holder none.
    expect(mails.filter((mail) => verifyLinkIn(mail))).toHaveLength(0);
    expect(await companiesNamed('Again Co')).toEqual([]);
    expect((await holder.browser.call('GET', '/me')).body.data.companies).toHaveLength(1);
  });

  it(`answers a new address and a registered one no sooner than ${ANSWER_MS} ms, so the time tells nothing either`, async () => {
    const holder = await signedUpOwner(api.runtime);
    const timed = async (email: string) => {
      const started = performance.now();
      expect((await signUp(email, 'Timed Co')).status).toBe(202);
      return performance.now() - started;
    };
    // Without the floor a registered address answers in a few ms, a new one after creating an account.
    expect(await timed(holder.email)).toBeGreaterThanOrEqual(ANSWER_MS);
    expect(await timed(uniqueEmail('timed'))).toBeGreaterThanOrEqual(ANSWER_MS);
  });
});

describe('an address is proven before its account is usable', () => {
  it('an unconfirmed account cannot sign in, and is told to follow the link, which can be sent again', async () => {
    const email = uniqueEmail('unconfirmed');
    await signUp(email, 'Waiting Co');
    const browser = dashboardBrowser(api.runtime);

    const refused = await browser.call('POST', '/session', { body: { email, password: STRONG_PASSWORD } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.details).toEqual({ reason: 'EMAIL_NOT_VERIFIED' });
    expect(refused.setCookies.filter((c) => c.startsWith('cambio_session=') && !c.includes('Max-Age=0'))).toEqual([]);
    expect((await browser.call('GET', '/me')).status).toBe(401);

    expect((await browser.call('POST', '/sign-up/resend', { body: { email } })).status).toBe(202);
    expect(mailsTo(api.runtime.outboxDir, email).filter((mail) => verifyLinkIn(mail))).toHaveLength(2);
  });

  it('the link confirms once, with the sign-up password; a used or made-up link is 404', async () => {
    const email = uniqueEmail('confirm');
    await signUp(email, 'Confirm Co');
    const token = verifyTokenMailedTo(api.runtime, email);
    const browser = dashboardBrowser(api.runtime);

    expect((await browser.call('POST', '/sign-up/verify', { body: { token, password: SQUATTER_PASSWORD } })).status).toBe(401);
    const verified = await browser.call('POST', '/sign-up/verify', { body: { token, password: STRONG_PASSWORD } });
    expect(verified.status).toBe(200);
    expect((await browser.call('GET', '/me')).body.data.companies).toMatchObject([{ name: 'Confirm Co', role: 'Owner' }]);
    expect((await dashboardBrowser(api.runtime).call('POST', '/sign-up/verify', { body: { token, password: STRONG_PASSWORD } })).status).toBe(404);
    const madeUp = `${token.split('.')[0]}.${'A'.repeat(43)}`;
    expect((await dashboardBrowser(api.runtime).call('POST', '/sign-up/verify', { body: { token: madeUp, password: STRONG_PASSWORD } })).status).toBe(404);
    expect((await dashboardBrowser(api.runtime).call('POST', '/session', { body: { email, password: STRONG_PASSWORD } })).status).toBe(200);
  });
});

describe("a squatter's unproven account does not block the address's owner", () => {
  it("the owner's invitation replaces it, second factor and all", async () => {
    const email = uniqueEmail('invited');
    await squatWithTwoFactor(email);
    const inviter = await signedUpOwner(api.runtime, 'Real Co');
    expect((await inviter.browser.call('POST', `/companies/${inviter.companyId}/team/invitations`, { body: { email, role: 'Admin', password: STRONG_PASSWORD } })).status).toBe(201);
    const owner = dashboardBrowser(api.runtime);

    const accepted = await owner.call('POST', '/invitations/accept', { body: { token: invitationTokenMailedTo(api.runtime, email), password: OWNER_PASSWORD } });
    expect(accepted.status).toBe(200);
    expect((await owner.call('GET', '/me')).body.data.companies).toMatchObject([{ name: 'Real Co', role: 'Admin' }]);
    expect((await dashboardBrowser(api.runtime).call('POST', '/session', { body: { email, password: OWNER_PASSWORD } })).body.data).toEqual({ signedIn: true });
    expect((await dashboardBrowser(api.runtime).call('POST', '/session', { body: { email, password: SQUATTER_PASSWORD } })).status).toBe(401);
  });

  it("the owner's own sign-up replaces it, second factor and all", async () => {
    const email = uniqueEmail('squatted');
    await squatWithTwoFactor(email);

    expect((await signUp(email, 'Mine Co', OWNER_PASSWORD)).status).toBe(202);
    const owner = dashboardBrowser(api.runtime);
    expect((await owner.call('POST', '/sign-up/verify', { body: { token: verifyTokenMailedTo(api.runtime, email), password: OWNER_PASSWORD } })).status).toBe(200);
    expect((await owner.call('GET', '/me')).body.data.companies).toMatchObject([{ name: 'Mine Co', role: 'Owner' }]);
    expect((await dashboardBrowser(api.runtime).call('POST', '/session', { body: { email, password: SQUATTER_PASSWORD } })).status).toBe(401);
  });

  it("the squatter's refused sign-ins leave their addresses strangers to the owner's account: their guesses stop short of its lockout", async () => {
    const email = uniqueEmail('poisoned');
    const squatterAt = ['127.0.60.1', '127.0.60.2'];
    const session = (password: string, from: string) => rawDashboardRequest(api.runtime, 'POST', '/session', { body: { email, password }, from });
    expect((await rawDashboardRequest(api.runtime, 'POST', '/sign-up', { body: { companyName: 'Squat Co', email, password: SQUATTER_PASSWORD }, from: squatterAt[0] })).status).toBe(202);
    // The squatter's own password, refused for the unproven address, from each of their addresses.
    for (const from of squatterAt) expect((await session(SQUATTER_PASSWORD, from)).body.error.details).toEqual({ reason: 'EMAIL_NOT_VERIFIED' });

    // The owner signs up (the squatter's account is deleted) and confirms the address from their own place.
    expect((await signUp(email, 'Mine Co', OWNER_PASSWORD)).status).toBe(202);
    expect((await dashboardBrowser(api.runtime).call('POST', '/sign-up/verify', { body: { token: verifyTokenMailedTo(api.runtime, email), password: OWNER_PASSWORD } })).status).toBe(200);

    // The squatter guesses at the owner's password from the same addresses: strangers, held to the account's few.
    const statuses = [];
    for (const from of squatterAt) for (let i = 0; i < STRANGER_FAILURES; i += 1) statuses.push((await session(`${OWNER_PASSWORD}-guess`, from)).status);
    expect(statuses).toEqual([...Array(STRANGER_FAILURES).fill(401), ...Array(STRANGER_FAILURES).fill(429)]);
    // So the user pool never locked the owner out: their password lets them in.
    expect((await dashboardBrowser(api.runtime).call('POST', '/session', { body: { email, password: OWNER_PASSWORD } })).body.data).toEqual({ signedIn: true });
  });
});

describe('sign-up mail to one address is limited', () => {
  it(`at most ${SIGN_UP_MAILS_PER_ADDRESS_PER_DAY} a day, sign-ups and links sent again together; then 429`, async () => {
    const email = uniqueEmail('flooded');
    expect((await signUp(email, 'Flood Co')).status).toBe(202);
    for (let sent = 1; sent < SIGN_UP_MAILS_PER_ADDRESS_PER_DAY; sent++) {
      expect((await dashboardBrowser(api.runtime).call('POST', '/sign-up/resend', { body: { email } })).status).toBe(202);
    }
    const refused = await dashboardBrowser(api.runtime).call('POST', '/sign-up/resend', { body: { email } });
    expect(refused.status).toBe(429);
    expect((await signUp(email, 'Flood Co')).status).toBe(429);
    expect(mailsTo(api.runtime.outboxDir, email)).toHaveLength(SIGN_UP_MAILS_PER_ADDRESS_PER_DAY);
  });
});

describe('strangers cannot use up an address’s sign-up mails before its owner', () => {
  const resendFrom = (email: string, from: string) => rawDashboardRequest(api.runtime, 'POST', '/sign-up/resend', { body: { email }, from });

  it(`five strangers, each at its ${SIGN_UP_MAILS_PER_ADDRESS_PER_DAY} a day for the address, leave its owner's sign-up from their own address working`, async () => {
    const email = uniqueEmail('wanted');
    const strangers = ['127.0.7.1', '127.0.7.2', '127.0.7.3', '127.0.7.4', '127.0.7.5'];
    expect((await rawDashboardRequest(api.runtime, 'POST', '/sign-up', { body: { companyName: 'Squat Co', email, password: SQUATTER_PASSWORD }, from: strangers[0] })).status).toBe(202);
    await Promise.all(
      strangers.map(async (from, n) => {
        for (let sent = n === 0 ? 1 : 0; sent < SIGN_UP_MAILS_PER_ADDRESS_PER_DAY; sent++) expect((await resendFrom(email, from)).status).toBe(202);
        expect((await resendFrom(email, from)).status).toBe(429);
      }),
    );

    // The owner, from their own address: the sign-up goes through and its link is theirs.
    expect((await signUp(email, 'Mine Co', OWNER_PASSWORD)).status).toBe(202);
    const owner = dashboardBrowser(api.runtime);
    expect((await owner.call('POST', '/sign-up/verify', { body: { token: verifyTokenMailedTo(api.runtime, email), password: OWNER_PASSWORD } })).status).toBe(200);
    expect((await owner.call('GET', '/me')).body.data.companies).toMatchObject([{ name: 'Mine Co', role: 'Owner' }]);
  });

  it(`one source asks for at most ${SIGN_UP_MAILS_PER_SOURCE_PER_HOUR} sign-up mails an hour, whatever the addresses`, async () => {
    const from = '127.0.8.1';
    const addresses = Array.from({ length: SIGN_UP_MAILS_PER_SOURCE_PER_HOUR + 1 }, () => uniqueEmail('spread'));
    const answers = await Promise.all(addresses.slice(0, SIGN_UP_MAILS_PER_SOURCE_PER_HOUR).map((email) => resendFrom(email, from)));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 202));
    const refused = await resendFrom(addresses.at(-1)!, from);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/^Your address has asked for 30 sign-up mails in the last hour, the most one may: try again after /);
    // Another source is not held back by it.
    expect((await resendFrom(addresses.at(-1)!, '127.0.8.2')).status).toBe(202);
  });
});
