import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { depositItem } from '#adapters/dynamo/items/deposit';
import { withdrawalItem } from '#adapters/dynamo/items/withdrawal';
import { createDeposit, type Deposit } from '#functions/deposits/deposits';
import { tronSandboxIssuer } from '#functions/networks/tron/sandbox-issuer';
import { newWithdrawal, type Withdrawal } from '#functions/withdrawals/withdrawals';
import { TRON_DEPOSIT_SETTINGS } from '../support/deposit-settings.ts';
import { signedUpOwner } from '../support/dashboard.ts';
import { accessibilityProblems, navLink, screenshot, signInThroughPage, useDashboardChromium } from '../support/dashboard-chromium.ts';

/**
 * Held deposits as a person sees them (../shared/dashboard.md, Held deposits), in headless Chromium
 * against the local runtime with its chain jobs on: a deposit whose address the token's issuer froze
 * before it was paid (tronSandboxIssuer, as `npm run sandbox:issuer -- freeze` does), paid with
 * `Simulate payment`, is held by the poller; Activity shows it with its reason in words and finds it
 * by the `held` status, its page says why and what happens next, and Overview shows the held amount
 * apart from the balance, which does not count it. A withdrawal's page shows what the payee received
 * where the token's transfer fee made it less than the amount. axe-core on every view.
 */
const env = useDashboardChromium({ environment: { SANDBOX_BLOCK_INTERVAL_MS: '150' }, pollIntervalMs: 100 });
const rowsText = () => env.page.getByRole('tabpanel').getByRole('table').innerText();
const rowOf = (reference: string) => env.page.getByRole('tabpanel').getByRole('row', { name: new RegExp(reference) });
const facts = () => env.page.locator('.facts').innerText();

async function newDeposit(companyId: string, reference: string): Promise<Deposit> {
  return createDeposit(new DynamoDepositStore(env.db, env.chromium.runtime.tableName), TRON_DEPOSIT_SETTINGS, companyId, { network: 'tron', reference });
}

/** A record as the chain jobs would leave it: the page reads what is stored. */
async function stored(item: Record<string, unknown>): Promise<void> {
  await env.db.send(new PutCommand({ TableName: env.chromium.runtime.tableName, Item: item }));
}

