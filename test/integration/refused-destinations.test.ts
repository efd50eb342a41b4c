import { describe, expect, it } from 'vitest';
import { addressIndexCounterItem } from '#adapters/dynamo/items/deposit-address';
import { cambioAddressItem } from '#adapters/dynamo/items/cambio-address';
import { cambioAddressesOf, NOT_CAMBIO_FOR_MS } from '#adapters/dynamo/cambio-address-store';
import { readItem } from '#adapters/dynamo/queries';
import { LocalKeySigner } from '#adapters/signer/local-key-signer';
import { localEvmSigner } from '#functions/networks/evm/signer';
import { toChecksumAddress } from '#functions/networks/evm/evm-address';
import { EVM_NETWORKS } from '#functions/networks/evm/networks';
import { EVM_NETWORK_NAMES, type NetworkName } from '#functions/networks/names';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress, tronAddressFromHex, tronAddressToHex } from '#functions/networks/tron/tron-address';
import { STAGES } from '../../config/stages.ts';
import { apiClient, newCompany, useTestApi } from '../support/local-api.ts';
import { companyItems, signedUpOwner, STRONG_PASSWORD } from '../support/dashboard.ts';
import { ETHEREUM_WITHOUT_NODE } from '../support/deposit-settings.ts';
import { creditAvailable, expectLedgerMatchesBalances } from '../support/money.ts';

/**
 * Destinations Cambio refuses (../shared/networks.md, "Addresses Cambio refuses as a destination";
 * functions/withdrawals/refused-destinations.ts), through the API over real sockets: a withdrawal, a
 * deposit's split, New withdrawal on the dashboard and an allowlist entry to Cambio's own address
 * (a hot wallet, a deposit address on this network or another, in either form), to a token contract
 * Cambio uses (USDT, the forwarder factory and implementation, an upgraded USDT the sender learnt)
 * or to an address no one can spend from is 422 ADDRESS_NOT_ALLOWED with `details.reason`, and
 * nothing is written. The stage opens the four EVM networks with the same contracts; nothing here
 * reads a chain but the sandbox TRON chain.
 */
const evmNetworks = Object.fromEntries(EVM_NETWORK_NAMES.map((network) => [network, { ...ETHEREUM_WITHOUT_NODE, chainId: EVM_NETWORKS[network].chainId }]));
const api = useTestApi(undefined, { environment: { EVM_NETWORKS: JSON.stringify(evmNetworks) } });

const HOT_WALLET_KEY = STAGES.local.functionEnvironment.LOCAL_HOT_WALLET_KEY!;
const TRON_USDT = STAGES.local.functionEnvironment.USDT_CONTRACT;
const { usdtContract: EVM_USDT, forwarderFactory: FACTORY, forwarderImplementation: IMPLEMENTATION } = ETHEREUM_WITHOUT_NODE;
const PAYEE_TRX = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 9_555);
const PAYEE_ETH = '0x52908400098527886E0F7030069857D2E4169EE7';
/** The same 20 bytes in the other form: a TRON address's `0x…` twin, an EVM address's `T…` one. */
const evmTwinOf = (tron: string) => toChecksumAddress(`0x${tronAddressToHex(tron).slice(2)}`);
const tronTwinOf = (evm: string) => tronAddressFromHex(evm);
const word = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

type Reason = 'cambio_address' | 'token_contract' | 'unspendable';
const refusal = (field: string, address: string, reason: Reason) => ({ code: 'ADDRESS_NOT_ALLOWED', message: expect.any(String), details: { field, address, reason } });

const withdrawal = (network: NetworkName, address: string) => ({ body: { method: 'usdt', network, address, amount: '10', reference: `w-${Math.random()}` } });
const deposit = (network: NetworkName, split?: string) => ({ body: { method: 'usdt', network, reference: `d-${Math.random()}`, ...(split && { split: { address: split, percent: 10 } }) } });

/** A company with 100 USDT available on each network. */
async function fundedCompany(name: string) {
  const company = await newCompany(api.runtime, name);
  for (const network of ['tron', ...EVM_NETWORK_NAMES] as const) await creditAvailable(api.db, api.runtime.tableName, company.companyId, 'USDT', '100', network);
  return company;
}
const usdt = async (call: ReturnType<typeof apiClient>) => (await call('GET', '/company/balance')).body.data.balances.find((row: { currency: string }) => row.currency === 'USDT');

/** Cambio's deposit addresses, made by another company: one on TRON and one on Ethereum. */
async function depositAddresses() {
  const { call } = await newCompany(api.runtime, 'Depositor');
  const onTron = (await call('POST', '/deposits', deposit('tron'))).body.data.address as string;
  const onEthereum = (await call('POST', '/deposits', deposit('ethereum'))).body.data.address as string;
  return { onTron, onEthereum };
}

