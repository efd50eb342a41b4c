import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTestApi } from '../support/local-api.ts';
import { dashboardBrowser, signedUpOwner, STRONG_PASSWORD, uniqueEmail } from '../support/dashboard.ts';
import { linkIn, mailsTo } from '../support/outbox.ts';

/**
 * Team → Invite member mails the invited person the link (the local stage's mailer writes each mail
 * to the runtime's outbox folder; SES in AWS), through a real socket against the local runtime.
 * The mail is on top of the link the page shows: when it cannot go, the invitation stands.
 */
const api = useTestApi();

afterEach(() => vi.restoreAllMocks());

describe('an invitation by mail', () => {
  it('mails the invited person a link that lets them in once, naming the company, the role and who invited them', async () => {
    const owner = await signedUpOwner(api.runtime, 'Mailed & Co <b>');
    const email = uniqueEmail('mailed');

    const invited = await owner.browser.call('POST', `/companies/${owner.companyId}/team/invitations`, { body: { email, role: 'Admin' } });

    expect(invited.status).toBe(201);
    expect(invited.body.data).toMatchObject({ email, role: 'Admin', emailed: true });
    const [mail, ...more] = mailsTo(api.runtime.outboxDir, email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Join Mailed & Co <b> on Cambio');
    expect(mail!.text).toContain(`${owner.email} invited you to join Mailed & Co <b> on Cambio as an Admin.`);
    expect(mail!.html).toContain('Mailed &amp; Co &lt;b&gt;');
    expect(mail!.html).not.toContain('<b>');
    const link = linkIn(mail!);
    expect(link).toBe(`${new URL(api.runtime.apiUrl).origin}/dashboard/accept-invitation?token=${invited.body.data.token}`);

    const joined = dashboardBrowser(api.runtime);
    expect((await joined.call('POST', '/invitations/accept', { body: { token: new URL(link!).searchParams.get('token'), password: STRONG_PASSWORD } })).status).toBe(200);
    expect((await joined.call('GET', '/me')).body.data.companies).toEqual([{ id: owner.companyId, name: 'Mailed & Co <b>', environment: 'sandbox', role: 'Admin' }]);
  });

  it('keeps the invitation when the mail cannot go: the answer says so, the link works, and the log names neither the token nor the address', async () => {
    const owner = await signedUpOwner(api.runtime, 'Unmailed Co');
    const email = uniqueEmail('unmailed');
    // A file where the outbox folder should be: the mailer cannot write the mail.
    rmSync(api.runtime.outboxDir, { recursive: true, force: true });
    writeFileSync(api.runtime.outboxDir, '');
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true));

    let invited;
    try {
      invited = await owner.browser.call('POST', `/companies/${owner.companyId}/team/invitations`, { body: { email, role: 'Developer' } });
    } finally {
      vi.restoreAllMocks();
      rmSync(api.runtime.outboxDir, { force: true });
      mkdirSync(api.runtime.outboxDir);
    }

    expect(invited.status).toBe(201);
    expect(invited.body.data).toMatchObject({ email, role: 'Developer', emailed: false });
    const warning = written.map((line) => JSON.parse(line)).find((line) => line.message?.startsWith('invitation not mailed'));
    expect(warning).toMatchObject({ level: 'WARN', companyId: owner.companyId, error: expect.any(String), correlation_id: expect.any(String) });
    expect(written.join('')).not.toContain(invited.body.data.token);
    expect(written.join('')).not.toContain(email);
    expect((await dashboardBrowser(api.runtime).call('POST', '/invitations/accept', { body: { token: invited.body.data.token, password: STRONG_PASSWORD } })).status).toBe(200);
  });

  it('mails nothing when the invitation is refused', async () => {
    const owner = await signedUpOwner(api.runtime, 'Refusing Co');

    const refused = await owner.browser.call('POST', `/companies/${owner.companyId}/team/invitations`, { body: { email: owner.email, role: 'Viewer' } });

    expect(refused.status).toBe(400);
    expect(mailsTo(api.runtime.outboxDir, owner.email)).toEqual([]);
  });
});
