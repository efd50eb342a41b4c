import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#local/runtime';
import { apiClient } from '../support/local-api.ts';
import { authenticatorApp, invitedMember, signedUpOwner, signedUpOwnerWithTwoFactor, STRONG_PASSWORD, uniqueEmail } from '../support/dashboard.ts';
import { mailsTo } from '../support/outbox.ts';
import { accessibilityProblems as axeProblems, confirmSignUpThroughMail, navLink, screenshot as screenshotOf, signInThroughPage, startDashboardChromium, type DashboardChromium } from '../support/dashboard-chromium.ts';

/**
 * The dashboard as a person uses it: Debian's Chromium, headless, driven by playwright-core through
 * the visible names of ../shared/dashboard.md, against the local runtime (its API, its Cognito
 * emulator, the built app), with the network closed to anything but this machine. axe-core runs on
 * every page. No silent skip: without Chromium this file fails and says how to install it.
 */
/** The goal for the JavaScript shipped to the first page, gzipped. */
const FIRST_PAGE_JS_BUDGET_BYTES = 100 * 1024;

let chromium: DashboardChromium;
let runtime: LocalRuntime;
let origin: string;
let page: Page;
let offMachine: string[];
const firstPageScripts: { url: string; gzipBytes: number }[] = [];

beforeAll(async () => {
  chromium = await startDashboardChromium();
  ({ runtime, origin, page, offMachine } = chromium);
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script' && firstPageScripts.length < 50 && !page.url().includes('#loaded')) {
      firstPageScripts.push({ url: response.url(), gzipBytes: gzipSync(await response.body()).length });
    }
  });
});

afterAll(async () => {
  await chromium?.stop();
});

const accessibilityProblems = () => axeProblems(page);
const screenshot = (name: string) => screenshotOf(page, name);
const nav = (name: string) => navLink(page, name);