/** Every destination Cambio refuses, by the network it is asked on: [what it is, network, address, reason]. */
async function refusedDestinations(): Promise<[string, NetworkName, string, Reason][]> {
  const tronHotWallet = await new LocalKeySigner(HOT_WALLET_KEY).address();
  const evmHotWallet = await localEvmSigner(HOT_WALLET_KEY).address();
  const { onTron, onEthereum } = await depositAddresses();
  return [
    ["TRON's hot wallet", 'tron', tronHotWallet, 'cambio_address'],
    ["Ethereum's hot wallet, in lower case", 'ethereum', evmHotWallet.toLowerCase(), 'cambio_address'],
    ['a TRON deposit address, on TRON', 'tron', onTron, 'cambio_address'],
    ["a TRON deposit address's 0x twin, on BNB Smart Chain", 'bsc', evmTwinOf(onTron), 'cambio_address'],
    ['an Ethereum deposit address, on Ethereum', 'ethereum', onEthereum, 'cambio_address'],
    ['an Ethereum deposit address, on Polygon', 'polygon', onEthereum, 'cambio_address'],
    ["an Ethereum deposit address's T twin, on TRON", 'tron', tronTwinOf(onEthereum), 'cambio_address'],
    ["TRON's USDT", 'tron', TRON_USDT, 'token_contract'],
    ["Ethereum's USDT", 'ethereum', EVM_USDT, 'token_contract'],
    ["Arbitrum's USDT, in lower case", 'arbitrum', EVM_USDT.toLowerCase(), 'token_contract'],
    ["Polygon's forwarder factory", 'polygon', FACTORY, 'token_contract'],
    ["BNB Smart Chain's forwarder implementation", 'bsc', IMPLEMENTATION, 'token_contract'],
    ['the zero address', 'ethereum', word(0), 'unspendable'],
    ['0x…dEaD', 'bsc', '0x000000000000000000000000000000000000dEaD', 'unspendable'],
    ['the first precompile (ecrecover)', 'polygon', word(1), 'unspendable'],
    ['the tenth precompile (point evaluation)', 'arbitrum', word(10), 'unspendable'],
    ["TRON's zero address", 'tron', 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb', 'unspendable'],
    ['a BLS12-381 precompile (EIP-2537, 0x…0b)', 'ethereum', word(0x0b), 'unspendable'],
    ["Arbitrum's ArbSys (0x…64)", 'arbitrum', word(0x64), 'unspendable'],
    ["BNB Smart Chain's validator set contract (0x…1000)", 'bsc', word(0x1000), 'unspendable'],
    ["a TRON precompile (0x…01000001, batchvalidatesign's)", 'tron', tronTwinOf(word(0x01000001)), 'unspendable'],
  ];
}

describe('POST /v1/withdrawals to a destination Cambio refuses', () => {
  it('is 422 ADDRESS_NOT_ALLOWED with its reason, for every reason, and writes nothing', async () => {
    const { companyId, call } = await fundedCompany('Refused Payouts');
    const cases = await refusedDestinations();
    const before = await companyItems(api.db, api.runtime, companyId);
    const balance = await usdt(call);

    for (const [what, network, address, reason] of cases) {
      const refused = await call('POST', '/withdrawals', withdrawal(network, address));
      expect(refused.status, what).toBe(422);
      expect(refused.body.error, what).toEqual(refusal('address', address, reason));
    }
    // No withdrawal, no hold, no reference, no ledger entry.
    expect(await companyItems(api.db, api.runtime, companyId)).toEqual(before);
    expect(await usdt(call)).toEqual(balance);
  });

  it('refuses a token contract the withdrawal sender learnt (the TRON USDT it reads, an upgraded USDT) on its network only', async () => {
    const { companyId, call } = await fundedCompany('Upgraded Token');
    // The sender records the contracts USDT lives in as it reads them (here TRON's, from the sandbox chain).
    const { sendAndSettleWithdrawals } = await import('#functions/handlers/jobs/withdrawal-sender');
    await sendAndSettleWithdrawals(undefined, undefined, 'tron');
    expect(cambioAddressItem.holdingsOf((await readItem(api.db, api.runtime.tableName, cambioAddressItem.key(TRON_USDT)))!)).toContainEqual({ role: 'token_contract', network: 'tron' });
    // Tether's upgraded contract on Ethereum, as the sender records it once the stage's is deprecated.
    const upgraded = '0x1111111111111111111111111111111111111111';
    await cambioAddressesOf(api.db, api.runtime.tableName).record(upgraded, { role: 'token_contract', network: 'ethereum' });
    const before = await companyItems(api.db, api.runtime, companyId);

    const refused = await call('POST', '/withdrawals', withdrawal('ethereum', upgraded));
    expect(refused.status).toBe(422);
    expect(refused.body.error).toEqual(refusal('address', upgraded, 'token_contract'));
    expect(await companyItems(api.db, api.runtime, companyId)).toEqual(before);
    // Not a contract of Polygon's: an ordinary payee there.
    expect((await call('POST', '/withdrawals', withdrawal('polygon', upgraded))).status).toBe(201);
  });

  it('pays an address that is none of them, on TRON and on an EVM network', async () => {
    const { companyId, call } = await fundedCompany('Ordinary Payees');
    expect((await call('POST', '/withdrawals', withdrawal('tron', PAYEE_TRX))).status).toBe(201);
    expect((await call('POST', '/withdrawals', withdrawal('ethereum', PAYEE_ETH))).status).toBe(201);
    await expectLedgerMatchesBalances(api.db, api.runtime.tableName, companyId);
  });
});

describe("Cambio's addresses as a container reads them", () => {
  it('reads an address once: a payee paid again costs no read for a minute, and what is Cambio’s stays so', async () => {
    let reads = 0;
    const db = Object.assign(Object.create(api.db) as typeof api.db, { send: (command: never) => (reads++, api.db.send(command)) });
    let clock = Date.parse('2026-11-28T12:00:00.000Z');
    const addresses = cambioAddressesOf(db, api.runtime.tableName, () => clock);
    // An address no other test meets, so the container has no answer for it yet.
    const address = '0x3333333333333333333333333333333333333333';
    const payee = [address, tronTwinOf(address)];

    expect(await addresses.holdingsAt(payee)).toEqual([]);
    expect(await addresses.holdingsAt(payee)).toEqual([]);
    expect(reads).toBe(1);
    clock += NOT_CAMBIO_FOR_MS;
    expect(await addresses.holdingsAt(payee)).toEqual([]);
    expect(reads).toBe(2);

    // Recorded (as an upgraded contract would be), it is Cambio's at once in this process, and for good.
    await addresses.record(address, { role: 'token_contract', network: 'arbitrum' });
    expect(await addresses.holdingsAt(payee)).toEqual([{ role: 'token_contract', network: 'arbitrum' }]);
    clock += 10 * NOT_CAMBIO_FOR_MS;
    expect(await addresses.holdingsAt(payee)).toEqual([{ role: 'token_contract', network: 'arbitrum' }]);
    expect(reads).toBe(4);
  });
});

describe('a deposit whose split forwards to a destination Cambio refuses', () => {
  it('is 422 on split.address with its reason; no deposit, and no address index taken', async () => {
    const { companyId, call } = await newCompany(api.runtime, 'Refused Splits');
    const cases = await refusedDestinations();
    const before = await companyItems(api.db, api.runtime, companyId);
    const counter = await readItem(api.db, api.runtime.tableName, addressIndexCounterItem.key());

    for (const [what, network, address, reason] of cases) {
      const refused = await call('POST', '/deposits', deposit(network, address));
      expect(refused.status, what).toBe(422);
      expect(refused.body.error, what).toEqual(refusal('split.address', address, reason));
    }
    expect(await companyItems(api.db, api.runtime, companyId)).toEqual(before);
    expect(await readItem(api.db, api.runtime.tableName, addressIndexCounterItem.key())).toEqual(counter);
  });
});

describe('the dashboard', () => {
  it('refuses New withdrawal to a destination Cambio refuses, writing nothing, not even an audit entry', async () => {
    const owner = await signedUpOwner(api.runtime, 'Refused Dashboard');
    for (const network of ['tron', 'ethereum'] as const) await creditAvailable(api.db, api.runtime.tableName, owner.companyId, 'USDT', '50', network);
    const { onTron } = await depositAddresses();
    const before = await companyItems(api.db, api.runtime, owner.companyId);

    for (const [network, address, reason] of [
      ['tron', onTron, 'cambio_address'],
      ['ethereum', EVM_USDT, 'token_contract'],
      ['ethereum', word(0), 'unspendable'],
    ] as const) {
      const refused = await owner.browser.call('POST', `/companies/${owner.companyId}/withdrawals`, {
        body: { password: STRONG_PASSWORD, network, address, amount: '5', reference: `to-${reason}` },
      });
      expect(refused.status, reason).toBe(422);
      expect(refused.body.error, reason).toEqual(refusal('address', address, reason));
    }
    expect(await companyItems(api.db, api.runtime, owner.companyId)).toEqual(before);
  });

  it('never lists a destination Cambio refuses on the withdrawal allowlist, writing nothing', async () => {
    const owner = await signedUpOwner(api.runtime, 'Refused Allowlist');
    const cases = await refusedDestinations();
    const before = await companyItems(api.db, api.runtime, owner.companyId);

    for (const [what, network, address, reason] of cases) {
      const refused = await owner.browser.call('POST', `/companies/${owner.companyId}/withdrawal-allowlist/addresses`, { body: { network, address, label: 'Mine' } });
      expect(refused.status, what).toBe(422);
      expect(refused.body.error, what).toEqual(refusal('address', address, reason));
    }
    // No entry, no count, no audit entry, no mail.
    expect(await companyItems(api.db, api.runtime, owner.companyId)).toEqual(before);
    expect((await owner.browser.call('GET', `/companies/${owner.companyId}/withdrawal-allowlist`)).body.data.addresses).toEqual([]);
  });
});
