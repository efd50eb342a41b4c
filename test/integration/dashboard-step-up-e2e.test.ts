import { describe, expect, it } from 'vitest';
import { signedUpOwner, STRONG_PASSWORD, uniqueEmail } from '../support/dashboard.ts';
import { accessibilityProblems, navLink, signInThroughPage, useDashboardChromium } from '../support/dashboard-chromium.ts';
import { linkIn, mailsTo } from '../support/outbox.ts';

/**
 * `Confirm it's you` in headless Chromium (functions/people/step-up.ts), with
 * DASHBOARD_RECENT_SIGN_IN_SECONDS at 2: once the sign-in is older, `Create API key` of a read-only
 * key opens the confirmation over its dialog; the password, right, signs the session in afresh and the key is
 * issued without asking again; Cancel leaves the creation refused, saying why. Team's `Resend`
 * asks the same way, since a new link lets someone in as the invitation did.
 */
const env = useDashboardChromium({ environment: { DASHBOARD_RECENT_SIGN_IN_SECONDS: '2' } });
const older = () => new Promise((resolve) => setTimeout(resolve, 3_200));

/** `Create API key` for a read-only key named `name`, on a session older than the window: the
 * confirmation opens over it. (A full-access key asks for the password in its own dialog.) */
async function createKeyAsked(name: string) {
  await env.page.getByRole('button', { name: 'Create API key' }).click();
  const create = env.page.getByRole('dialog', { name: 'Create API key' });
  await create.getByLabel('Name').fill(name);
  await create.getByLabel('Access').selectOption({ label: 'Read only' });
  await create.getByRole('button', { name: 'Create' }).click();
  const confirm = env.page.getByRole('dialog', { name: 'Confirm it’s you' });
  await confirm.getByLabel('Password').waitFor();
  return { create, confirm };
}

describe('Confirm it’s you, in headless Chromium', () => {
  it('asks for the password over Create API key (read only) once the sign-in is older, then issues the key', async () => {
    const owner = await signedUpOwner(env.chromium.runtime, 'Sudo Payments');
    await signInThroughPage(env.chromium, owner.email);
    await navLink(env.page, 'Integrations').click();
    await env.page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
    await older();

    const { confirm } = await createKeyAsked('Reporting');
    expect(await accessibilityProblems(env.page)).toEqual([]);
    await confirm.getByLabel('Password').fill('not the password');
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => confirm.innerText()).toContain('Password is wrong');
    await confirm.getByLabel('Password').fill(STRONG_PASSWORD);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    const issued = env.page.getByRole('dialog', { name: 'Your new API key' });
    await issued.getByLabel('API secret', { exact: true }).waitFor();
    expect(await issued.getByLabel('API secret', { exact: true }).inputValue()).toMatch(/^cs_test_/);
    expect(await confirm.count()).toBe(0);
    await issued.getByRole('button', { name: 'Done' }).click();
    await env.page.getByRole('row', { name: /Reporting/ }).waitFor();

    // A full-access key asks for the password in its own dialog, a sign-in of now: no confirmation opens over it.
    await older();
    await env.page.getByRole('button', { name: 'Create API key' }).click();
    const full = env.page.getByRole('dialog', { name: 'Create API key' });
    await full.getByLabel('Name').fill('Payout server');
    await full.getByLabel('Password').fill(STRONG_PASSWORD);
    await full.getByRole('button', { name: 'Create' }).click();
    const fullIssued = env.page.getByRole('dialog', { name: 'Your new API key' });
    await fullIssued.getByLabel('API secret', { exact: true }).waitFor();
    expect(await confirm.count()).toBe(0);
    await fullIssued.getByRole('button', { name: 'Done' }).click();
    await env.page.getByRole('row', { name: /Payout server/ }).waitFor();
  }, 60_000);

  it('leaves the creation refused when the confirmation is cancelled, and says why', async () => {
    await older();
    const { create, confirm } = await createKeyAsked('Never made');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => create.innerText()).toContain('Confirm it is you: this needs your password again');
    await create.getByRole('button', { name: 'Cancel' }).click();
    expect(await env.page.getByRole('row', { name: /Never made/ }).count()).toBe(0);
  }, 60_000);

  it('asks for the password over Team’s Resend once the sign-in is older, then mails the new link', async () => {
    const owner = await signedUpOwner(env.chromium.runtime, 'Sudo Team');
    const invited = uniqueEmail('later');
    // The window is 2 s: the API session confirms just before inviting, as the page would ask.
    expect((await owner.browser.call('POST', '/session/confirm', { body: { password: STRONG_PASSWORD } })).status).toBe(200);
    expect((await owner.browser.call('POST', `/companies/${owner.companyId}/team/invitations`, { body: { email: invited, role: 'Owner', password: STRONG_PASSWORD } })).status).toBe(201);
    await signInThroughPage(env.chromium, owner.email);
    await navLink(env.page, 'Team').click();
    await env.page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    await older();

    await env.page.getByRole('button', { name: `Resend the invitation of ${invited}` }).click();
    const confirm = env.page.getByRole('dialog', { name: 'Confirm it’s you' });
    await confirm.getByLabel('Password').fill(STRONG_PASSWORD);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    const sent = env.page.getByRole('dialog', { name: 'Invitation sent' });
    await expect.poll(() => sent.innerText()).toContain(`We emailed ${invited} a link to join.`);
    expect(mailsTo(env.chromium.runtime.outboxDir, invited).map(linkIn)).toEqual([expect.stringContaining('/accept-invitation?token='), expect.stringContaining('/accept-invitation?token=')]);
  }, 60_000);
});
