import { describe, expect, it } from 'vitest';
import { auditEntry } from '#functions/companies/audit-log';
import { commandLine } from '#functions/people/caller';
import { newInvitation } from '#functions/people/invitations';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import { useTestApi } from '../support/local-api.ts';
import { linkIn, mailsTo } from '../support/outbox.ts';
import { companyItems, dashboardBrowser, invitationTokenMailedTo, signedUpOwner, STRONG_PASSWORD, uniqueEmail, verifyTokenMailedTo } from '../support/dashboard.ts';
import { rawDashboardRequest } from '../support/raw-dashboard-request.ts';

/**
 * Attacks on the Team page's invitations (issues #31 and #43), through a real socket against the local API,
 * DynamoDB Local and the Cognito emulator: each was possible before its fix. The recent sign-in's
 * window is short, so a session grows old within a test; the others confirm their session first.
 */
const WINDOW_SECONDS = 20;
const api = useTestApi((db, tableName) => ({ team: new DynamoTeamStore(db, tableName) }), { environment: { DASHBOARD_RECENT_SIGN_IN_SECONDS: String(WINDOW_SECONDS) } });

/** A signed-up Owner whose session has just confirmed its password. */
async function freshOwner(companyName: string) {
  const owner = await signedUpOwner(api.runtime, companyName);
  expect((await owner.browser.call('POST', '/session/confirm', { body: { password: STRONG_PASSWORD } })).status).toBe(200);
  return owner;
}

describe('resending an invitation on a session signed in too long ago', () => {
  it('is refused with SIGN_IN_AGAIN as inviting is, so a copied cookie cannot mint an Owner’s link', async () => {
    const owner = await freshOwner('Resent Co');
    const base = `/companies/${owner.companyId}`;
    const invited = uniqueEmail('pending-owner');
    expect((await owner.browser.call('POST', `${base}/team/invitations`, { body: { email: invited, role: 'Owner', password: STRONG_PASSWORD } })).status).toBe(201);
    const [invitation] = (await owner.browser.call('GET', `${base}/team`)).body.data.invitations;
    await new Promise((resolve) => setTimeout(resolve, WINDOW_SECONDS * 1000 + 1_200));

    const before = await companyItems(api.db, api.runtime, owner.companyId);
    const resent = await owner.browser.call('POST', `${base}/team/invitations/${invitation.id}/resend`, { body: {} });
    expect(resent.status).toBe(403);
    expect(resent.body.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'SIGN_IN_AGAIN' } });
    expect(resent.body.data).toBeUndefined();
    expect(await companyItems(api.db, api.runtime, owner.companyId)).toEqual(before);
    expect((await owner.browser.call('GET', `${base}/team`)).body.data.invitations).toEqual([invitation]);
    expect(mailsTo(api.runtime.outboxDir, invited)).toHaveLength(1);
  }, 60_000);
});

