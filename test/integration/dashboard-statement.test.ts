import { describe, expect, it } from 'vitest';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { useTestApi, apiClient } from '../support/local-api.ts';
import { cookieHeader, signedUpOwner, STRONG_PASSWORD } from '../support/dashboard.ts';
import { creditAvailable } from '../support/ledger.ts';

/**
 * Overview's `Download statement` through the dashboard API over a real socket against the local
 * runtime: the company's balance changes between two UTC days as CSV, from the opening balances
 * through each ledger entry to the closing ones, which for a period ending today are the balances
 * the API answers.
 */
const api = useTestApi();

const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

type Owner = Awaited<ReturnType<typeof signedUpOwner>>;

/** The download as the browser gets it: the session's cookies, the CSV as text. */
async function statement(owner: Owner, companyId: string, query: Record<string, string>) {
  const cookies = cookieHeader(owner.browser.jar);
  const response = await fetch(`${owner.browser.origin}/dashboard/api/companies/${companyId}/statement?${new URLSearchParams(query)}`, { headers: { Cookie: cookies } });
  return { status: response.status, type: response.headers.get('content-type'), disposition: response.headers.get('content-disposition'), text: await response.text() };
}

const rows = (csv: string) => csv.trim().split('\n').slice(1).map((line) => line.split(','));

describe('the balance statement', () => {
  it('runs from the opening balances through each change to closing balances that are the API’s balance', async () => {
    const owner = await signedUpOwner(api.runtime, 'Statement Co');
    const { apiKey, apiSecret } = (await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'Statement', password: STRONG_PASSWORD } })).body.data;
    const call = apiClient(api.runtime, { apiKey, apiSecret });
    await creditAvailable(api.db, api.runtime.tableName, owner.companyId, 'USDT', '100');
    const withdrawal = await call('POST', '/withdrawals', { body: { method: 'usdt', network: 'tron', amount: '10', address: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 900), reference: 'statement-1' } });
    expect(withdrawal.status).toBe(201);

    const downloaded = await statement(owner, owner.companyId, { from: daysAgo(1), to: today() });

    expect(downloaded.status).toBe(200);
    expect(downloaded.type).toBe('text/csv; charset=utf-8');
    expect(downloaded.disposition).toContain(`cambio-statement-${daysAgo(1)}-to-${today()}.csv`);
    expect(downloaded.text.split('\n')[0]).toBe('line,time,entryId,reference,currency,availableChange,pendingChange,lockedChange,available,pending,locked,network,heldChange,held');
    expect(rows(downloaded.text).map((row) => [row[0], row[4], ...row.slice(5)])).toEqual([
      // Last, heldChange and held: deposits recorded but not credited (none here).
      ['opening', 'USDT', '', '', '', '0.000000', '0.000000', '0.000000', '', '', '0.000000'],
      ['opening', 'BRL', '', '', '', '0.00', '0.00', '0.00', '', '', '0.00'],
      ['entry', 'USDT', '100.000000', '0.000000', '0.000000', '100.000000', '0.000000', '0.000000', '', '0.000000', '0.000000'],
      // 10 USDT and the 1 USDT fee held until the transfer settles, on the withdrawal's network.
      ['entry', 'USDT', '-11.000000', '0.000000', '11.000000', '89.000000', '0.000000', '11.000000', 'tron', '0.000000', '0.000000'],
      ['closing', 'USDT', '', '', '', '89.000000', '0.000000', '11.000000', '', '', '0.000000'],
      ['closing', 'BRL', '', '', '', '0.00', '0.00', '0.00', '', '', '0.00'],
    ]);
    expect(rows(downloaded.text)[3]![3]).toBe(`withdrawal:${withdrawal.body.data.id}:hold`);
    const balances = (await call('GET', '/company/balance')).body.data.balances as { currency: string; available: string; pending: string; locked: string }[];
    expect(rows(downloaded.text).filter((row) => row[0] === 'closing').map((row) => [row[4], ...row.slice(8, 11)])).toEqual(balances.map((b) => [b.currency, b.available, b.pending, b.locked]));
  });

  it('names the network money came in on: an Ethereum deposit’s line says ethereum', async () => {
    const owner = await signedUpOwner(api.runtime, 'Networks Statement Co');
    await creditAvailable(api.db, api.runtime.tableName, owner.companyId, 'USDT', '7', 'ethereum');

    const downloaded = await statement(owner, owner.companyId, { from: today(), to: today() });

    expect(rows(downloaded.text).filter((row) => row[0] === 'entry').map((row) => [row[4], row[5], row[11]])).toEqual([['USDT', '7.000000', 'ethereum']]);
  });

  it('opens a later period where the earlier one closed, and leaves out what came after it', async () => {
    const owner = await signedUpOwner(api.runtime, 'Periods Co');
    await creditAvailable(api.db, api.runtime.tableName, owner.companyId, 'USDT', '25.5');

    const before = await statement(owner, owner.companyId, { from: daysAgo(3), to: daysAgo(1) });
    const todays = await statement(owner, owner.companyId, { from: today(), to: today() });

    expect(rows(before.text).map((row) => row[0])).toEqual(['opening', 'opening', 'closing', 'closing']);
    expect(rows(before.text).every((row) => row.slice(8, 11).every((amount) => /^0\.0+$/.test(amount)))).toBe(true);
    expect(rows(todays.text).filter((row) => row[0] === 'closing' && row[4] === 'USDT').map((row) => row.slice(8, 11))).toEqual([['25.500000', '0.000000', '0.000000']]);
  });

  it.each([
    ['no days', {}, ['from', 'to']],
    ['a day that is not one', { from: '2026-02-30', to: today() }, ['from']],
    ['to before from', { from: today(), to: daysAgo(1) }, ['to']],
    ['more than 366 days', { from: daysAgo(400), to: today() }, ['to']],
    ['a period in the future', { from: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10), to: new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10) }, ['from']],
  ])('refuses %s with 400 in the envelope, before any CSV', async (_case, query, paths) => {
    const owner = await signedUpOwner(api.runtime, 'Refused Statement Co');

    const refused = await statement(owner, owner.companyId, query as Record<string, string>);

    expect(refused.status).toBe(400);
    const body = JSON.parse(refused.text);
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.details.map((detail: { path: string }) => detail.path)).toEqual(paths);
  });

  it('is another company’s: not found', async () => {
    const mine = await signedUpOwner(api.runtime, 'Mine Co');
    const theirs = await signedUpOwner(api.runtime, 'Theirs Co');

    expect((await statement(mine, theirs.companyId, { from: today(), to: today() })).status).toBe(404);
  });
});
