import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { createDeposit, depositView, getDeposit, type Deposit } from '#functions/deposits/deposits';
import type { DepositHolds } from '#functions/deposits/deposit-chain';
import { confirmDeposits } from '#functions/deposits/deposit-confirmation';
import { requestWithdrawal, getWithdrawal } from '#functions/withdrawals/withdrawals';
import { sendWithdrawals } from '#functions/networks/tron/withdrawal-sending';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { ScreeningListNotLoaded } from '#functions/screening/screening-list';
import { screeningListOf } from '#adapters/dynamo/screening-store';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { LocalKeySigner } from '#adapters/signer/local-key-signer';
import { loadDefaultScreeningLists } from '#local/screening-defaults';
import { checkStage } from '../../ops/stage-check.ts';
import { newCompany, useTestApi } from '../support/local-api.ts';
import { companyItems, signedUpOwner } from '../support/dashboard.ts';
import { useTableWithoutScreening } from '../support/dynamo.ts';
import { TRON_DEPOSIT_SETTINGS } from '../support/deposit-settings.ts';
import { creditAvailable, usdt, WITHDRAWAL_RULES } from '../support/money.ts';
import { BLOCK_MS, ChainClock, HOT_WALLET_KEY, sandboxChainOver, sandboxSending, USDT } from '../support/sandbox-chain-jobs.ts';
import { sandboxDepositJobs } from '../support/sandbox-deposit-jobs.ts';

/**
 * A stage whose sanctions screening list has never been loaded (README, Screening): a deployed
 * stage before the screening refresh job's first import of OFAC's list, or one whose downloads keep
 * failing. An address missing from an empty list says nothing of it, so screening fails closed:
 * a withdrawal, a deposit's split and an allowlist entry are refused 503 SCREENING_UNAVAILABLE with
 * nothing written, a deposit's final transfer waits `confirming` rather than be credited, and the
 * sender signs nothing; `npm run stage:check` names the empty list. Once the list is loaded, all of
 * it goes on at once. The local runtime here skips the shipped snapshot that `npm start` loads.
 */
const api = useTestApi(undefined, { screeningDefaults: false });

// Off the list once it is loaded; one of OFAC's TRON addresses (the shipped snapshot) to pay from.
const UNLISTED_TRX = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 9_778);
const SANCTIONED_TRX = readFileSync(join(import.meta.dirname, '../../config/screening/sanctioned_TRX.txt'), 'utf8').split('\n')[7]!.trim();

const unavailable = {
  code: 'SCREENING_UNAVAILABLE',
  message: 'Sanctions screening is not available yet: no address is accepted until it is; retry later',
  details: null,
};
const withdrawal = (address: string, reference = `w-${Math.random()}`) => ({ body: { method: 'usdt', network: 'tron', address, amount: '10', reference } });

describe('before the screening list is loaded', () => {
  it('a withdrawal to any address is refused 503 SCREENING_UNAVAILABLE in the envelope, and nothing is written', async () => {
    const { companyId, call } = await newCompany(api.runtime, 'Unscreened Payer');
    await creditAvailable(api.db, api.runtime.tableName, companyId, 'USDT', '100');
    const before = await companyItems(api.db, api.runtime, companyId);

    const refused = await call('POST', '/withdrawals', withdrawal(UNLISTED_TRX));

    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ success: false, error: unavailable });
    expect(await companyItems(api.db, api.runtime, companyId)).toEqual(before);
  });

  it('a deposit with a split is refused the same way; one without a split is made', async () => {
    const { companyId, call } = await newCompany(api.runtime, 'Unscreened Split');
    const before = await companyItems(api.db, api.runtime, companyId);

    const refused = await call('POST', '/deposits', { body: { method: 'usdt', network: 'tron', reference: 'with-split', split: { address: UNLISTED_TRX, percent: 10 } } });
    expect(refused.status).toBe(503);
    expect(refused.body.error).toEqual(unavailable);
    expect(await companyItems(api.db, api.runtime, companyId)).toEqual(before);

    expect((await call('POST', '/deposits', { body: { method: 'usdt', network: 'tron', reference: 'no-split' } })).status).toBe(201);
  });

  it('an address added to the withdrawal allowlist (dashboard) is refused the same way, nothing listed', async () => {
    const owner = await signedUpOwner(api.runtime, 'Unscreened Allowlist');
    const before = await companyItems(api.db, api.runtime, owner.companyId);

    const refused = await owner.browser.call('POST', `/companies/${owner.companyId}/withdrawal-allowlist/addresses`, { body: { network: 'tron', address: UNLISTED_TRX, label: 'Supplier' } });

    expect(refused.status).toBe(503);
    expect(refused.body.error).toEqual(unavailable);
    expect(await companyItems(api.db, api.runtime, owner.companyId)).toEqual(before);
  });

  it('npm run stage:check reports the empty list', async () => {
    const { credentials } = await newCompany(api.runtime, 'Checked Unscreened');

    const results = await checkStage({ apiUrl: api.runtime.apiUrl, ...credentials });

    expect(results.filter((result) => !result.ok)).toEqual([
      {
        name: "the sanctions screening list is loaded: a withdrawal to an address on OFAC's list is refused as sanctioned",
        ok: false,
        detail: "the screening list is empty, never loaded: withdrawals, splits and allowlist entries answer 503 and no deposit is credited until OFAC's list is imported (README, Screening)",
      },
    ]);
  });
});

