import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitationTokenMailedTo, signedUpOwner, STRONG_PASSWORD, uniqueEmail } from '../support/dashboard.ts';
import { linkIn, mailsTo } from '../support/outbox.ts';
import { totpCode } from '#local/totp';
import { accessibilityProblems, navLink, openPage, screenshot, signInThroughPage, startDashboardChromium, type DashboardChromium } from '../support/dashboard-chromium.ts';

/**
 * The Team and Webhooks pages as a person uses them, in headless Chromium through the visible
 * names of ../shared/dashboard.md, against the local runtime; axe-core on each page.
 */
let chromium: DashboardChromium;
let page: Page;

beforeAll(async () => {
  chromium = await startDashboardChromium();
  page = chromium.page;
});

afterAll(async () => {
  await chromium?.stop();
});

const nav = (name: string) => navLink(page, name);

const signIn = (email: string) => signInThroughPage(chromium, email);

async function signOut(): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in to Cambio' }).waitFor();
}

describe('Team in headless Chromium', () => {
  let owner: Awaited<ReturnType<typeof signedUpOwner>>;
  const memberEmail = uniqueEmail('member');

  beforeAll(async () => {
    owner = await signedUpOwner(chromium.runtime, 'Team Payments');
  });

  it('invites a member, who alone is mailed the link (the page never shows it), and joins through it', async () => {
    await signIn(owner.email);
    await openPage(page, 'Team');
    await page.getByRole('button', { name: 'Invite member' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Email').fill(memberEmail);
    await dialog.getByLabel('Role').selectOption({ value: 'Developer' });
    // A Developer issues the API keys that send withdrawals: the invitation asks for the password.
    await dialog.getByLabel('Password').fill(STRONG_PASSWORD);
    expect(await accessibilityProblems(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Invite' }).click();
    const sent = page.getByRole('dialog', { name: 'Invitation sent' });
    await expect.poll(() => sent.innerText()).toContain(`We emailed ${memberEmail} a link to join.`);
    const [link, ...more] = mailsTo(chromium.runtime.outboxDir, memberEmail).map(linkIn);
    expect(more).toEqual([]);
    expect(link).toMatch(new RegExp(`^${chromium.origin}/dashboard/accept-invitation\\?token=[\\w-]+$`));
    const token = new URL(link!).searchParams.get('token')!;
    expect(await page.content()).not.toContain(token);
    await sent.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Pending invitations' }).innerText()).toContain(memberEmail);
    expect(await page.content()).not.toContain(token);

    await signOut();
    await page.goto(link!);
    await page.getByRole('button', { name: 'Accept invitation' }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'accept-invitation');
    await page.getByLabel('Password').fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByRole('heading', { name: /Team Payments/ }).waitFor();
    expect(await page.getByRole('banner').innerText()).toContain(`${memberEmail} · Developer`);
    // A Developer manages keys and webhooks, not the team.
    await nav('Team').click();
    await page.getByRole('table', { name: 'Members' }).waitFor();
    expect(await page.getByRole('button', { name: 'Invite member' }).count()).toBe(0);
    await signOut();
  });

  it('a member of two companies opens the one they joined, chooses the other under Company, and the choice survives a reload', async () => {
    // Their own company first, so the one they join is not first in GET /me.
    const person = await signedUpOwner(chromium.runtime, 'Mine First');
    const inviter = await signedUpOwner(chromium.runtime, 'Joined Later');
    expect((await inviter.browser.call('POST', `/companies/${inviter.companyId}/team/invitations`, { body: { email: person.email, role: 'Admin', password: STRONG_PASSWORD } })).status).toBe(201);
    const token = invitationTokenMailedTo(chromium.runtime, person.email);
    await page.goto(`${chromium.origin}/dashboard/accept-invitation?token=${token}`);
    await page.getByLabel('Password').fill(STRONG_PASSWORD);
    // The link's token is read, then kept out of the address bar and the browser's history.
    expect(page.url()).toBe(`${chromium.origin}/dashboard/accept-invitation`);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    const company = page.getByRole('banner').getByLabel('Company', { exact: true });
    await page.getByRole('heading', { name: /Joined Later/ }).waitFor();
    expect(await company.locator('option').allInnerTexts()).toEqual(expect.arrayContaining(['Mine First', 'Joined Later']));
    expect(await company.locator('option:checked').innerText()).toBe('Joined Later');
    expect(await page.getByRole('banner').innerText()).toContain(`${person.email} · Admin`);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.reload();
    await page.getByRole('heading', { name: /Joined Later/ }).waitFor();

    // Chosen from another page: back to Overview, of the other company.
    await nav('Team').click();
    await page.getByRole('table', { name: 'Members' }).waitFor();
    await company.selectOption({ label: 'Mine First' });
    await page.getByRole('heading', { name: /Mine First/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/');
    expect(await page.getByRole('banner').innerText()).toContain(`${person.email} · Owner`);
    await page.reload();
    await page.getByRole('heading', { name: /Mine First/ }).waitFor();
    expect(await company.locator('option:checked').innerText()).toBe('Mine First');
    await signOut();
  });

  it('sends a wrong password on accepting an invitation once, though the page is signed in', async () => {
    const person = await signedUpOwner(chromium.runtime, 'Signed In Already');
    const inviter = await signedUpOwner(chromium.runtime, 'Asks Them Over');
    expect((await inviter.browser.call('POST', `/companies/${inviter.companyId}/team/invitations`, { body: { email: person.email, role: 'Admin', password: STRONG_PASSWORD } })).status).toBe(201);
    await signIn(person.email);
    await page.goto(`${chromium.origin}/dashboard/accept-invitation?token=${invitationTokenMailedTo(chromium.runtime, person.email)}`);
    let accepts = 0;
    const count = (request: { method(): string; url(): string }) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/dashboard/api/invitations/accept') accepts += 1;
    };
    page.on('request', count);

    // A password the policy accepts, so the account's own check refuses it (401 AUTH_FAILED).
    await page.getByLabel('Password').fill('Wrong-Horse-42');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('wrong email or password');
    // Time for a second send, were the page to renew the session and send again.
    await page.waitForTimeout(1000);
    expect(accepts).toBe(1);

    await page.getByLabel('Password').fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByRole('heading', { name: /Asks Them Over/ }).waitFor();
    expect(accepts).toBe(2);
    page.off('request', count);
    await signOut();
  });

  it('changes the member’s role to Viewer; the last Owner cannot be removed', async () => {
    await signIn(owner.email);
    await nav('Team').click();
    const row = page.getByRole('row', { name: new RegExp(memberEmail) });
    await expect.poll(() => row.innerText()).toContain('Developer');
    await row.getByRole('button', { name: 'Change role' }).click();
    // A raise would ask for the password; a lowering does not.
    await page.getByRole('dialog').getByLabel('Role').selectOption({ value: 'Admin' });
    await page.getByRole('dialog').getByLabel('Password').waitFor();
    await page.getByRole('dialog').getByLabel('Role').selectOption({ value: 'Viewer' });
    expect(await page.getByRole('dialog').getByLabel('Password').count()).toBe(0);
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.innerText()).toContain('Viewer');

    await page.getByRole('row', { name: new RegExp(owner.email) }).getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page.getByRole('dialog').getByRole('alert').innerText()).toContain('The last Owner cannot be removed');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByRole('row', { name: new RegExp(owner.email) }).innerText()).toContain('Owner');
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'team');

    await nav('Audit log').click();
    await expect.poll(() => page.getByRole('table').innerText()).toContain('Changed the role of');
    const audit = await page.getByRole('table').innerText();
    expect(audit).toContain('(Developer → Viewer)');
    expect(audit).toContain('Accepted the invitation');
    expect(audit).toContain('Invited');
    await signOut();
  });

  it('resends a pending invitation with a new link, then revokes it: its row goes and its link no longer works', async () => {
    const invitee = uniqueEmail('revoked');
    await signIn(owner.email);
    await nav('Team').click();
    await page.getByRole('button', { name: 'Invite member' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Email').fill(invitee);
    await dialog.getByLabel('Role').selectOption({ value: 'Viewer' });
    // A Viewer changes nothing: no password asked.
    expect(await dialog.getByLabel('Password').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('dialog', { name: 'Invitation sent' }).getByRole('button', { name: 'Done' }).click();
    const [link] = mailsTo(chromium.runtime.outboxDir, invitee).map(linkIn);
    const invitations = page.getByRole('table', { name: 'Pending invitations' });
    await expect.poll(() => invitations.innerText()).toContain(invitee);
    // Team lists answer slowly from the resend on, as on a slow network or a loaded CI run: the
    // resend's reload last of all, after the revoke's. The page must not offer Revoke on the row the
    // resend replaced (its id is the old link's) and must keep the latest answer (row gone).
    let teamLists = 0;
    let heldAnswerDelivered = false;
    const slowTeamList = async (route: Route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const first = teamLists++ === 0;
      const answer = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, first ? 10_000 : 2_000));
      await route.fulfill({ response: answer });
      if (first) heldAnswerDelivered = true;
    };
    await page.route((url) => url.pathname.endsWith('/team'), slowTeamList);
    // Resend first: a new link, mailed, in place of the first one.
    await page.getByRole('button', { name: `Resend the invitation of ${invitee}` }).click();
    const resent = page.getByRole('dialog', { name: 'Invitation sent' });
    await expect.poll(() => resent.innerText()).toContain(`We emailed ${invitee} a link to join.`);
    const [first, newLink, ...more] = mailsTo(chromium.runtime.outboxDir, invitee).map(linkIn);
    expect([first, more]).toEqual([link, []]);
    expect(newLink).not.toBe(link);
    await resent.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: `Revoke the invitation of ${invitee}` }).click();
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    // count() does not wait: innerText() on a table that went between two calls would wait for it to come back.
    // Up to 30 s: on a loaded CI machine the revoke's request and the table's reload take seconds.
    await expect.poll(() => page.getByRole('row').filter({ hasText: invitee }).count(), { timeout: 30_000 }).toBe(0);
    // Past the held answer too: it must not bring the row back.
    await expect.poll(() => heldAnswerDelivered, { timeout: 30_000 }).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await page.getByRole('row').filter({ hasText: invitee }).count()).toBe(0);
    await page.unroute((url) => url.pathname.endsWith('/team'), slowTeamList);
    await signOut();
    await page.goto(newLink!);
    await page.getByLabel('Password').fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/not found/i);
    // Eleven page steps and two sign-ins: a loaded CI run took the whole test over vitest's 30 s.
  }, 90_000);

  it('a Viewer has no control to create a key, and the dashboard API refuses it with 403', async () => {
    await signIn(memberEmail);
    expect(await page.getByRole('banner').innerText()).toContain(`${memberEmail} · Viewer`);
    await nav('Integrations').click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create API key' }).count()).toBe(0);
    // The same request the page would send, with the session and CSRF cookies it holds.
    const csrf = ((await page.evaluate('document.cookie')) as string).replace(/^.*cambio_csrf=([\w-]+).*$/, '$1');
    const refused = await page.evaluate(
      async ({ companyId, token }) => {
        const response = await fetch(`/dashboard/api/companies/${companyId}/api-keys`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': token }, body: '{"name":"Sneaky"}' });
        return { status: response.status, error: ((await response.json()) as { error: unknown }).error };
      },
      { companyId: owner.companyId, token: csrf },
    );
    // Refused for the role, not as a forgery: the request carried the page's CSRF token.
    expect(refused).toEqual({ status: 403, error: expect.objectContaining({ code: 'FORBIDDEN', message: 'A Viewer may not do this' }) });
    await signOut();
  });

  /** Account → Set up two-factor sign-in, the test playing the authenticator app. */
  async function turnOnTwoFactor(): Promise<void> {
    await page.getByRole('link', { name: 'Account', exact: true }).click();
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await page.getByLabel('Setup key').innerText()).replace(/\s/g, '');
    await page.getByLabel('Authentication code').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('On: signing in asks for a code').waitFor();
  }

  it('an Owner requires two-factor sign-in; a member without it is told why and where to turn it on', async () => {
    await signIn(owner.email);
    await turnOnTwoFactor();
    await openPage(page, 'Team');
    const rowOf = (email: string) => page.getByRole('row', { name: new RegExp(email) });
    await expect.poll(() => rowOf(owner.email).innerText()).toContain('On');
    expect(await rowOf(memberEmail).innerText()).toContain('Off');
    await page.getByRole('button', { name: 'Require two-factor sign-in' }).click();
    const dialog = page.getByRole('dialog', { name: 'Require two-factor sign-in?' });
    expect(await dialog.innerText()).toContain('Members without it (1) lose access to this company');
    await dialog.getByRole('button', { name: 'Require' }).click();
    await page.getByText('Required of every member').waitFor();
    expect(await page.getByRole('button', { name: 'Stop requiring two-factor sign-in' }).count()).toBe(1);
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'team-two-factor');
    await signOut();

    await signIn(memberEmail);
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('This company requires two-factor sign-in');
    await page.getByRole('link', { name: 'Turn on two-factor sign-in under Account' }).click();
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).waitFor();
    await turnOnTwoFactor();
    await openPage(page, 'Team');
    await expect.poll(() => rowOf(memberEmail).innerText()).toContain('On');
    await signOut();
  });
});

describe('this file', () => {
  it('asked nothing of any machine but this one', () => {
    expect(chromium.offMachine).toEqual([]);
  });
});
