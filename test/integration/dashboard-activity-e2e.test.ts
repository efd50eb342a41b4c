import { TRON_AND_ETHEREUM_DEPOSIT_SETTINGS } from '../support/deposit-settings.ts';
import type { NetworkName } from '#functions/networks/names';
import { readFileSync } from 'node:fs';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { membershipItem } from '#adapters/dynamo/items/team';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { depositItem } from '#adapters/dynamo/items/deposit';
import { createDeposit, type Deposit } from '#functions/deposits/deposits';
import { accessibilityProblems, confirmSignUpThroughMail, navLink, screenshot, startDashboardChromium, type DashboardChromium } from '../support/dashboard-chromium.ts';
import { nextTotpCode, signedUpOwner, STRONG_PASSWORD, uniqueEmail } from '../support/dashboard.ts';
import { totpCode } from '#local/totp';

/**
 * Activity and the sandbox simulator as a person uses them, in headless Chromium through the
 * visible names of ../shared/dashboard.md, against the local runtime with its chain jobs on
 * (sandbox blocks of 150 ms: 19 confirmations take ~3 s, so the page's 1 s polling sees `confirming`): a deposit found by reference, paid with `Simulate payment`, seen
 * `confirming` then `completed` without a reload; `Export CSV` holding it; filters narrowing the
 * list; a Viewer without the simulator, whom the API refuses too. axe-core on every view.
 */
let chromium: DashboardChromium;
let page: Page;
let db: ReturnType<typeof createDocumentClient>;

beforeAll(async () => {
  chromium = await startDashboardChromium({ environment: { SANDBOX_BLOCK_INTERVAL_MS: '150' }, pollIntervalMs: 100 });
  page = chromium.page;
  db = createDocumentClient(chromium.runtime.dynamoEndpoint);
});

afterAll(async () => {
  db?.destroy();
  await chromium?.stop();
});

const SETTINGS = TRON_AND_ETHEREUM_DEPOSIT_SETTINGS;

/** A deposit as POST /v1/deposits makes it, in `status` with `transactions` (as the chain jobs
 * would leave it): no chain is needed for the page to show it. */
async function deposit(
  companyId: string,
  reference: string,
  status: Deposit['status'] = 'awaiting_payment',
  network: NetworkName = 'tron',
  transactions: Deposit['transactions'] = [],
): Promise<Deposit> {
  const made = await createDeposit(new DynamoDepositStore(db, chromium.runtime.tableName), SETTINGS, companyId, { network, reference });
  const changed = { ...made, status, transactions };
  if (status !== 'awaiting_payment' || transactions.length) await db.send(new PutCommand({ TableName: chromium.runtime.tableName, Item: depositItem.toItem(changed) }));
  return changed;
}

const rowsText = () => page.getByRole('tabpanel').getByRole('table').innerText();