describe('once the screening list is loaded', () => {
  it('takes a withdrawal at once, and refuses one to a listed address as sanctioned', async () => {
    const { companyId, call } = await newCompany(api.runtime, 'Screened Later');
    await creditAvailable(api.db, api.runtime.tableName, companyId, 'USDT', '100');
    expect((await call('POST', '/withdrawals', withdrawal(UNLISTED_TRX))).status).toBe(503);

    await loadDefaultScreeningLists(api.runtime.dynamoEndpoint, api.runtime.tableName);

    expect((await call('POST', '/withdrawals', withdrawal(UNLISTED_TRX))).status).toBe(201);
    const refused = await call('POST', '/withdrawals', withdrawal(SANCTIONED_TRX));
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual({ field: 'address', address: SANCTIONED_TRX, reason: 'sanctioned' });
  });
});

describe('the chain jobs on a table whose list was never loaded', () => {
  const env = useTableWithoutScreening();
  const clock = new ChainClock('2026-12-01T00:00:00.000Z', BLOCK_MS);
  const chain = sandboxChainOver(env, clock);
  const companies = new DynamoCompanyStore(env.db, env.tableName);
  // The poller's reads, as deposit-poller.ts wires them: the sanctions list from the table.
  const holds: DepositHolds = {
    frozenAddresses: (addresses) => chain.frozenAmong(USDT, addresses),
    sanctioned: (addresses) => screeningListOf(env.db, env.tableName).listed('tron', addresses),
    usdtAt: (addresses) => chain.usdtBalances(USDT, addresses),
  };
  const { deps, scan } = sandboxDepositJobs(env, clock, chain, { holds });
  const deposits = new DynamoDepositStore(env.db, env.tableName);

  it('credit no deposit: a final transfer waits confirming (the run fails, naming the list), and is credited or held once the list is loaded', async () => {
    clock.advanceBlocks(100);
    await scan();
    const { company } = await createCompany(companies, { name: 'Paid Unscreened', environment: 'sandbox' }, clock.now());
    const newDeposit = () => createDeposit(deposits, TRON_DEPOSIT_SETTINGS, company.id, { network: 'tron', reference: `ref-${Math.random()}` }, clock.now());
    const [clean, fromSanctioned] = [await newDeposit(), await newDeposit()];
    await chain.submitTransfer({ contract: USDT, from: UNLISTED_TRX, to: clean.address, amount: usdt('4') });
    await chain.submitTransfer({ contract: USDT, from: SANCTIONED_TRX, to: fromSanctioned.address, amount: usdt('6') });
    clock.advanceBlocks(20);
    await scan();
    const read = (deposit: Deposit) => getDeposit(deposits, company.id, deposit.id);

    await expect(confirmDeposits(deps())).rejects.toThrow(ScreeningListNotLoaded);
    for (const deposit of [clean, fromSanctioned]) expect((await read(deposit)).status).toBe('confirming');
    expect(await usdtOf(companies, company.id)).toMatchObject({ available: 0n, pending: usdt('10'), held: 0n });

    await loadDefaultScreeningLists(env.endpoint, env.tableName);
    expect(await confirmDeposits(deps())).toMatchObject({ confirmed: 1, held: 1 });
    expect(depositView(await read(clean))).toMatchObject({ status: 'completed', creditedAmount: '4.000000' });
    expect(depositView(await read(fromSanctioned))).toMatchObject({ status: 'held', holdReason: 'sender_sanctioned', creditedAmount: '0.000000' });
  });
});

describe('the withdrawal sender on a table whose list was never loaded', () => {
  const env = useTableWithoutScreening();
  const clock = new ChainClock('2026-12-02T00:00:00.000Z', BLOCK_MS);
  const chain = sandboxChainOver(env, clock);
  const companies = new DynamoCompanyStore(env.db, env.tableName);

  it('signs nothing: the run fails naming the list, and the withdrawal stays pending with its funds locked', async () => {
    const { company } = await createCompany(companies, { name: 'Sent Unscreened', environment: 'sandbox' }, clock.now());
    await creditAvailable(env.db, env.tableName, company.id, 'USDT', '50');
    // Made as if screened (a withdrawal accepted before: the table's list cannot be emptied, only never loaded).
    const screenedAsClean = Object.assign(Object.create(new DynamoWithdrawalStore(env.db, env.tableName)) as DynamoWithdrawalStore, { listed: async () => new Set<string>() });
    const pending = await requestWithdrawal(screenedAsClean, WITHDRAWAL_RULES, company.id, { reference: 'unscreened', address: UNLISTED_TRX, amount: usdt('10') }, clock.now());

    await expect(sendWithdrawals(sandboxSending(env, chain, new LocalKeySigner(HOT_WALLET_KEY), clock))).rejects.toThrow(ScreeningListNotLoaded);

    expect(await getWithdrawal(new DynamoWithdrawalStore(env.db, env.tableName), company.id, pending.id)).toMatchObject({ status: 'pending', txHash: null });
    expect(await usdtOf(companies, company.id)).toMatchObject({ available: usdt('39'), locked: usdt('11') });
  });
});

async function usdtOf(companies: DynamoCompanyStore, companyId: string) {
  return (await companies.getBalances(companyId)).find((row) => row.currency === 'USDT')!;
}