describe('held deposits in headless Chromium', () => {
  let companyId: string;
  let frozen: Deposit;

  it('holds a deposit paid to an address the issuer froze, and its page says why', async () => {
    const owner = await signedUpOwner(env.chromium.runtime, 'Frozen Payments');
    companyId = owner.companyId;
    frozen = await newDeposit(companyId, 'invoice-frozen');
    await tronSandboxIssuer(env.db, env.chromium.runtime.tableName).freeze(frozen.address);
    await signInThroughPage(env.chromium, owner.email);

    await env.page.goto(`${env.chromium.origin}/dashboard/activity/deposits/${frozen.id}`);
    await env.page.getByRole('heading', { name: 'Simulate payment' }).waitFor();
    await env.page.getByLabel('Amount').fill('25');
    await env.page.getByRole('button', { name: 'Pay' }).click();

    // No reload: the page follows the deposit until the poller holds it at finality.
    await expect.poll(() => env.page.locator('.facts .status').innerText(), { timeout: 30_000, interval: 200 }).toBe('held');
    expect(await facts()).toMatch(/Hold reason\s+Address frozen by the issuer/);
    expect(await facts()).toMatch(/Received \(USDT\)\s+25\.000000/);
    expect(await facts()).toMatch(/Credited \(USDT\)\s+0\.000000/);
    expect(await env.page.getByRole('main').innerText()).toContain('credited once the issuer unfreezes the address');
    // Nothing more to pay or follow while it is held.
    expect(await env.page.getByRole('heading', { name: 'Simulate payment' }).count()).toBe(0);
    expect(await accessibilityProblems(env.page)).toEqual([]);
    await screenshot(env.page, 'activity-held-deposit');
  }, 60_000);

  it('lists held deposits with their reason in words, and finds them by the held status', async () => {
    const sanctioned = await newDeposit(companyId, 'invoice-sanctioned');
    // As the poller leaves a transfer from an address on the sanctions list.
    const heldTransfer = { txHash: 'cd'.repeat(32), eventIndex: 0, amount: 7_000_000n, blockNumber: 10, confirmations: 19, status: 'held' as const, holdReason: 'sender_sanctioned' as const };
    await stored(depositItem.toItem({ ...sanctioned, status: 'held', receivedAmount: 7_000_000n, transactions: [heldTransfer] }));
    await newDeposit(companyId, 'invoice-open');

    await env.page.getByRole('link', { name: 'Back to Deposits' }).click();
    await expect.poll(rowsText).toContain('invoice-open');
    expect((await rowOf('invoice-frozen').innerText()).split('\t')).toContain('Held: address frozen by the issuer');
    expect((await rowOf('invoice-sanctioned').innerText()).split('\t')).toContain('Held: sender on the sanctions list');
    expect((await rowOf('invoice-open').innerText()).split('\t')).toContain('awaiting_payment');

    await env.page.getByLabel('Status').selectOption('held');
    await env.page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(rowsText).not.toContain('invoice-open');
    expect((await env.page.getByRole('tabpanel').getByRole('row').allInnerTexts()).slice(1).map((row) => row.split('\t')[1])).toEqual(['invoice-sanctioned', 'invoice-frozen']);
    expect(await accessibilityProblems(env.page)).toEqual([]);
    await screenshot(env.page, 'activity-held-deposits');

    await rowOf('invoice-sanctioned').getByRole('link', { name: sanctioned.id }).click();
    await env.page.getByRole('heading', { name: new RegExp(`Deposit ${sanctioned.id}`) }).waitFor();
    await expect.poll(facts).toMatch(/Hold reason\s+Sender on the sanctions list/);
    expect(await env.page.getByRole('main').innerText()).toContain('credited only if Cambio releases them');

    // The poller's event for the frozen one, under its type.
    await env.page.getByRole('link', { name: 'Back to Deposits' }).click();
    await env.page.getByRole('tab', { name: 'Events' }).click();
    await env.page.getByLabel('Type').selectOption('deposit.held');
    await env.page.getByRole('button', { name: 'Apply' }).click();
    // The list before the filter holds deposit.held too: wait for the filtered one.
    await expect.poll(async () => { const rows = await rowsText(); return rows.includes('deposit.held') && !rows.includes('deposit.confirming'); }).toBe(true);
  });

  it('shows on Overview the held amount apart from the balance, which does not count it', async () => {
    await navLink(env.page, 'Overview').click();
    const held = env.page.getByRole('region', { name: 'Held' });
    // The frozen deposit's 25 went to the held bucket; the sanctioned record above was written without its ledger entry.
    await expect.poll(() => held.innerText()).toContain('25.000000 USDT');
    expect(await held.innerText()).toContain('not in the balance above');
    expect(await env.page.getByRole('table', { name: /Balances/ }).innerText()).toMatch(/USDT\s+0\.000000\s+0\.000000\s+0\.000000/);
    expect(await accessibilityProblems(env.page)).toEqual([]);
    await screenshot(env.page, 'overview-held');
  });

  it('shows a withdrawal’s delivered amount only where it differs from the amount', async () => {
    const completed = (reference: string, deliveredAmount: bigint): Withdrawal => ({
      ...newWithdrawal(companyId, { network: 'tron', reference, address: 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui', amount: 10_000_000n, fee: 1_000_000n }, new Date()),
      status: 'completed',
      txHash: 'ef'.repeat(32),
      deliveredAmount,
      completedAt: new Date().toISOString(),
    });
    const withFee = completed('payout-fee', 9_990_000n);
    const inFull = completed('payout-full', 10_000_000n);
    await stored(withdrawalItem.toItem(withFee));
    await stored(withdrawalItem.toItem(inFull));

    await env.page.goto(`${env.chromium.origin}/dashboard/activity/withdrawals/${withFee.id}`);
    await expect.poll(facts).toMatch(/Amount \(USDT\)\s+10\.000000\s+Delivered \(USDT\)\s+9\.990000/);
    expect(await accessibilityProblems(env.page)).toEqual([]);
    await env.page.goto(`${env.chromium.origin}/dashboard/activity/withdrawals/${inFull.id}`);
    await expect.poll(facts).toContain('payout-full');
    expect(await facts()).not.toContain('Delivered');
  });

  it('shows what a Solana payout cost on the network, and that it created the payee’s token account', async () => {
    const payout: Withdrawal = {
      ...newWithdrawal(companyId, { network: 'solana', reference: 'payout-sol', address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', amount: 10_000_000n, fee: 1_000_000n }, new Date()),
      status: 'completed',
      txHash: '5'.repeat(88),
      deliveredAmount: 10_000_000n,
      networkCost: { asset: 'SOL', decimals: 9, amount: 2_044_280n, tokenAccountCreated: true },
      completedAt: new Date().toISOString(),
    };
    await stored(withdrawalItem.toItem(payout));
    await env.page.goto(`${env.chromium.origin}/dashboard/activity/withdrawals/${payout.id}`);
    await expect.poll(facts).toMatch(/Fee \(USDT\)\s+1\.000000\s+Network cost\s+0\.002044280 SOL, the payee’?'?s token account created/);
    expect(await accessibilityProblems(env.page)).toEqual([]);
  });
});
