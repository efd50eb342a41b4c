import { describe, expect, it } from 'vitest';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { signedUpOwner, STRONG_PASSWORD } from '../support/dashboard.ts';
import { accessibilityProblems, navLink, signInThroughPage, useDashboardChromium } from '../support/dashboard-chromium.ts';
import { apiClient } from '../support/local-api.ts';
import { creditAvailable } from '../support/money.ts';
import { mailsTo } from '../support/outbox.ts';

/**
 * The withdrawal allowlist's waiting period as production has it (WITHDRAWAL_ADDRESS_DELAY_HOURS
 * 24), in headless Chromium: an added address is listed as waiting and /v1 refuses it until then;
 * a turn-off is pending (`turns off at …`) while the list still holds, and `Keep allowlist on`
 * cancels it. Each widening is mailed to the Owner.
 */
const env = useDashboardChromium({ environment: { WITHDRAWAL_ADDRESS_DELAY_HOURS: '24' } });

const payout = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 9_501);
const section = () => env.page.getByRole('region', { name: 'Withdrawal addresses' });
const status = () => section().getByRole('status');
const button = (name: string) => env.page.getByRole('button', { name, exact: true });

describe('the withdrawal allowlist and daily limit with a 24-hour waiting period, in headless Chromium', () => {
  it('lists an added address as waiting, which /v1 refuses until its time; a turn-off waits too, and can be cancelled', async () => {
    const owner = await signedUpOwner(env.chromium.runtime, 'Waiting Payments');
    const { apiKey, apiSecret } = (await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'Payouts', password: STRONG_PASSWORD } })).body.data;
    const v1 = apiClient(env.chromium.runtime, { apiKey, apiSecret });
    await creditAvailable(env.db, env.chromium.runtime.tableName, owner.companyId, 'USDT', '100');

    await signInThroughPage(env.chromium, owner.email);
    await navLink(env.page, 'Integrations').click();
    await expect.poll(() => status().innerText()).toBe('Allowlist off');
    expect(await section().innerText()).toContain('becomes usable after 24 hours');
    await button('Turn on allowlist').click();
    await expect.poll(() => status().innerText()).toBe('Allowlist on');

    await button('Add address').click();
    const dialog = env.page.getByRole('dialog');
    await dialog.getByLabel('Label').fill('Treasury');
    await dialog.getByLabel('Address').fill(payout);
    await dialog.getByRole('button', { name: 'Add' }).click();
    const row = env.page.getByRole('table', { name: 'Withdrawal addresses' }).getByRole('row', { name: /Treasury/ });
    await row.waitFor();
    expect(await row.innerText()).toContain('(waiting)');
    const refused = await v1('POST', '/withdrawals', { body: { method: 'usdt', network: 'tron', address: payout, amount: '10', reference: 'too-soon' } });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'ADDRESS_NOT_ALLOWED', details: { address: payout, activeFrom: expect.any(String) } });
    const waitedMs = Date.parse(refused.body.error.details.activeFrom) - Date.now();
    expect(waitedMs).toBeGreaterThan(23.9 * 3600_000);
    expect(waitedMs).toBeLessThanOrEqual(24 * 3600_000);

    await button('Turn off allowlist').click();
    await env.page.getByRole('dialog').getByRole('button', { name: 'Turn off allowlist' }).click();
    await expect.poll(() => status().innerText()).toMatch(/^Allowlist on, turns off at /);
    expect(await button('Keep allowlist on').count()).toBe(1);
    expect(await accessibilityProblems(env.page)).toEqual([]);
    // Still holding: a withdrawal to an address not on it is refused.
    const stranger = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 9_502);
    expect((await v1('POST', '/withdrawals', { body: { method: 'usdt', network: 'tron', address: stranger, amount: '10', reference: 'pending-off' } })).body.error.code).toBe('ADDRESS_NOT_ALLOWED');

    await button('Keep allowlist on').click();
    await expect.poll(() => status().innerText()).toBe('Allowlist on');
    expect(await button('Turn off allowlist').count()).toBe(1);
    expect(mailsTo(env.chromium.runtime.outboxDir, owner.email).map((mail) => mail.subject)).toEqual([
      // The test's own API key, made through the dashboard, is mailed too.
      'New API key for Waiting Payments',
      'Withdrawal address added to Waiting Payments',
      'Withdrawal allowlist turning off for Waiting Payments',
    ]);
  });

  it('sets a daily withdrawal limit that /v1 keeps to at once; a raise and a removal wait their 24 hours', async () => {
    const owner = await signedUpOwner(env.chromium.runtime, 'Limited Payments');
    const { apiKey, apiSecret } = (await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'Payouts', password: STRONG_PASSWORD } })).body.data;
    const v1 = apiClient(env.chromium.runtime, { apiKey, apiSecret });
    await creditAvailable(env.db, env.chromium.runtime.tableName, owner.companyId, 'USDT', '1000');
    const withdraw = async (amount: string, reference: string) =>
      (await v1('POST', '/withdrawals', { body: { method: 'usdt', network: 'tron', address: payout, amount, reference } })).body;
    const limitSection = () => env.page.getByRole('region', { name: 'Daily withdrawal limit' });

    await signInThroughPage(env.chromium, owner.email);
    await navLink(env.page, 'Integrations').click();
    await expect.poll(() => limitSection().getByRole('status').innerText()).toBe('No limit');
    await limitSection().getByLabel('Daily limit (USDT)').fill('50');
    await button('Save limit').click();
    await expect.poll(() => limitSection().getByRole('status').innerText()).toBe('50.000000 USDT a day, 0.000000 USDT of it used today');

    expect((await withdraw('60', 'over')).error).toMatchObject({ code: 'LIMIT_REACHED', details: { dailyLimit: '50.000000', remaining: '50.000000' } });
    expect((await withdraw('40', 'within')).data.status).toBe('pending');

    await limitSection().getByLabel('Daily limit (USDT)').fill('500');
    await button('Save limit').click();
    await expect.poll(() => limitSection().getByRole('status').innerText()).toMatch(/^50\.000000 USDT a day, 40\.000000 USDT of it used today; 500\.000000 USDT a day from /);
    // The raise waits: 40 + 20 is still past today's 50.
    expect((await withdraw('20', 'still-over')).error.code).toBe('LIMIT_REACHED');

    await button('Remove limit').click();
    await env.page.getByRole('dialog').getByRole('button', { name: 'Remove limit' }).click();
    await expect.poll(() => limitSection().getByRole('status').innerText()).toMatch(/; no limit from /);
    expect(await accessibilityProblems(env.page)).toEqual([]);
    expect(mailsTo(env.chromium.runtime.outboxDir, owner.email).map((mail) => mail.subject)).toEqual([
      'New API key for Limited Payments',
      'Daily withdrawal limit raise for Limited Payments',
      'Daily withdrawal limit removal for Limited Payments',
    ]);
  });
});