describe('invitation mail', () => {  // Viewers: an invitation above Viewer asks the inviter's password, and a flood of concurrent ones
  // would meet the limits on sign-in (each counted as a failure until it passes) before the mail's.
  const invite = (browser: ReturnType<typeof dashboardBrowser>, companyId: string, email: string) =>
    browser.call('POST', `/companies/${companyId}/team/invitations`, { body: { email, role: 'Viewer' } });

  it('sends at most 20 invitations an hour for a company, however many arrive at once, and never its name in the subject', async () => {
    const name = 'URGENT: your bank account is locked, call +1 555 0100';
    const owner = await freshOwner(name);
    const addresses = Array.from({ length: 30 }, () => uniqueEmail('flood'));

    const answers = await Promise.all(addresses.map((email) => invite(owner.browser, owner.companyId, email)));

    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(20);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused).toHaveLength(10);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { limit: 20 } });
      expect(answer.body.error.message).toMatch(/^This company has made 20 invitations this hour, the most it may: try again after /);
    }
    const mails = addresses.flatMap((email) => mailsTo(api.runtime.outboxDir, email));
    expect(mails).toHaveLength(20);
    for (const mail of mails) {
      expect(mail.subject).toBe('Your invitation to join a company on Cambio');
      expect(mail.text).toContain(`The company's name, as its people wrote it: "${name}".`);
    }
    expect((await owner.browser.call('GET', `/companies/${owner.companyId}/team`)).body.data.invitations).toHaveLength(20);
  }, 60_000);

  it('sends one address at most 3 invitations a day from a company and 10 from every company together, resends counted, and one company never spends another’s', async () => {
    const victim = uniqueEmail('victim');
    const first = await freshOwner('First Co');
    const answers = await Promise.all(Array.from({ length: 10 }, () => invite(first.browser, first.companyId, victim)));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.map((answer) => answer.body.error.details)).toEqual(Array(7).fill(expect.objectContaining({ limit: 3 })));
    expect(refused[0]!.body.error.message).toMatch(new RegExp(`^This company has sent ${victim} 3 invitations today, the most it may send one address: try again after `));
    expect(mailsTo(api.runtime.outboxDir, victim)).toHaveLength(3);

    // A resend is no way around the company's count.
    const [pending] = (await first.browser.call('GET', `/companies/${first.companyId}/team`)).body.data.invitations;
    const resent = await first.browser.call('POST', `/companies/${first.companyId}/team/invitations/${pending.id}/resend`, { body: {} });
    expect(resent.status).toBe(429);
    expect(resent.body.error.message).toContain(`This company has sent ${victim} 3 invitations today`);

    // What the first company spent is its own: the next companies invite the same person as usual,
    // until the address's own count (10 a day from everyone) stops a flood made by many companies.
    for (const name of ['Second Co', 'Third Co']) {
      const next = await freshOwner(name);
      const theirs = await Promise.all(Array.from({ length: 3 }, () => invite(next.browser, next.companyId, victim)));
      expect(theirs.map((answer) => answer.status)).toEqual([201, 201, 201]);
    }
    const fourth = await freshOwner('Fourth Co');
    const lastOnes = await Promise.all(Array.from({ length: 3 }, () => invite(fourth.browser, fourth.companyId, victim)));
    expect(lastOnes.filter((answer) => answer.status === 201)).toHaveLength(1);
    const overAll = lastOnes.filter((answer) => answer.status === 429);
    expect(overAll).toHaveLength(2);
    expect(overAll[0]!.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { limit: 10 } });
    expect(overAll[0]!.body.error.message).toMatch(new RegExp(`^${victim} has been sent 10 invitations today, the most one address may be sent from every company together: try again after `));
    expect(mailsTo(api.runtime.outboxDir, victim)).toHaveLength(10);
    // The refusals took nothing from the companies' own hourly counts.
    expect((await invite(fourth.browser, fourth.companyId, uniqueEmail('other'))).status).toBe(201);
  }, 90_000);

  it('holds at most 50 pending invitations for a company', async () => {
    const owner = await signedUpOwner(api.runtime, 'Crowded Co');
    const now = new Date();
    for (let n = 0; n < 50; n++) {
      const { invitation } = newInvitation(owner.companyId, uniqueEmail('pending'), 'Viewer', now, null);
      await api.team.addInvitation(invitation, auditEntry(owner.companyId, 'invitation.created', commandLine().actor, commandLine().origin, now, invitation.email, { role: 'Viewer' }));
    }
    expect((await owner.browser.call('POST', '/session/confirm', { body: { password: STRONG_PASSWORD } })).status).toBe(200);
    const email = uniqueEmail('fifty-first');
    const refused = await invite(owner.browser, owner.companyId, email);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'LIMIT_REACHED', details: { limit: 50 } });
    expect(mailsTo(api.runtime.outboxDir, email)).toEqual([]);
  }, 60_000);
});

