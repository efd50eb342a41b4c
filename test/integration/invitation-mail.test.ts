import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTestApi } from '../support/local-api.ts';
import { dashboardBrowser, invitationTokenMailedTo, invitedMember, signedUpOwner, STRONG_PASSWORD, uniqueEmail } from '../support/dashboard.ts';
import { linkIn, mailsTo } from '../support/outbox.ts';

/**
 * Team → Invite member mails the invited person the link (the local stage's mailer writes each mail
 * to the runtime's outbox folder; SES in AWS), through a real socket against the local runtime. The
 * mail is the only place the link goes: the inviter's answer and page never hold it, so following
 * it proves the mailbox. When the mail cannot go, the invitation stands and Resend tries again.
 */
const api = useTestApi();

afterEach(() => vi.restoreAllMocks());

describe('an invitation by mail', () => {
  it('mails the invited person a link that lets them in once, naming the company, the role and who invited them', async () => {
    const owner = await signedUpOwner(api.runtime, 'Mailed & Co <b>');
    const email = uniqueEmail('mailed');

    const invited = await owner.browser.call('POST', `/companies/${owner.companyId}/team/invitations`, { body: { email, role: 'Admin', password: STRONG_PASSWORD } });

    expect(invited.status).toBe(201);
    expect(invited.body.data).toEqual({ email, role: 'Admin', expiresAt: expect.any(String), emailed: true });
    const [mail, ...more] = mailsTo(api.runtime.outboxDir, email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Your invitation to join a company on Cambio');
    expect(mail!.text).toContain(`${owner.email} invited you to join a company on Cambio as an Admin.\nThe company's name, as its people wrote it: "Mailed & Co <b>".`);
    expect(mail!.html).toContain('Mailed &amp; Co &lt;b&gt;');
    expect(mail!.html).not.toContain('<b>');
    const link = linkIn(mail!);
    expect(link).toMatch(new RegExp(`^${new URL(api.runtime.apiUrl).origin}/dashboard/accept-invitation\\?token=[\\w-]{43}$`));
    expect(JSON.stringify(invited.body)).not.toContain(new URL(link!).searchParams.get('token')!);

    const joined = dashboardBrowser(api.runtime);
    expect((await joined.call('POST', '/invitations/accept', { body: { token: new URL(link!).searchParams.get('token'), password: STRONG_PASSWORD } })).status).toBe(200);
    expect((await joined.call('GET', '/me')).body.data.companies).toEqual([{ id: owner.companyId, name: 'Mailed & Co <b>', environment: 'sandbox', role: 'Admin' }]);
  });

  it('keeps the invitation when the mail cannot go: the answer says so without a link, Resend mails one that works, and the log names neither the token nor the address', async () => {
    const owner = await signedUpOwner(api.runtime, 'Unmailed Co');
    const email = uniqueEmail('unmailed');
    // A file where the outbox folder should be: the mailer cannot write the mail.
    rmSync(api.runtime.outboxDir, { recursive: true, force: true });
    writeFileSync(api.runtime.outboxDir, '');
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true));

    let invited;
    try {
      invited = await owner.browser.call('POST', `/companies/${owner.companyId}/team/invitations`, { body: { email, role: 'Developer', password: STRONG_PASSWORD } });
    } finally {
      vi.restoreAllMocks();
      rmSync(api.runtime.outboxDir, { force: true });
      mkdirSync(api.runtime.outboxDir);
    }

    expect(invited.status).toBe(201);
    expect(invited.body.data).toEqual({ email, role: 'Developer', expiresAt: expect.any(String), emailed: false });
    const warning = written.map((line) => JSON.parse(line)).find((line) => line.message?.startsWith('invitation not mailed'));
    expect(warning).toMatchObject({ level: 'WARN', companyId: owner.companyId, error: expect.any(String), correlation_id: expect.any(String) });
    expect(written.join('')).not.toMatch(/token=/);
    expect(written.join('')).not.toContain(email);
    expect(mailsTo(api.runtime.outboxDir, email)).toEqual([]);

    const [pending] = (await owner.browser.call('GET', `/companies/${owner.companyId}/team`)).body.data.invitations;
    const resent = await owner.browser.call('POST', `/companies/${owner.companyId}/team/invitations/${pending.id}/resend`, { body: {} });
    expect(resent.body.data).toMatchObject({ email, emailed: true });
    expect((await dashboardBrowser(api.runtime).call('POST', '/invitations/accept', { body: { token: invitationTokenMailedTo(api.runtime, email), password: STRONG_PASSWORD } })).status).toBe(200);
  });

  it('Resend replaces the link with a new one, mailed again: the old link stops working, the new one lets them in', async () => {
    const owner = await signedUpOwner(api.runtime, 'Resending Co');
    const email = uniqueEmail('resent');
    await owner.browser.call('POST', `/companies/${owner.companyId}/team/invitations`, { body: { email, role: 'Developer', password: STRONG_PASSWORD } });
    const first = invitationTokenMailedTo(api.runtime, email);
    const [pending] = (await owner.browser.call('GET', `/companies/${owner.companyId}/team`)).body.data.invitations;

    const resent = await owner.browser.call('POST', `/companies/${owner.companyId}/team/invitations/${pending.id}/resend`, { body: {} });

    expect(resent.status).toBe(200);
    expect(resent.body.data).toEqual({ email, role: 'Developer', expiresAt: expect.any(String), emailed: true });
    const second = invitationTokenMailedTo(api.runtime, email);
    expect(second).not.toBe(first);
    expect(mailsTo(api.runtime.outboxDir, email).map(linkIn)).toEqual([first, second].map((token) => `${new URL(api.runtime.apiUrl).origin}/dashboard/accept-invitation?token=${token}`));
    const team = (await owner.browser.call('GET', `/companies/${owner.companyId}/team`)).body.data;
    expect(team.invitations.map((i: { email: string }) => i.email)).toEqual([email]);
    expect((await dashboardBrowser(api.runtime).call('POST', '/invitations/accept', { body: { token: first, password: STRONG_PASSWORD } })).status).toBe(404);
    expect((await dashboardBrowser(api.runtime).call('POST', '/invitations/accept', { body: { token: second, password: STRONG_PASSWORD } })).status).toBe(200);
    const audit = (await owner.browser.call('GET', `/companies/${owner.companyId}/audit-log`)).body.data as { action: string; target: string }[];
    expect(audit.map((entry) => entry.action)).toContain('invitation.resent');
  });

  it('Resend is refused to a Developer, to an Admin for an Owner’s invitation, and for another company’s or a used one', async () => {
    const owner = await signedUpOwner(api.runtime, 'Guarded Co');
    const developer = (await invitedMember(api.runtime, owner.browser, owner.companyId, 'Developer')).browser;
    const admin = (await invitedMember(api.runtime, owner.browser, owner.companyId, 'Admin')).browser;
    await owner.browser.call('POST', `/companies/${owner.companyId}/team/invitations`, { body: { email: uniqueEmail('next-owner'), role: 'Owner', password: STRONG_PASSWORD } });
    const [ownerInvitation] = (await owner.browser.call('GET', `/companies/${owner.companyId}/team`)).body.data.invitations;
    const stranger = await signedUpOwner(api.runtime, 'Stranger Co');
    const resend = (browser: ReturnType<typeof dashboardBrowser>, companyId: string) => browser.call('POST', `/companies/${companyId}/team/invitations/${ownerInvitation.id}/resend`, { body: {} });

    expect((await resend(developer, owner.companyId)).status).toBe(403);
    expect((await resend(admin, owner.companyId)).status).toBe(403);
    expect((await resend(stranger.browser, stranger.companyId)).status).toBe(404);
    expect((await resend(owner.browser, owner.companyId)).status).toBe(200);
    expect((await resend(owner.browser, owner.companyId)).status).toBe(404);
  });

  it('mails nothing when the invitation is refused', async () => {
    const owner = await signedUpOwner(api.runtime, 'Refusing Co');

    const refused = await owner.browser.call('POST', `/companies/${owner.companyId}/team/invitations`, { body: { email: owner.email, role: 'Viewer' } });

    expect(refused.status).toBe(400);
    expect(mailsTo(api.runtime.outboxDir, owner.email)).toEqual([]);
  });
});
