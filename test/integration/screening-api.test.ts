import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addressIndexCounterItem } from '#adapters/dynamo/items/deposit-address';
import { readItem } from '#adapters/dynamo/queries';
import { toChecksumAddress } from '#functions/networks/evm/evm-address';
import { EVM_NETWORK_NAMES, type EvmNetworkName } from '#functions/networks/names';
import { EVM_NETWORKS } from '#functions/networks/evm/networks';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { apiClient, newCompany, useTestApi } from '../support/local-api.ts';
import { companyItems, signedUpOwner } from '../support/dashboard.ts';
import { ETHEREUM_WITHOUT_NODE } from '../support/deposit-settings.ts';
import { refusedNewWithdrawal } from '../support/dashboard-withdrawals.ts';
import { creditAvailable, expectLedgerMatchesBalances } from '../support/money.ts';

/**
 * Sanctions screening through the API over real sockets (README, Screening; ../shared/networks.md,
 * "Addresses Cambio refuses as a destination"): the local runtime loads the shipped OFAC snapshot
 * (config/screening/) as `npm start` does, and a withdrawal, a deposit's split or a withdrawal
 * allowlist entry to an address on it is refused with 422 ADDRESS_NOT_ALLOWED, `details.reason:
 * "sanctioned"`, in any letter case, on every network it is an address of, writing nothing. The
 * stage opens all four EVM networks; nothing here reads a chain, so their nodes lead nowhere.
 */
const evmNetworks = Object.fromEntries(EVM_NETWORK_NAMES.map((network) => [network, { ...ETHEREUM_WITHOUT_NODE, chainId: EVM_NETWORKS[network].chainId }]));
const api = useTestApi(undefined, { environment: { EVM_NETWORKS: JSON.stringify(evmNetworks) } });

const shipped = (file: string) =>
  readFileSync(join(import.meta.dirname, '../../config/screening', file), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
// One of OFAC's TRON addresses, and one of its Ethereum ones as OFAC publishes it (EIP-55).
const SANCTIONED_TRX = shipped('sanctioned_TRX.txt')[100]!;
const SANCTIONED_ETH = shipped('sanctioned_ETH_sample.txt')[3]!;
const CASES = {
  'lower case': SANCTIONED_ETH.toLowerCase(),
  'upper-case hex': `0x${SANCTIONED_ETH.slice(2).toUpperCase()}`,
  'EIP-55': toChecksumAddress(SANCTIONED_ETH),
} as const;
const UNLISTED_TRX = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 9_777);
const UNLISTED_ETH = '0x52908400098527886E0F7030069857D2E4169EE7';

const sanctioned = (field: string, address: string) => ({
  code: 'ADDRESS_NOT_ALLOWED',
  message: `${field} is on the sanctions screening list (OFAC SDN): Cambio sends nothing to it`,
  details: { field, address, reason: 'sanctioned' },
});

/** A company with 100 USDT available on `network`, and everything its partition holds then. */
async function fundedCompany(name: string, network: 'tron' | EvmNetworkName = 'tron') {
  const company = await newCompany(api.runtime, name);
  await creditAvailable(api.db, api.runtime.tableName, company.companyId, 'USDT', '100', network);
  return company;
}
const usdt = async (call: ReturnType<typeof apiClient>) => (await call('GET', '/company/balance')).body.data.balances.find((row: { currency: string }) => row.currency === 'USDT');
const withdrawal = (network: string, address: string, reference = `w-${Math.random()}`) => ({ body: { method: 'usdt', network, address, amount: '10', reference } });
const deposit = (network: string, address: string) => ({ body: { method: 'usdt', network, reference: `d-${Math.random()}`, split: { address, percent: 10 } } });

