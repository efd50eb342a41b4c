import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedUpOwner } from '../support/dashboard.ts';
import { accessibilityProblems, screenshot, startDashboardChromium, type DashboardChromium } from '../support/dashboard-chromium.ts';
import { mailsTo } from '../support/outbox.ts';

/**
 * `Forgot your password?` as a person uses it, in headless Chromium against the local runtime: from
 * the sign-in page to the mailed link (the runtime's outbox) and back, signed in with the new
 * password; axe-core on each page.
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

describe('Forgot your password? in headless Chromium', () => {
  it('mails a link whose page sets a new password, then signs in with it', async () => {
    const owner = await signedUpOwner(chromium.runtime, 'Forgot Co');
    const newPassword = 'Brand-New-Horse-47';

    await page.goto(`${chromium.origin}/dashboard/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toContain(`If a Cambio account uses ${owner.email}, we have mailed it a link`);
    await screenshot(page, 'forgot-password');

    const link = /^http\S+\/dashboard\/reset-password\?token=\S+$/m.exec(mailsTo(chromium.runtime.outboxDir, owner.email)[0]?.text ?? '')?.[0];
    expect(link).toBeDefined();
    await page.goto(link!);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Set password' }).click();

    await page.getByRole('heading', { name: 'Sign in to Cambio' }).waitFor();
    expect(await page.getByRole('status').innerText()).toContain('Your password is changed');
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Dashboard' }).waitFor();
    expect(await page.getByText('Forgot Co').first().isVisible()).toBe(true);
  });
});
