import type { Page, Route } from 'playwright-core';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '#adapters/dynamo/client';
import { webhookItem } from '#adapters/dynamo/items/webhook';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardBrowser, invitationTokenMailedTo, invitedMember, signedUpOwner, STRONG_PASSWORD, uniqueEmail } from '../support/dashboard.ts';
import { accessibilityProblems, navLink, openPage, screenshot, signInThroughPage, startDashboardChromium, type DashboardChromium } from '../support/dashboard-chromium.ts';
import { verifiesWith, WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * The Webhooks pages as a person uses them, in headless Chromium through the visible names of
 * ../shared/dashboard.md, against the local runtime with its dispatcher and sender running and a
 * real receiver: an endpoint added with the secret read from the page, a test event received and
 * verified with it, a failed delivery (500) then `Resend`, `Roll secret`, `Disable`, `Delete`;
 * a Viewer without the controls; axe-core on the list, the dialog and the endpoint's page.
 */
let chromium: DashboardChromium;
let page: Page;
const receiver = new WebhookReceiver();

beforeAll(async () => {
  chromium = await startDashboardChromium({ webhookIntervalMs: 100 });
  page = chromium.page;
  await receiver.start();
});

afterAll(async () => {
  await receiver.stop();
  await chromium?.stop();
});

const nav = (name: string) => navLink(page, name);
const main = () => page.getByRole('main');
const attemptsTable = () => page.getByRole('table', { name: 'Delivery attempts' });

const signIn = (email: string) => signInThroughPage(chromium, email);


describe('Webhooks in headless Chromium', () => {
  let owner: Awaited<ReturnType<typeof signedUpOwner>>;
  let secret = '';

  beforeAll(async () => {
    owner = await signedUpOwner(chromium.runtime, 'Hook Payments');
  });

  it('adds an endpoint and shows its signing secret once', async () => {
    await signIn(owner.email);
    await openPage(page, 'Webhooks');
    await page.getByText('No endpoint yet.').waitFor();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('URL').fill(receiver.url());
    await dialog.getByLabel('Description').fill('Order service');
    await dialog.getByLabel('All events').check();
    expect(await accessibilityProblems(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    secret = await dialog.getByLabel('Signing secret', { exact: true }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    receiver.secret = secret;
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => main().innerText()).toContain(receiver.url());
    expect(await main().innerText()).not.toContain(secret);
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'webhooks');
  });

  it('sends a test event that the endpoint receives and verifies with the shown secret, and lists the attempt', async () => {
    // The endpoint's row opens its page wherever it is clicked; its URL stays the link to it.
    const row = page.getByRole('table', { name: 'Endpoints' }).getByRole('row', { name: /Enabled/ });
    expect(await row.getByRole('link', { name: receiver.url() }).count()).toBe(1);
    await row.getByRole('cell', { name: 'Enabled' }).click();
    await page.getByRole('heading', { name: receiver.url(), level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => receiver.deliveries.length, { timeout: 15_000 }).toBe(1);
    const [delivery] = receiver.deliveries;
    expect(delivery!.verifyError).toBeNull();
    expect(delivery!.verified).toMatchObject({ type: 'webhook.test' });
    await expect.poll(() => attemptsTable().innerText().catch(() => ''), { timeout: 15_000 }).toContain('Succeeded');
    expect(await attemptsTable().innerText()).toContain('webhook.test');
  });

  it('shows a failed delivery (500); Resend is accepted and the event arrives again', async () => {
    receiver.respond = (_, res) => res.writeHead(500).end();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => receiver.deliveries.length, { timeout: 15_000 }).toBe(2);
    const failedEvent = String(receiver.deliveries[1]!.headers['webhook-id']);
    const failedRow = page.getByRole('row', { name: new RegExp(`${failedEvent}.*500`) });
    await expect.poll(() => failedRow.innerText().catch(() => ''), { timeout: 15_000 }).toContain('Failed');
    receiver.respond = (_, res) => res.writeHead(200).end();
    await failedRow.getByRole('button', { name: 'Resend' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toContain('queued again');
    await expect.poll(() => receiver.deliveries.filter((d) => d.headers['webhook-id'] === failedEvent).length, { timeout: 15_000 }).toBe(2);
    expect(receiver.deliveries.at(-1)!.verifyError).toBeNull();
    await expect.poll(() => page.getByRole('row', { name: new RegExp(`${failedEvent}.*200`) }).count(), { timeout: 15_000 }).toBe(1);
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'webhook-endpoint');

    // The event's own page lists its deliveries; each names its endpoint, a link back to it.
    const endpointPage = page.url();
    await page.goto(`${chromium.origin}/dashboard/activity/events/${failedEvent}`);
    const deliveries = page.getByRole('table');
    await expect.poll(() => deliveries.innerText()).toContain('whk_');
    await deliveries.getByRole('link').click();
    // The endpoint's page, once loaded, is headed by its URL ("Webhook endpoint" shows only while it loads).
    await page.getByRole('heading', { name: receiver.url(), level: 1 }).waitFor();
    expect(page.url()).toBe(endpointPage);
  });

  it('rolls the secret: the next delivery verifies with the old secret and the new one', async () => {
    await page.getByRole('button', { name: 'Roll secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Roll secret' }).click();
    const newSecret = await page.getByRole('dialog').getByLabel('Signing secret', { exact: true }).inputValue();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
    expect(await main().innerText()).toContain('also signs until');
    const before = receiver.deliveries.length;
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => receiver.deliveries.length, { timeout: 15_000 }).toBe(before + 1);
    const delivery = receiver.deliveries.at(-1)!;
    expect(verifiesWith(delivery, secret)).toBe(true);
    expect(verifiesWith(delivery, newSecret)).toBe(true);
    // Rolling again within the 24 hours would stop the first secret at once: the dialog says so.
    await page.getByRole('button', { name: 'Roll secret' }).click();
    expect(await page.getByRole('dialog').getByRole('alert').innerText()).toMatch(/still signs until .*Rolling again stops it now/);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  });

  /** Whether Send test event and every Resend are greyed out, and what a screen reader says of them. */
  async function undeliverableControls() {
    const buttons = [page.getByRole('button', { name: 'Send test event' }), ...(await page.getByRole('button', { name: /^Resend evt_/ }).all())];
    const disabled = await Promise.all(buttons.map((button) => button.isDisabled()));
    const described = await Promise.all(buttons.map(async (button) => {
      const id = await button.getAttribute('aria-describedby');
      return id ? page.locator(`#${id}`).innerText() : null;
    }));
    return { resends: buttons.length - 1, disabled: [...new Set(disabled)], described: [...new Set(described)] };
  }

  it('after a 410 the page had not seen, refuses Send test event with why, then greys it and Resend until Enable', async () => {
    const webhookId = new URL(page.url()).pathname.split('/').at(-1)!;
    // The receiver answered 410 Gone after the page loaded (the sender's own write); it is fixed, and
    // the person sends a test event before pressing Enable.
    const db = createDocumentClient(chromium.runtime.dynamoEndpoint);
    await db.send(new UpdateCommand({ TableName: chromium.runtime.tableName, Key: webhookItem.key(owner.companyId, webhookId), UpdateExpression: 'SET enabled = :off, disabledReason = :why', ExpressionAttributeValues: { ':off': false, ':why': 'the endpoint answered 410 Gone' } }));
    db.destroy();
    const before = receiver.deliveries.length;

    await page.getByRole('button', { name: 'Send test event' }).click();

    await expect.poll(() => main().getByRole('alert').innerText().catch(() => '')).toContain('This endpoint is disabled: enable it first');
    expect(await page.getByRole('status').innerText()).not.toContain('Test event sent');
    // The page shows the endpoint as it now stands, and what can no longer be done.
    await page.getByRole('button', { name: 'Enable' }).waitFor();
    expect(await main().innerText()).toContain('by Cambio: the endpoint answered 410 Gone');
    const greyed = await undeliverableControls();
    expect(greyed.resends).toBeGreaterThan(0);
    expect(greyed.disabled).toEqual([true]);
    expect(greyed.described).toEqual(['Disabled: Cambio sends nothing to this endpoint. Enable it to send a test event or resend an event.']);
    expect(await accessibilityProblems(page)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.deliveries.length).toBe(before);

    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('button', { name: 'Disable' }).waitFor();
    expect(await undeliverableControls()).toMatchObject({ disabled: [false], described: [null] });
    expect(await main().innerText()).not.toContain('Cambio sends nothing to this endpoint');
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => receiver.deliveries.length, { timeout: 15_000 }).toBe(before + 1);
  });

  it('disables the endpoint (Send test event and Resend greyed, saying why), enables it, and deletes it', async () => {
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('button', { name: 'Enable' }).waitFor();
    expect(await main().innerText()).toContain('Disabled');
    expect(await undeliverableControls()).toMatchObject({ disabled: [true], described: ['Disabled: Cambio sends nothing to this endpoint. Enable it to send a test event or resend an event.'] });
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('button', { name: 'Disable' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No endpoint yet.').waitFor();
    await nav('Audit log').click();
    await expect.poll(() => page.getByRole('table').innerText()).toContain('Deleted webhook endpoint');
    const audit = await page.getByRole('table').innerText();
    for (const action of ['Added webhook endpoint', 'Sent a test event', 'Resent an event', 'Rolled webhook signing secret', 'Disabled webhook endpoint', 'Enabled webhook endpoint']) {
      expect(audit).toContain(action);
    }
  });

  it('lists each older page of the audit log once, however often Load older entries is clicked', async () => {
    // Pages of two entries; an older page's answer held until the test lets it go.
    const held: { route: Route; url: string }[] = [];
    const auditLog = `**/dashboard/api/companies/${owner.companyId}/audit-log*`;
    await page.route(auditLog, (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('limit', '2');
      if (!url.searchParams.has('cursor')) return route.continue({ url: url.toString() });
      held.push({ route, url: url.toString() });
    });
    try {
      await nav('Overview').click();
      await nav('Audit log').click();
      const rows = () => page.getByRole('table').getByRole('row').allInnerTexts();
      await expect.poll(async () => (await rows()).length).toBe(3);

      await page.getByRole('button', { name: 'Load older entries' }).dblclick();
      await expect.poll(() => held.length).toBeGreaterThan(0);
      await page.waitForTimeout(500);
      for (const { route, url } of held.splice(0)) await Promise.all([page.waitForResponse((response) => response.url().includes('cursor=')), route.continue({ url })]);
      await expect.poll(async () => (await rows()).length).toBeGreaterThanOrEqual(5);
      await page.waitForTimeout(500);

      const listed = (await rows()).slice(1);
      expect(listed).toHaveLength(4);
      expect(new Set(listed).size).toBe(4);
    } finally {
      await page.unroute(auditLog);
      for (const { route } of held.splice(0)) await route.continue().catch(() => undefined);
    }
  });

  it('disables an endpoint without putting back the URL a colleague set after the page loaded', async () => {
    const base = `/companies/${owner.companyId}/webhooks`;
    const added = await owner.browser.call('POST', base, { body: { url: receiver.url('/before'), events: ['deposit.completed'], description: 'Ledger sync' } });
    const webhookId = added.body.data.id as string;
    await page.goto(`${chromium.origin}/dashboard/webhooks/${webhookId}`);
    await page.getByRole('heading', { name: receiver.url('/before'), level: 1 }).waitFor();
    const colleague = await invitedMember(chromium.runtime, owner.browser, owner.companyId, 'Admin');
    const moved = await colleague.browser.call('PUT', `${base}/${webhookId}`, { body: { url: receiver.url('/after'), events: ['deposit.completed'], description: 'Ledger sync' } });
    expect(moved.status).toBe(200);

    try {
      await page.getByRole('button', { name: 'Disable' }).click();
      await page.getByRole('button', { name: 'Enable' }).waitFor();

      const stored = await owner.browser.call('GET', `${base}/${webhookId}`);
      expect(stored.body.data).toMatchObject({ url: receiver.url('/after'), enabled: false, events: ['deposit.completed'], description: 'Ledger sync' });
      await page.getByRole('heading', { name: receiver.url('/after'), level: 1 }).waitFor();
    } finally {
      await owner.browser.call('DELETE', `${base}/${webhookId}`);
    }
  });

  it('says Copied only once the clipboard took the secret, and else how to copy it by hand', async () => {
    // The browser's clipboard as the test sets it: refusing (no permission, a policy) or taking the text.
    await page.addInitScript(`
      navigator.clipboard.writeText = (text) => window.refuseCopy ? Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')) : ((window.copiedText = text), Promise.resolve());
    `);
    await page.goto(`${chromium.origin}/dashboard/webhooks`);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('URL').fill(receiver.url('/copied'));
    await dialog.getByLabel('All events').check();
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = await dialog.getByLabel('Signing secret', { exact: true }).inputValue();

    try {
      await page.evaluate('window.refuseCopy = true');
      await dialog.getByRole('button', { name: 'Copy Signing secret' }).click();
      await expect.poll(() => dialog.getByRole('alert').innerText()).toMatch(/Not copied.*Select the Signing secret field and copy it yourself/);
      expect(await dialog.getByRole('button', { name: 'Copy Signing secret' }).innerText()).toBe('Copy');
      expect(await page.evaluate('window.copiedText ?? null')).toBeNull();
      expect(await accessibilityProblems(page)).toEqual([]);

      await page.evaluate('window.refuseCopy = false');
      await dialog.getByRole('button', { name: 'Copy Signing secret' }).click();
      await dialog.getByRole('button', { name: 'Copied Signing secret' }).waitFor();
      expect(await dialog.getByRole('status').innerText()).toBe('Signing secret copied');
      expect(await dialog.getByRole('alert').count()).toBe(0);
      expect(await page.evaluate('window.copiedText')).toBe(shown);
      await dialog.getByRole('button', { name: 'Done' }).click();
    } finally {
      const webhooks = (await owner.browser.call('GET', `/companies/${owner.companyId}/webhooks`)).body.data as { id: string; url: string }[];
      for (const hook of webhooks.filter((w) => w.url === receiver.url('/copied'))) await owner.browser.call('DELETE', `/companies/${owner.companyId}/webhooks/${hook.id}`);
      await page.goto(`${chromium.origin}/dashboard/webhooks`);
    }
  });

  it('gives a Viewer no control to change an endpoint', async () => {
    const added = await owner.browser.call('POST', `/companies/${owner.companyId}/webhooks`, { body: { url: receiver.url(), events: ['deposit.completed'] } });
    const email = uniqueEmail('viewer');
    await owner.browser.call('POST', `/companies/${owner.companyId}/team/invitations`, { body: { email, role: 'Viewer' } });
    await dashboardBrowser(chromium.runtime).call('POST', '/invitations/accept', { body: { token: invitationTokenMailedTo(chromium.runtime, email), password: STRONG_PASSWORD } });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(email);
    await nav('Webhooks').click();
    await page.getByRole('link', { name: receiver.url() }).waitFor();
    expect(await page.getByRole('button', { name: 'Add endpoint' }).count()).toBe(0);
    // The endpoint's row opens its page wherever it is clicked; its URL stays the link to it.
    const row = page.getByRole('table', { name: 'Endpoints' }).getByRole('row', { name: /Enabled/ });
    expect(await row.getByRole('link', { name: receiver.url() }).count()).toBe(1);
    await row.getByRole('cell', { name: 'Enabled' }).click();
    await page.getByRole('heading', { name: receiver.url(), level: 1 }).waitFor();
    for (const name of ['Send test event', 'Roll secret', 'Disable', 'Delete']) expect(await page.getByRole('button', { name }).count()).toBe(0);
    expect(added.status).toBe(201);
  });
});

describe('this file', () => {
  it('asked nothing of any machine but this one', () => {
    expect(chromium.offMachine).toEqual([]);
  });
});