describe('a withdrawal to a sanctioned address', () => {
  it('on tron (one of OFAC’s TRX addresses) is refused 422 ADDRESS_NOT_ALLOWED, reason sanctioned, and nothing is written', async () => {
    const { companyId, call } = await fundedCompany('Screened TRON');
    const before = await companyItems(api.db, api.runtime, companyId);

    const refused = await call('POST', '/withdrawals', withdrawal('tron', SANCTIONED_TRX));
    expect(refused.status).toBe(422);
    expect(refused.body.error).toEqual(sanctioned('address', SANCTIONED_TRX));
    // No withdrawal, no hold, no reference claimed, no ledger entry: the company's partition as it was.
    expect(await companyItems(api.db, api.runtime, companyId)).toEqual(before);
    expect(await usdt(call)).toMatchObject({ available: '100.000000', locked: '0.000000' });
  });

  it.each(EVM_NETWORK_NAMES.flatMap((network) => Object.entries(CASES).map(([form, address]) => [network, form, address] as const)))(
    'on %s (OFAC’s ETH address, in %s) is refused the same way',
    async (network, _, address) => {
      const { companyId, call } = await fundedCompany(`Screened ${network}`, network);
      const before = await companyItems(api.db, api.runtime, companyId);

      const refused = await call('POST', '/withdrawals', withdrawal(network, address));
      expect(refused.status).toBe(422);
      expect(refused.body.error).toEqual(sanctioned('address', address));
      expect(await companyItems(api.db, api.runtime, companyId)).toEqual(before);
      expect(await usdt(call)).toMatchObject({ available: '100.000000', locked: '0.000000' });
    },
  );

  it('does not touch an address off the list: tron and an EVM network still pay out', async () => {
    const { companyId, call } = await fundedCompany('Unlisted Payee');
    expect((await call('POST', '/withdrawals', withdrawal('tron', UNLISTED_TRX))).status).toBe(201);
    await creditAvailable(api.db, api.runtime.tableName, companyId, 'USDT', '100', 'polygon');
    const onPolygon = await call('POST', '/withdrawals', withdrawal('polygon', UNLISTED_ETH));
    expect(onPolygon.status).toBe(201);
    expect(onPolygon.body.data).toMatchObject({ network: 'polygon', address: UNLISTED_ETH, status: 'pending' });
    await expectLedgerMatchesBalances(api.db, api.runtime.tableName, companyId);
  });

  it('sent from the dashboard (New withdrawal) is refused the same way, with no audit entry', async () => {
    const refused = await refusedNewWithdrawal(api, 'Screened Dashboard', { network: 'tron', address: SANCTIONED_TRX, amount: '5', reference: 'to-sanctioned' });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toEqual(sanctioned('address', SANCTIONED_TRX));
  });
});

describe("a deposit whose split forwards to a sanctioned address", () => {
  it.each<[string, string]>([['tron', SANCTIONED_TRX], ...EVM_NETWORK_NAMES.map((network): [string, string] => [network, CASES['lower case']]), ['arbitrum', CASES['upper-case hex']]])('on %s (%s) is refused 422 on split.address, reason sanctioned; no deposit, and no address index taken', async (network, address) => {
    const { companyId, call } = await newCompany(api.runtime, `Split ${network}`);
    const before = await companyItems(api.db, api.runtime, companyId);
    const counter = await readItem(api.db, api.runtime.tableName, addressIndexCounterItem.key());

    const refused = await call('POST', '/deposits', deposit(network, address));
    expect(refused.status).toBe(422);
    expect(refused.body.error).toEqual(sanctioned('split.address', address));
    expect(await companyItems(api.db, api.runtime, companyId)).toEqual(before);
    expect(await readItem(api.db, api.runtime.tableName, addressIndexCounterItem.key())).toEqual(counter);
  });

  it('is made when the split address is off the list', async () => {
    const { call } = await newCompany(api.runtime, 'Split Unlisted');
    const made = await call('POST', '/deposits', deposit('bsc', UNLISTED_ETH));
    expect(made.status).toBe(201);
    expect(made.body.data.split).toMatchObject({ address: UNLISTED_ETH, percent: 10 });
  });
});

describe('a sanctioned address on the withdrawal allowlist (dashboard, Integrations)', () => {
  it.each([
    ['a TRON address', 'tron', SANCTIONED_TRX],
    ["an EVM address in lower case", 'ethereum', CASES['lower case']],
    ['an EVM address in upper-case hex', 'polygon', CASES['upper-case hex']],
    ['an EVM address in EIP-55', 'arbitrum', CASES['EIP-55']],
  ])('is refused: %s (on %s), 422 on address, reason sanctioned, nothing listed and no audit entry', async (_, network, address) => {
    const owner = await signedUpOwner(api.runtime, 'Screened Allowlist');
    const before = await companyItems(api.db, api.runtime, owner.companyId);

    const refused = await owner.browser.call('POST', `/companies/${owner.companyId}/withdrawal-allowlist/addresses`, { body: { network, address, label: 'Supplier' } });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toEqual(sanctioned('address', address));
    expect(await companyItems(api.db, api.runtime, owner.companyId)).toEqual(before);
    expect((await owner.browser.call('GET', `/companies/${owner.companyId}/withdrawal-allowlist`)).body.data.addresses).toEqual([]);
  });

  it('takes an address off the list', async () => {
    const owner = await signedUpOwner(api.runtime, 'Allowlist Unlisted');
    const added = await owner.browser.call('POST', `/companies/${owner.companyId}/withdrawal-allowlist/addresses`, { body: { network: 'bsc', address: UNLISTED_ETH, label: 'Supplier' } });
    expect(added.status).toBe(201);
  });
});