describe('the dashboard in headless Chromium', () => {
  const email = uniqueEmail('e2e');
  let apiKey: string;
  let firstSecret: string;

  it('signs a new person up and lands on Overview, with a Sandbox badge and the balance table', async () => {
    await page.goto(`${origin}/dashboard/`);
    await page.getByRole('heading', { name: 'Sign in to Cambio' }).waitFor();
    // Offered once the page knows the stage's (GET /stage): this one signs up and mails.
    await page.getByRole('link', { name: 'Create a sandbox account' }).waitFor();
    await page.getByRole('link', { name: 'Forgot your password?' }).waitFor();
    const scriptBytes = firstPageScripts.reduce((sum, s) => sum + s.gzipBytes, 0);
    expect(scriptBytes).toBeGreaterThan(0);
    expect(scriptBytes).toBeLessThanOrEqual(FIRST_PAGE_JS_BUDGET_BYTES);
    console.log(`dashboard first page JavaScript: ${firstPageScripts.length} file(s), ${scriptBytes} bytes gzipped`);
    expect(await accessibilityProblems()).toEqual([]);
    await screenshot('sign-in');

    await page.getByRole('link', { name: 'Create a sandbox account' }).click();
    await page.getByLabel('Company name').fill('Acme Payments');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(STRONG_PASSWORD);
    expect(await accessibilityProblems()).toEqual([]);
    await screenshot('sign-up');
    await page.getByRole('button', { name: 'Create account' }).click();
    await confirmSignUpThroughMail(chromium, email, async () => expect(await accessibilityProblems()).toEqual([]));

    await page.getByRole('heading', { name: /Acme Payments/ }).waitFor();
    expect(await page.getByRole('main').getByText('Sandbox', { exact: true }).count()).toBeGreaterThan(0);
    // A new company's own limit on /v1: the sandbox stage's standard tier.
    expect(await page.getByRole('main').getByText('API rate limit: 10 requests a second, bursts of 20 (standard)', { exact: true }).count()).toBe(1);
    const table = page.getByRole('table');
    await expect.poll(() => table.innerText()).toContain('USDT');
    expect(await table.innerText()).toMatch(/USDT\s+0\.000000\s+0\.000000\s+0\.000000/);
    expect(await table.innerText()).toMatch(/BRL\s+0\.00\s+0\.00\s+0\.00/);
    for (const name of ['Overview', 'Activity', 'Webhooks', 'Integrations', 'Team', 'Audit log']) expect(await nav(name).count()).toBe(1);
    // Statement: this month so far, saved by the browser as the server streams it.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download statement' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^cambio-statement-\d{4}-\d{2}-01-to-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(readFileSync((await download.path())!, 'utf8').trimEnd().split('\n')).toEqual([
      'line,time,entryId,reference,currency,availableChange,pendingChange,lockedChange,available,pending,locked,network,heldChange,held',
      expect.stringMatching(/^opening,[^,]+,,,USDT,,,,0\.000000,0\.000000,0\.000000,,,0\.000000$/),
      expect.stringMatching(/^opening,[^,]+,,,BRL,,,,0\.00,0\.00,0\.00,,,0\.00$/),
      expect.stringMatching(/^closing,[^,]+,,,USDT,,,,0\.000000,0\.000000,0\.000000,,,0\.000000$/),
      expect.stringMatching(/^closing,[^,]+,,,BRL,,,,0\.00,0\.00,0\.00,,,0\.00$/),
    ]);
    // Tokens are HttpOnly cookies: the page's script sees only the CSRF token.
    expect(await page.evaluate('document.cookie')).toMatch(/^cambio_csrf=[\w-]+$/);
    expect(await page.evaluate('localStorage.length + sessionStorage.length')).toBe(0);
    expect(await accessibilityProblems()).toEqual([]);
    await screenshot('overview');
  });

  it('creates an API key whose secret is shown once and works on /v1, and is gone after Done', async () => {
    await nav('Integrations').click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Checkout server');
    // A full-access key can send withdrawals: it asks for the password, as New withdrawal does.
    await dialog.getByRole('button', { name: 'Create' }).click();
    expect(await dialog.getByLabel('Password').evaluate((input) => (input as { validity: { valueMissing: boolean } }).validity.valueMissing)).toBe(true);
    expect(await dialog.getByLabel('API secret', { exact: true }).count()).toBe(0);
    await dialog.getByLabel('Password').fill(STRONG_PASSWORD);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByLabel('API secret', { exact: true }).waitFor();
    apiKey = await dialog.getByLabel('API key', { exact: true }).inputValue();
    firstSecret = await dialog.getByLabel('API secret', { exact: true }).inputValue();
    expect(apiKey).toMatch(/^ck_test_/);
    expect(firstSecret).toMatch(/^cs_test_/);
    expect(await dialog.getByRole('button', { name: 'Copy API secret' }).count()).toBe(1);
    expect(await accessibilityProblems()).toEqual([]);
    await screenshot('api-key-created');

    const company = await apiClient(runtime, { apiKey, apiSecret: firstSecret })('GET', '/company');
    expect(company.status).toBe(200);
    expect(company.body.data.name).toBe('Acme Payments');

    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await page.content()).not.toContain(firstSecret);
    await page.reload();
    await page.getByRole('row', { name: /Checkout server/ }).waitFor();
    expect(await page.content()).not.toContain(firstSecret);
    const row = page.getByRole('row', { name: /Checkout server/ });
    expect(await row.innerText()).toContain(apiKey);
    expect(await row.innerText()).toContain('Active');
    // Used once by the call above: when, and from where.
    expect(await row.innerText()).toContain('from 127.0.0.1');
    expect(await accessibilityProblems()).toEqual([]);
    await screenshot('integrations');
  });

  it('rolls the secret keeping the old one for an hour, then revokes the key: the API answers 401', async () => {
    const row = page.getByRole('row', { name: /Checkout server/ });
    // Each button names its key, for a screen reader that lists the page's buttons.
    expect(await page.getByRole('button', { name: 'Roll secret of Checkout server', exact: true }).count()).toBe(1);
    await row.getByRole('button', { name: 'Roll secret' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Old secret expires').selectOption({ label: '1 hour' });
    await dialog.getByLabel('Password').fill('not the password');
    await dialog.getByRole('button', { name: 'Roll secret' }).click();
    await expect.poll(() => dialog.innerText()).toContain('Password is wrong');
    await dialog.getByLabel('Password').fill(STRONG_PASSWORD);
    await dialog.getByRole('button', { name: 'Roll secret' }).click();
    const newSecret = await dialog.getByLabel('API secret', { exact: true }).inputValue();
    expect(newSecret).toMatch(/^cs_test_/);
    expect(newSecret).not.toBe(firstSecret);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => row.innerText()).toMatch(/old secret valid until/);
    expect((await apiClient(runtime, { apiKey, apiSecret: firstSecret })('GET', '/company')).status).toBe(200);
    // Rolling again within that hour would stop the first secret at once: the dialog says so.
    await row.getByRole('button', { name: 'Roll secret' }).click();
    expect(await page.getByRole('dialog').getByRole('alert').innerText()).toMatch(/still works until .*Rolling again stops it within a minute/);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => row.innerText()).toContain('Revoked');
    // A pair the authorizer has not answered before: refused at once, no cache in between.
    const refused = await apiClient(runtime, { apiKey, apiSecret: newSecret })('GET', '/company');
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('AUTH_FAILED');
  });

  it('creates a read-only key limited to allowed IPs, listed as such, that reads /v1 and is refused every change with 403', async () => {
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Reporting');
    await dialog.getByLabel('Access').selectOption({ label: 'Read only' });
    // A read-only key moves no money: no password asked (a recent sign-in is).
    expect(await dialog.getByLabel('Password').count()).toBe(0);
    // A wrong entry first: the API's refusal names it in the dialog.
    await dialog.getByLabel('Allowed IPs').fill('127.0.0.1\nreports.example.com');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => dialog.innerText()).toContain('Allowed IPs "reports.example.com" is not an IP address or CIDR block');
    expect(await accessibilityProblems()).toEqual([]);
    await dialog.getByLabel('Allowed IPs').fill('127.0.0.1\n203.0.113.0/24');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByLabel('API secret', { exact: true }).waitFor();
    const reporting = apiClient(runtime, {
      apiKey: await dialog.getByLabel('API key', { exact: true }).inputValue(),
      apiSecret: await dialog.getByLabel('API secret', { exact: true }).inputValue(),
    });
    await dialog.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row', { name: /Reporting/ });
    await row.waitFor();
    expect(await row.innerText()).toContain('Read only from 127.0.0.1, 203.0.113.0/24');
    expect(await page.getByRole('row', { name: /Checkout server/ }).innerText()).toContain('Full access');

    expect((await reporting('GET', '/company/balance')).status).toBe(200);
    const refused = await reporting('POST', '/webhooks', { body: { url: 'https://example.com/hooks', events: ['*'] } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect((await reporting('GET', '/webhooks')).body.data).toEqual([]);
    expect(await accessibilityProblems()).toEqual([]);
  });

  it('edits a key’s allowed IPs in place: the dialog starts from the current list, the row shows the new one', async () => {
    const row = page.getByRole('row', { name: /Reporting/ });
    await row.getByRole('button', { name: 'Edit allowed IPs' }).click();
    const dialog = page.getByRole('dialog', { name: 'Allowed IPs of Reporting' });
    expect(await dialog.getByLabel('Allowed IPs').inputValue()).toBe('127.0.0.1\n203.0.113.0/24');
    expect(await accessibilityProblems()).toEqual([]);
    await dialog.getByLabel('Allowed IPs').fill('203.0.113.0/24');
    await dialog.getByRole('button', { name: 'Save allowed IPs' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => row.innerText()).toContain('Read only from 203.0.113.0/24');
    expect(await row.innerText()).not.toContain('Read only from 127.0.0.1');
  });

  it('shows the audit log of it all', async () => {
    await nav('Audit log').click();
    const table = page.getByRole('table');
    await expect.poll(() => table.innerText()).toContain('Revoked API key');
    const text = await table.innerText();
    for (const action of ['Revoked API key', 'Rolled API key secret (old secret valid for 1h)', 'Created API key', 'Signed up']) expect(text).toContain(action);
    expect(text).toContain('Created API key (read only, from 127.0.0.1, 203.0.113.0/24)');
    expect(text).toContain('Changed the allowed IPs of API key (203.0.113.0/24)');
    expect(text).toContain(email);
    expect(text).toContain(apiKey);
    expect(text).toContain('127.0.0.1');
    expect(await accessibilityProblems()).toEqual([]);
    await screenshot('audit-log');
  });

  it('signs out, refuses a wrong password, and signs back in', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Cambio' }).waitFor();
    expect(await page.evaluate('document.cookie')).toBe('');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('Not-the-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('Sign-in failed: wrong email or password');
    expect(await accessibilityProblems()).toEqual([]);
    await screenshot('sign-in-refused');

    await page.getByLabel('Password').fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: /Acme Payments/ }).waitFor();
    await nav('Audit log').click();
    await expect.poll(() => page.getByRole('table').innerText()).toContain('Signed in');
  });

  it('turns on two-factor sign-in from Account, then asks for the code after the password', async () => {
    await page.getByRole('link', { name: 'Account', exact: true }).click();
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    // The test plays the authenticator app: the key as shown, spaces and all.
    const secret = (await page.getByLabel('Setup key').innerText()).replace(/\s/g, '');
    const app = authenticatorApp(secret);
    expect(await page.getByRole('link', { name: 'open it in the app' }).getAttribute('href')).toMatch(/^otpauth:\/\/totp\/Cambio%3A/);
    expect(await accessibilityProblems()).toEqual([]);
    await screenshot('account-two-factor-setup');
    await page.getByLabel('Authentication code').fill(await app());
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('On: signing in asks for a code').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    expect(await accessibilityProblems()).toEqual([]);
    await screenshot('sign-in-two-factor');
    await page.getByLabel('Authentication code').fill(await app());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: /Acme Payments/ }).waitFor();
    await nav('Audit log').click();
    await expect.poll(() => page.getByRole('table').innerText()).toContain('Turned on two-factor sign-in');

    // Turning it off asks for the password and a code again.
    await page.getByRole('link', { name: 'Account', exact: true }).click();
    await page.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
    const dialog = page.getByRole('dialog', { name: 'Turn off two-factor sign-in' });
    await dialog.getByLabel('Password').fill(STRONG_PASSWORD);
    await dialog.getByLabel('Authentication code').fill(await app());
    expect(await accessibilityProblems()).toEqual([]);
    await dialog.getByRole('button', { name: 'Turn off' }).click();
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).waitFor();
    await nav('Audit log').click();
    await expect.poll(() => page.getByRole('table').innerText()).toContain('Turned off two-factor sign-in');
    // Three codes: the third can mean waiting up to a 30 s step for the app to show a new one, as a
    // person would, so the suite's 30 s per test is too short for this one on a loaded machine.
  }, 120_000);

  /** After a new password the page is on Sign in, with its notice; in again with the new one. */
  async function signedOutThenInWith(email: string, password: string) {
    await page.getByRole('heading', { name: 'Sign in to Cambio' }).waitFor();
    expect(await page.getByRole('status').innerText()).toContain('Your password is changed');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: /Forgot Co/ }).waitFor();
  }

  it('Forgot your password? mails a link whose page sets a new password; Account changes it again', async () => {
    const owner = await signedUpOwner(runtime, 'Forgot Co');
    const newPassword = 'Brand-New-Horse-47';

    await page.goto(`${origin}/dashboard/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    expect(await accessibilityProblems()).toEqual([]);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toContain(`If a Cambio account uses ${owner.email}, we have mailed it a link`);
    await screenshot('forgot-password');

    const link = /^http\S+\/dashboard\/reset-password\?token=\S+$/m.exec(mailsTo(runtime.outboxDir, owner.email)[0]?.text ?? '')?.[0];
    expect(link).toBeDefined();
    await page.goto(link!);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(await accessibilityProblems()).toEqual([]);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Set password' }).click();

    await signedOutThenInWith(owner.email, newPassword);

    // Account → Change password, with the one just chosen: signed out, in again with the newer one.
    const newerPassword = 'Newer-Horse-48!';
    await page.getByRole('link', { name: 'Account', exact: true }).click();
    await page.getByRole('heading', { name: 'Password' }).waitFor();
    expect(await accessibilityProblems()).toEqual([]);
    await page.getByLabel('Current password').fill(newPassword);
    await page.getByLabel('New password', { exact: true }).fill(newerPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await signedOutThenInWith(owner.email, newerPassword);
  });

});

describe('a refused Download statement, in headless Chromium', () => {
  it('goes to Sign in once the session has ended elsewhere, with nothing saved', async () => {
    const owner = await signedUpOwner(runtime, 'Statement Ended');
    await signInThroughPage(chromium, owner.email);
    await page.getByRole('button', { name: 'Download statement' }).waitFor();
    // Signing out in another browser ends every session opened before it (to the second), this page's too.
    await page.waitForTimeout(1100);
    expect((await owner.browser.call('DELETE', '/session')).status).toBe(200);
    const downloads: string[] = [];
    const saved = (download: { suggestedFilename(): string }) => downloads.push(download.suggestedFilename());
    page.on('download', saved);
    await page.getByRole('button', { name: 'Download statement' }).click();
    await page.getByRole('heading', { name: 'Sign in to Cambio' }).waitFor();
    await page.waitForTimeout(500);
    page.off('download', saved);
    expect(downloads).toEqual([]);
  });

  it('says why on the page once the company requires two-factor sign-in of a member without it', async () => {
    const owner = await signedUpOwnerWithTwoFactor(runtime, 'Statement Two-Factor');
    const member = await invitedMember(runtime, owner.browser, owner.companyId, 'Viewer');
    await signInThroughPage(chromium, member.email);
    await page.getByRole('button', { name: 'Download statement' }).waitFor();
    expect((await owner.browser.call('PUT', `/companies/${owner.companyId}/two-factor-requirement`, { body: { required: true } })).status).toBe(200);
    const downloads: string[] = [];
    const saved = (download: { suggestedFilename(): string }) => downloads.push(download.suggestedFilename());
    page.on('download', saved);
    await page.getByRole('button', { name: 'Download statement' }).click();
    // In the Statement's own section: the page's other parts, refreshing, may be refused alike.
    const statement = page.getByRole('region', { name: 'Statement' });
    await expect.poll(() => statement.getByRole('alert').innerText()).toContain('This company requires two-factor sign-in');
    await statement.getByRole('link', { name: 'Turn on two-factor sign-in under Account' }).waitFor();
    page.off('download', saved);
    expect(downloads).toEqual([]);
    expect(await accessibilityProblems()).toEqual([]);
  });

  it('asked nothing of any machine but this one', () => {
    expect(offMachine).toEqual([]);
  });
});