describe('an invitation as a way to claim a stranger’s mailbox (issue #43)', () => {
  const ATTACKER_PASSWORD = 'Attacker-Pass-99';
  const OWNER_PASSWORD = 'Rightful-Owner-77';

  it('fails: the link reaches only the invited mailbox, whose owner then signs up and signs in; the attacker has no account for it', async () => {
    const attacker = await freshOwner('Squatting Co');
    const victim = uniqueEmail('victim');

    const invited = await attacker.browser.call('POST', `/companies/${attacker.companyId}/team/invitations`, { body: { email: victim, role: 'Admin', password: STRONG_PASSWORD } });
    const resent = await attacker.browser.call('POST', `/companies/${attacker.companyId}/team/invitations/${(await attacker.browser.call('GET', `/companies/${attacker.companyId}/team`)).body.data.invitations[0].id}/resend`, { body: {} });

    // Neither answer nor the Team page holds a token: both links are in the victim's mail alone.
    const tokens = mailsTo(api.runtime.outboxDir, victim).map((mail) => new URL(linkIn(mail)!).searchParams.get('token')!);
    expect(tokens).toHaveLength(2);
    const seen = JSON.stringify([invited.body, resent.body, (await attacker.browser.call('GET', `/companies/${attacker.companyId}/team`)).body]);
    for (const token of tokens) expect(seen).not.toContain(token);
    expect(invited.body.data).toEqual({ email: victim, role: 'Admin', expiresAt: expect.any(String), emailed: true });
    expect(mailsTo(api.runtime.outboxDir, attacker.email).filter(linkIn)).toEqual([]);
    // What the attacker can send instead of a token is no token.
    const guessed = await dashboardBrowser(api.runtime).call('POST', '/invitations/accept', { body: { token: 'A'.repeat(43), password: ATTACKER_PASSWORD } });
    expect(guessed.status).toBe(404);

    // The address's owner signs up as anyone would: a confirmation link, not "someone tried".
    const owner = dashboardBrowser(api.runtime);
    expect((await owner.call('POST', '/sign-up', { body: { companyName: 'Rightful Co', email: victim, password: OWNER_PASSWORD } })).status).toBe(202);
    expect((await owner.call('POST', '/sign-up/verify', { body: { token: verifyTokenMailedTo(api.runtime, victim), password: OWNER_PASSWORD } })).status).toBe(200);
    expect((await dashboardBrowser(api.runtime).call('POST', '/session', { body: { email: victim, password: OWNER_PASSWORD } })).body.data).toEqual({ signedIn: true });
    expect(mailsTo(api.runtime.outboxDir, victim).map((mail) => mail.subject)).not.toContain('Someone tried to create a Cambio account with your address');
    // The attacker's password opens nothing for that address, and their company never got the owner.
    expect((await dashboardBrowser(api.runtime).call('POST', '/session', { body: { email: victim, password: ATTACKER_PASSWORD } })).status).toBe(401);
    expect((await attacker.browser.call('GET', `/companies/${attacker.companyId}/team`)).body.data.members.map((m: { email: string }) => m.email)).toEqual([attacker.email]);
  }, 60_000);

  it('accepting is a sign-in: a weak password gets one answer for a registered address and an unknown one, and wrong ones are counted per source', async () => {
    const inviter = await freshOwner('Inviting Co');
    const registered = await signedUpOwner(api.runtime, 'Registered Co');
    const unknown = uniqueEmail('unknown');
    for (const email of [registered.email, unknown]) {
      expect((await inviter.browser.call('POST', `/companies/${inviter.companyId}/team/invitations`, { body: { email, role: 'Viewer' } })).status).toBe(201);
    }
    const accept = (email: string, password: string, from: string) =>
      rawDashboardRequest(api.runtime, 'POST', '/invitations/accept', { body: { token: invitationTokenMailedTo(api.runtime, email), password }, from });
    const answerOf = ({ status, body }: { status: number; body: any }) => ({ status, body });

    const weak = await Promise.all([registered.email, unknown].map(async (email) => answerOf(await accept(email, 'weak', '127.0.50.1'))));
    expect(weak[0]).toEqual(weak[1]);
    expect(weak[0]!.status).toBe(400);
    // Wrong passwords for the registered address from a stranger's source: refused before the pool
    // within three (sign-in-limits.ts STRANGER_FAILURES), right password or not.
    const wrong = [];
    for (let i = 0; i < 5; i++) wrong.push((await accept(registered.email, `${STRONG_PASSWORD}-wrong`, '127.0.50.2')).status);
    expect(wrong).toEqual([401, 401, 401, 429, 429]);
    expect((await accept(registered.email, STRONG_PASSWORD, '127.0.50.2')).status).toBe(429);
    // The person, from where they sign in (signedUpOwner's 127.0.0.1), joins; their companies log
    // the sign-in with its address.
    const joined = await accept(registered.email, STRONG_PASSWORD, '127.0.0.1');
    expect(joined.status).toBe(200);
    const audit = (await registered.browser.call('GET', `/companies/${registered.companyId}/audit-log`)).body.data as { action: string; sourceIp: string }[];
    expect(audit[0]).toMatchObject({ action: 'signed_in', sourceIp: '127.0.0.1' });
  }, 60_000);
});