describe('Activity in headless Chromium', () => {
  const email = uniqueEmail('activity');
  let companyId: string;
  let paid: Deposit;

  it('shows the Deposits tab of a new company, newest first, in accessible tabs', async () => {
    await page.goto(`${chromium.origin}/dashboard/sign-up`);
    await page.getByLabel('Company name').fill('Activity Payments');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await confirmSignUpThroughMail(chromium, email);
    await page.getByRole('heading', { name: /Activity Payments/ }).waitFor();
    companyId = (await page.evaluate(`fetch('/dashboard/api/me').then((r) => r.json())`) as { data: { companies: { id: string }[] } }).data.companies[0]!.id;
    await deposit(companyId, 'invoice-1001', 'expired');
    await deposit(companyId, 'invoice-1002', 'completed');
    paid = await deposit(companyId, 'invoice-1003');

    await navLink(page, 'Activity').click();
    const tabs = page.getByRole('tablist', { name: 'Activity' });
    for (const name of ['Deposits', 'Withdrawals', 'Conversions', 'Events']) expect(await tabs.getByRole('tab', { name }).count()).toBe(1);
    expect(await tabs.getByRole('tab', { name: 'Deposits' }).getAttribute('aria-selected')).toBe('true');
    await expect.poll(rowsText).toContain('invoice-1003');
    expect(await rowsText()).toMatch(/invoice-1003[\s\S]*invoice-1002[\s\S]*invoice-1001/);
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'activity-deposits');

    // The keyboard moves between tabs (arrow keys), as the tabs pattern says.
    await tabs.getByRole('tab', { name: 'Deposits' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => tabs.getByRole('tab', { name: 'Withdrawals' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Withdrawals');
    await page.getByRole('tabpanel').getByText('Nothing matches.').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => tabs.getByRole('tab', { name: 'Deposits' }).getAttribute('aria-selected')).toBe('true');
  });

  it('narrows the list with the status and date filters', async () => {
    await expect.poll(rowsText).toContain('invoice-1001');
    await page.getByLabel('Status').selectOption('expired');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(rowsText).not.toContain('invoice-1003');
    expect(await rowsText()).toContain('invoice-1001');
    expect(await rowsText()).not.toContain('invoice-1002');

    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(rowsText).toContain('invoice-1003');
    await page.getByLabel('To').fill('2020-01-01');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('tabpanel').getByText('Nothing matches.').waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
  });

  it('shows only the list last asked for: an earlier answer arriving late neither replaces nor joins it, and Load more lists a page once', async () => {
    // Pages of two deposits; the unfiltered list's answers held until the test lets each go.
    const held: { route: Route; url: string }[] = [];
    const deposits = `**/dashboard/api/companies/${companyId}/activity/deposits?*`;
    await page.route(deposits, (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('limit', '2');
      if (url.searchParams.has('status')) return route.continue({ url: url.toString() });
      held.push({ route, url: url.toString() });
    });
    const release = async () => {
      await expect.poll(() => held.length).toBeGreaterThan(0);
      for (const { route, url } of held.splice(0)) {
        await Promise.all([page.waitForResponse((response) => response.url().includes('/activity/deposits?') && !response.url().includes('status=')), route.continue({ url })]);
      }
      // The page has the answer: time to show it, were it to.
      await page.waitForTimeout(500);
    };
    const references = async () => (await page.getByRole('tabpanel').getByRole('row').allInnerTexts()).slice(1).map((row) => row.split('\t')[1]);
    const show = async (status: string) => {
      await page.getByLabel('Status').selectOption(status);
      await page.getByRole('button', { name: 'Apply' }).click();
    };

    /** The whole list's first page shown, then Load more clicked (or double-clicked). */
    const firstPageThen = async (click: 'click' | 'dblclick') => {
      await show('');
      await release();
      await expect.poll(references).toEqual(['invoice-1003', 'invoice-1002']);
      await page.getByRole('button', { name: 'Load more' })[click]();
    };

    try {
      // The whole list asked, then the expired deposits: the whole list's answer comes last.
      await show('');
      await show('expired');
      await expect.poll(references).toEqual(['invoice-1001']);
      await release();
      expect(await references()).toEqual(['invoice-1001']);

      // The whole list's second page asked, then the expired deposits.
      await firstPageThen('click');
      await show('expired');
      await expect.poll(references).toEqual(['invoice-1001']);
      await release();
      expect(await references()).toEqual(['invoice-1001']);

      // A double click on Load more.
      await firstPageThen('dblclick');
      await release();
      await expect.poll(references).toEqual(['invoice-1003', 'invoice-1002', 'invoice-1001']);
      expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
      expect(await accessibilityProblems(page)).toEqual([]);
    } finally {
      await page.unroute(deposits);
      for (const { route } of held.splice(0)) await route.continue().catch(() => undefined);
      await show('');
    }
  });

  it('shows each deposit’s network, filters by it, and links an Ethereum transfer to Etherscan', async () => {
    const txHash = `0x${'ab'.repeat(32)}`;
    const onEthereum = await deposit(companyId, 'invoice-eth-1', 'confirming', 'ethereum', [
      { txHash, eventIndex: 0, amount: 5_000_000n, blockNumber: 100, confirmations: 3, status: 'confirming' },
    ]);
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(rowsText).toContain('invoice-eth-1');
    const rowOf = (reference: string) => page.getByRole('tabpanel').getByRole('row', { name: new RegExp(reference) });
    expect((await rowOf('invoice-eth-1').innerText()).split('\t')).toContain('Ethereum');
    expect((await rowOf('invoice-1001').innerText()).split('\t')).toContain('TRON');

    await page.getByLabel('Network').selectOption({ label: 'Ethereum' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(rowsText).not.toContain('invoice-1001');
    expect((await page.getByRole('tabpanel').getByRole('row').allInnerTexts()).slice(1).map((row) => row.split('\t')[1])).toEqual(['invoice-eth-1']);
    expect(await accessibilityProblems(page)).toEqual([]);

    await rowOf('invoice-eth-1').getByRole('link', { name: onEthereum.id }).click();
    await page.getByRole('heading', { name: new RegExp(`Deposit ${onEthereum.id}`) }).waitFor();
    await expect.poll(() => page.getByRole('main').innerText()).toContain(txHash);
    expect(await page.locator('.facts').innerText()).toMatch(/Network\s+Ethereum/);
    expect(await page.getByRole('link', { name: new RegExp(txHash) }).getAttribute('href')).toBe(`https://etherscan.io/tx/${txHash}`);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByRole('link', { name: 'Back to Deposits' }).click();
    await expect.poll(rowsText).toContain('invoice-1001');
  });

  it('asks less often while a record it follows stays the same, and nothing while the tab is hidden', async () => {
    const waiting = await deposit(companyId, 'invoice-eth-2', 'confirming', 'ethereum', [
      { txHash: `0x${'cd'.repeat(32)}`, eventIndex: 0, amount: 5_000_000n, blockNumber: 100, confirmations: 3, status: 'confirming' },
    ]);
    // As the browser does when the person switches tabs or minimises the window.
    const tabHidden = (hidden: boolean) =>
      page.evaluate(`Object.defineProperty(document, 'hidden', { configurable: true, get: () => ${hidden} }); document.dispatchEvent(new Event('visibilitychange'))`);
    const reads: number[] = [];
    const counted = (request: { url(): string }) => void (request.url().endsWith(`/activity/deposits?id=${waiting.id}`) && reads.push(Date.now()));
    page.on('request', counted);
    try {
      await page.goto(`${chromium.origin}/dashboard/activity/deposits/${waiting.id}`);
      await page.getByRole('heading', { name: new RegExp(`Deposit ${waiting.id}`) }).waitFor();
      const opened = reads.length;
      await page.waitForTimeout(7_000);
      // Every second, 7 more; after 1, 1.5, 2.25 and 3.4 s of nothing new, at most 4.
      expect(reads.length - opened).toBeGreaterThanOrEqual(2);
      expect(reads.length - opened).toBeLessThanOrEqual(4);

      await tabHidden(true);
      const hidden = reads.length;
      await page.waitForTimeout(4_000);
      expect(reads.length - hidden).toBeLessThanOrEqual(1);
      const beforeShown = reads.length;
      await tabHidden(false);
      await expect.poll(() => reads.length, { timeout: 500 }).toBeGreaterThan(beforeShown);
    } finally {
      page.off('request', counted);
    }
    await page.getByRole('link', { name: 'Back to Deposits' }).click();
    await expect.poll(rowsText).toContain('invoice-1001');
  });

  it('finds a deposit by reference, pays it with Simulate payment and sees it confirming, then completed, live', async () => {
    await page.getByLabel('Search').fill('invoice-1003');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(rowsText).not.toContain('invoice-1002');
    expect(await rowsText()).toContain('invoice-1003');
    await page.getByRole('link', { name: paid.id }).click();

    await page.getByRole('heading', { name: new RegExp(`Deposit ${paid.id}`) }).waitFor();
    await page.getByRole('heading', { name: 'Simulate payment' }).waitFor();
    expect(await page.getByRole('main').innerText()).toContain('awaiting_payment');
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByLabel('Amount').fill('25');
    await page.getByRole('button', { name: 'Pay' }).click();

    // No reload: the page follows the deposit by itself.
    const status = page.locator('.facts .status');
    const seen = new Set<string>();
    await expect
      .poll(async () => (seen.add(await status.innerText()), [...seen].join(' ')), { timeout: 30_000, interval: 100 })
      .toMatch(/confirming.*completed/);
    expect(await page.getByRole('main').innerText()).toMatch(/25\.000000/);
    expect(await page.getByRole('table').innerText()).toMatch(/\d+ of 19/);
    // TRON's transfers link to Tronscan, as each network's to its own explorer.
    expect(await page.getByRole('table').getByRole('link').getAttribute('href')).toMatch(/^https:\/\/tronscan\.org\/#\/transaction\/[0-9a-f]{64}$/);
    // Paid in full: the simulator is gone.
    expect(await page.getByRole('heading', { name: 'Simulate payment' }).count()).toBe(0);
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'activity-deposit-detail');
    expect(chromium.offMachine).toEqual([]);
  }, 60_000);

  it('exports what the filter shows as a CSV file that holds the paid deposit', async () => {
    await page.getByRole('link', { name: 'Back to Deposits' }).click();
    await page.getByLabel('Status').selectOption('completed');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(rowsText).not.toContain('invoice-1001');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8').trimEnd().split('\n');
    expect(csv[0]).toBe('id,reference,status,amount,receivedAmount,creditedAmount,address,confirmations,createdAt,updatedAt,network,holdReason');
    expect(csv).toHaveLength(3);
    expect(csv.find((line) => line.startsWith(paid.id))).toMatch(new RegExp(`^${paid.id},invoice-1003,completed,,25\\.000000,25\\.000000,${paid.address},\\d+,`));
    expect(csv.join('\n')).toContain('invoice-1002');
    expect(csv.join('\n')).not.toContain('invoice-1001');
  });

  it('shows the deposit’s events with their payload', async () => {
    await page.getByRole('tab', { name: 'Events' }).click();
    await expect.poll(rowsText).toContain('deposit.completed');
    expect(await rowsText()).toContain('deposit.confirming');
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'activity-events');
    // A click anywhere in the row opens it, not only on its id; the id stays the row's one tab stop.
    const row = page.getByRole('tabpanel').getByRole('row', { name: /deposit\.completed/ });
    expect(await row.getAttribute('tabindex')).toBeNull();
    expect(await row.getByRole('link').getAttribute('href')).toMatch(/\/dashboard\/activity\/events\/evt_/);
    await row.getByRole('cell', { name: 'deposit.completed' }).click();
    await page.getByRole('heading', { name: 'Payload' }).waitFor();
    expect(await page.getByLabel('Event payload').innerText()).toContain(paid.id);
    expect(await page.getByRole('main').innerText()).toContain('No webhook was subscribed to this event.');
    expect(await accessibilityProblems(page)).toEqual([]);
  });

  it('lists the paid deposit under Overview’s Latest activity, newest first, its row opening its page', async () => {
    await navLink(page, 'Overview').click();
    const latest = page.getByRole('table', { name: 'Latest activity' });
    await expect.poll(async () => (await latest.getByRole('row').allInnerTexts()).slice(1).map((row) => row.split('\t')[1])).toEqual(['deposit.completed', 'deposit.confirming']);
    expect(await latest.getByRole('row', { name: /deposit\.completed/ }).innerText()).toContain('25.000000 USDT');
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'overview-activity');
    await latest.getByRole('row', { name: /deposit\.completed/ }).getByRole('cell', { name: '25.000000 USDT' }).click();
    await page.getByRole('heading', { name: new RegExp(`Deposit ${paid.id}`) }).waitFor();
  });

  it('sends a withdrawal with New withdrawal on the Withdrawals tab and lands on its page, which follows it until completed; the same form twice sends once', async () => {
    await navLink(page, 'Activity').click();
    await page.getByRole('tab', { name: 'Withdrawals' }).click();
    await page.getByRole('tabpanel').getByText('Nothing matches.').waitFor();
    await page.getByRole('button', { name: 'New withdrawal' }).click();
    const dialog = page.getByRole('dialog', { name: 'New withdrawal' });
    // The networks the stage opens (TRON alone here), TRON chosen.
    expect(await dialog.getByLabel('Network').inputValue()).toBe('tron');
    expect(await dialog.getByLabel('Network').getByRole('option').allInnerTexts()).toEqual(['TRON']);
    // A 0x… address with TRON chosen is refused in the dialog, never paid to its TRON twin.
    await dialog.getByLabel('Address').fill('0x52908400098527886E0F7030069857D2E4169EE7');
    await dialog.getByLabel('Amount (USDT)').fill('30');
    await dialog.getByLabel('Password').fill(STRONG_PASSWORD);
    await dialog.getByRole('button', { name: 'Send withdrawal' }).click();
    await expect.poll(() => dialog.getByRole('alert').innerText()).toContain('Address must be an address of TRON (base58check, starting with T)');
    expect(await accessibilityProblems(page)).toEqual([]);
    await dialog.getByLabel('Address').fill('TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui');
    // The person's password again: a wrong one is refused in the dialog, nothing sent.
    await dialog.getByLabel('Password').fill('not the password');
    await dialog.getByRole('button', { name: 'Send withdrawal' }).click();
    await expect.poll(() => dialog.innerText()).toContain('Password is wrong');
    await dialog.getByLabel('Password').fill(STRONG_PASSWORD);
    expect(await accessibilityProblems(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Send withdrawal' }).click();
    // 30 + the 1 USDT fee is more than the 25 paid in: refused, in the dialog, nothing sent.
    await expect.poll(() => dialog.innerText()).toContain('available balance is not enough');
    await dialog.getByLabel('Amount (USDT)').fill('10');
    const reference = await dialog.getByLabel('Reference').inputValue();
    expect(reference).toMatch(/^dashboard-[0-9a-f]{12}$/);
    await dialog.getByRole('button', { name: 'Send withdrawal' }).click();

    await page.getByRole('heading', { name: /^Withdrawal wdr_/ }).waitFor();
    // The dialog and the button that opened it are gone: focus is on the new page's heading, read out.
    await expect.poll(() => page.evaluate('`${document.activeElement?.tagName} ${document.activeElement?.textContent}`')).toMatch(/^H1 Withdrawal wdr_/);
    // The heading shows at once; the record once it is read.
    await expect.poll(() => page.getByRole('main').innerText()).toContain(reference);
    const main = await page.getByRole('main').innerText();
    expect(main).toContain('10.000000');
    expect(main).toContain('TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui');
    expect(main).toMatch(/Network\s+TRON/);
    expect(await accessibilityProblems(page)).toEqual([]);
    // Cambio's jobs send it on the sandbox chain; the page follows it to the end without a reload.
    await expect.poll(() => page.locator('.facts .status').innerText(), { timeout: 30_000, interval: 250 }).toBe('completed');

    // The page's own session sending that form again: a duplicate reference, not a second payout.
    const again = (await page.evaluate(`fetch('/dashboard/api/companies/${companyId}/withdrawals', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': document.cookie.split('cambio_csrf=')[1] },
      body: JSON.stringify({ network: 'tron', address: 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui', amount: '10', reference: '${reference}', password: '${STRONG_PASSWORD}' }),
    }).then(async (r) => ({ status: r.status, body: await r.json() }))`)) as { status: number; body: { error: { code: string } } };
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'DUPLICATE_REFERENCE' } } });
    await page.getByRole('link', { name: 'Back to Withdrawals' }).click();
    await expect.poll(rowsText).toContain(reference);
    expect((await page.getByRole('tabpanel').getByRole('row').all()).length).toBe(2);
  }, 60_000);

  /** New withdrawal's dialog, filled for 3 USDT: it and the reference it made. */
  const filledWithdrawalDialog = async () => {
    await page.getByRole('button', { name: 'New withdrawal' }).click();
    const dialog = page.getByRole('dialog', { name: 'New withdrawal' });
    await dialog.getByLabel('Address').fill('TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui');
    await dialog.getByLabel('Amount (USDT)').fill('3');
    await dialog.getByLabel('Password').fill(STRONG_PASSWORD);
    return { dialog, reference: await dialog.getByLabel('Reference').inputValue() };
  };

  it('sends a withdrawal once when the answer to Send withdrawal is lost: sent again, it opens the withdrawal that went', async () => {
    const { dialog, reference } = await filledWithdrawalDialog();
    // The first send reaches the server, which makes the withdrawal; its answer never reaches the page.
    const sends = `**/dashboard/api/companies/${companyId}/withdrawals`;
    let posted = 0;
    const sent: unknown[] = [];
    await page.route(sends, async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      posted += 1;
      const { network, address, amount, reference: sentReference } = route.request().postDataJSON() as Record<string, unknown>;
      sent.push({ network, address, amount, reference: sentReference });
      if (posted > 1) return route.continue();
      await route.fetch();
      await route.abort('connectionreset');
    });

    let said = '';
    try {
      await dialog.getByRole('button', { name: 'Send withdrawal' }).click();
      said = await dialog.getByRole('alert').innerText();
      expect(await dialog.getByLabel('Reference').inputValue()).toBe(reference);
      // The person who spots a typo in the amount cannot correct it and send again: the answer to
      // that send would be the first withdrawal's, which would look like the corrected one.
      const kept = { Network: 'TRON', Address: 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui', 'Amount (USDT)': '3', Reference: reference };
      for (const [label, value] of Object.entries(kept)) {
        const field = dialog.getByLabel(label, { exact: true });
        expect(await field.isEditable(), label).toBe(false);
        expect(await field.getAttribute('aria-describedby'), label).toBe('withdrawal-maybe-sent');
        await field.click();
        await page.keyboard.press('ControlOrMeta+A');
        await page.keyboard.type('205');
        expect(await field.inputValue(), label).toBe(value);
      }
      expect(await accessibilityProblems(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Send withdrawal' }).click();

      await page.getByRole('heading', { name: /^Withdrawal wdr_/ }).waitFor();
      await expect.poll(() => page.getByRole('main').innerText()).toContain(reference);
    } finally {
      await page.unroute(sends);
      if (await dialog.isVisible()) await dialog.getByRole('button', { name: 'Cancel' }).click();
    }
    expect(posted).toBe(2);
    expect(sent).toEqual([
      { network: 'tron', address: 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui', amount: '3', reference },
      { network: 'tron', address: 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui', amount: '3', reference },
    ]);
    // Not "try again", which a person would do with a new reference: that it may have gone, and sending again is safe.
    expect(said).toMatch(/may have been sent\. Send withdrawal again: it keeps the reference dashboard-[0-9a-f]{12}, so it is never sent twice/);
    expect(said).toContain('The network, address and amount stay as they were sent.');
    const found = (await page.evaluate(`fetch('/dashboard/api/companies/${companyId}/activity/withdrawals?q=${reference}').then((r) => r.json())`)) as { data: { id: string }[] };
    expect(found.data).toHaveLength(1);
    expect(page.url()).toContain(found.data[0]!.id);
    await page.getByRole('link', { name: 'Back to Withdrawals' }).click();
    await expect.poll(rowsText).toContain(reference);
    expect((await page.getByRole('tabpanel').getByRole('row').all()).length).toBe(3);
  });

  it('lists a withdrawal whose answer was lost once its dialog is cancelled', async () => {
    const { dialog, reference } = await filledWithdrawalDialog();
    const sends = `**/dashboard/api/companies/${companyId}/withdrawals`;
    await page.route(sends, async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      await route.fetch();
      await route.abort('connectionreset');
    });

    try {
      await dialog.getByRole('button', { name: 'Send withdrawal' }).click();
      await dialog.getByRole('alert').waitFor();
    } finally {
      await page.unroute(sends);
    }
    expect(await rowsText()).not.toContain(reference);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await expect.poll(rowsText).toContain(reference);
  });

  it('asks for the authenticator app’s code too once the person signs in with one', async () => {
    // Two-factor sign-in turned on through the page's own session, as Account does.
    const call = (path: string, body: unknown) =>
      page.evaluate(`fetch('/dashboard/api${path}', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': document.cookie.split('cambio_csrf=')[1] },
        body: ${JSON.stringify(JSON.stringify(body))},
      }).then((r) => r.json())`) as Promise<{ data: { secret: string } }>;
    const { secret } = (await call('/me/two-factor/setup', {})).data;
    await call('/me/two-factor/confirm', { code: totpCode(secret) });

    await page.getByRole('button', { name: 'New withdrawal' }).click();
    const dialog = page.getByRole('dialog', { name: 'New withdrawal' });
    await dialog.getByLabel('Authentication code').waitFor();
    await dialog.getByLabel('Address').fill('TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui');
    await dialog.getByLabel('Amount (USDT)').fill('2');
    await dialog.getByLabel('Password').fill(STRONG_PASSWORD);
    await dialog.getByLabel('Authentication code').fill(totpCode(secret, Date.now() - 5 * 60_000));
    await dialog.getByRole('button', { name: 'Send withdrawal' }).click();
    await expect.poll(() => dialog.innerText()).toContain('Authentication code does not match');
    expect(await accessibilityProblems(page)).toEqual([]);
    await dialog.getByLabel('Authentication code').fill(nextTotpCode(secret));
    await dialog.getByRole('button', { name: 'Send withdrawal' }).click();
    await page.getByRole('heading', { name: /^Withdrawal wdr_/ }).waitFor();
    await expect.poll(() => page.getByRole('main').innerText()).toContain('2.000000');
  });

  it('gives a Viewer no Simulate payment, and the API refuses the Viewer', async () => {
    const viewer = await signedUpOwner(chromium.runtime, 'Viewer Home');
    const viewerId = (await viewer.browser.call('GET', '/me')).body.data.personId as string;
    await db.send(new PutCommand({ TableName: chromium.runtime.tableName, Item: membershipItem.toItem({ companyId, personId: viewerId, email: viewer.email, role: 'Viewer', createdAt: new Date().toISOString() }) }));
    const open = await deposit(companyId, 'invoice-1004');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').fill(viewer.email);
    await page.getByLabel('Password').fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: /Activity Payments/ }).waitFor();
    await page.goto(`${chromium.origin}/dashboard/activity/deposits/${open.id}`);
    await page.getByRole('heading', { name: new RegExp(`Deposit ${open.id}`) }).waitFor();
    await expect.poll(() => page.getByRole('main').innerText()).toContain('invoice-1004');
    expect(await page.getByRole('heading', { name: 'Simulate payment' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Pay' }).count()).toBe(0);
    await page.goto(`${chromium.origin}/dashboard/activity/withdrawals`);
    await page.getByRole('tab', { name: 'Withdrawals', selected: true }).waitFor();
    expect(await page.getByRole('button', { name: 'New withdrawal' }).count()).toBe(0);

    // The page's own session, without the page's button: the dashboard API says no.
    const refused = (await page.evaluate(`fetch('/dashboard/api/companies/${companyId}/simulated-payments', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': document.cookie.split('cambio_csrf=')[1] },
      body: JSON.stringify({ depositId: '${open.id}', amount: '5' }),
    }).then(async (r) => ({ status: r.status, body: await r.json() }))`)) as { status: number; body: { error: { code: string } } };
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
  });
});
