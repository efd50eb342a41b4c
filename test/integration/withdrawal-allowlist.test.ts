import { describe, expect, it } from 'vitest';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { MAX_ALLOWED_ADDRESSES } from '#functions/withdrawals/withdrawal-allowlist';
import { toChecksumAddress } from '#functions/networks/evm/evm-address';
import { EVM_NETWORK_NAMES } from '#functions/networks/names';
import { EVM_NETWORKS } from '#functions/networks/evm/networks';
import { apiClient, useTestApi } from '../support/local-api.ts';
import { ETHEREUM_WITHOUT_NODE } from '../support/deposit-settings.ts';
import { companyItems, invitedMember, signedUpOwner, STRONG_PASSWORD } from '../support/dashboard.ts';
import { creditAvailable, expectLedgerMatchesBalances } from '../support/money.ts';
import { mailsTo } from '../support/outbox.ts';

/**
 * The withdrawal allowlist through real sockets against the local runtime (its waiting period is 0
 * there): the dashboard turns it on and lists addresses; /v1 then refuses a withdrawal or a deposit
 * split to any other address with 422 ADDRESS_NOT_ALLOWED and writes nothing. An entry is an
 * address on one network, in the network's canonical form. A Developer, who holds API keys, cannot
 * change it. The stage opens the four EVM networks too; nothing here reads a chain.
 */
const evmNetworks = Object.fromEntries(EVM_NETWORK_NAMES.map((network) => [network, { ...ETHEREUM_WITHOUT_NODE, chainId: EVM_NETWORKS[network].chainId }]));
const api = useTestApi(undefined, { environment: { EVM_NETWORKS: JSON.stringify(evmNetworks) } });

const payout = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 9_001);
const stranger = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 9_002);

/** A signed-up Owner with 100 USDT available and an API key for /v1. */
async function fundedCompany(name: string) {
  const owner = await signedUpOwner(api.runtime, name);
  const { apiKey, apiSecret } = (await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'Payouts', password: STRONG_PASSWORD } })).body.data;
  await creditAvailable(api.db, api.runtime.tableName, owner.companyId, 'USDT', '100');
  const v1 = apiClient(api.runtime, { apiKey, apiSecret });
  const allowlist = (method: string, path = '', body?: unknown) => owner.browser.call(method, `/companies/${owner.companyId}/withdrawal-allowlist${path}`, body === undefined ? {} : { body });
  return { ...owner, v1, allowlist };
}

const withdrawal = (reference: string, address: string, network = 'tron') => ({ body: { method: 'usdt', network, address, amount: '10', reference } });

async function usdtAvailable(v1: ReturnType<typeof apiClient>) {
  const balances = (await v1('GET', '/company/balance')).body.data.balances as { currency: string; available: string; locked: string }[];
  return balances.find((b) => b.currency === 'USDT');
}

describe('the withdrawal allowlist', () => {
  it('is off until turned on; then only listed addresses receive withdrawals, and a refusal writes nothing', async () => {
    const company = await fundedCompany('Allowlist Co');
    expect((await company.allowlist('GET')).body.data).toEqual({ enabled: false, turnsOffAt: null, delayHours: 0, addresses: [], limit: MAX_ALLOWED_ADDRESSES });
    expect((await company.v1('POST', '/withdrawals', withdrawal('before', stranger))).status).toBe(201);

    const on = await company.allowlist('PUT', '', { enabled: true });
    expect(on.status).toBe(200);
    expect(on.body.data.enabled).toBe(true);
    const before = await companyItems(api.db, api.runtime, company.companyId);
    const refused = await company.v1('POST', '/withdrawals', withdrawal('to-stranger', stranger));
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'ADDRESS_NOT_ALLOWED', details: { field: 'address', address: stranger } });
    // Nothing written: no withdrawal, no hold, no reference claimed.
    expect(await companyItems(api.db, api.runtime, company.companyId)).toEqual(before);

    const added = await company.allowlist('POST', '/addresses', { network: 'tron', address: payout, label: 'Treasury' });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ network: 'tron', address: payout, label: 'Treasury', addedBy: company.email, active: true });
    const sent = await company.v1('POST', '/withdrawals', withdrawal('to-payout', payout));
    expect(sent.status).toBe(201);
    expect(sent.body.data.address).toBe(payout);
    // The reference the refused attempt did not consume is free for the listed address.
    expect((await company.v1('POST', '/withdrawals', withdrawal('to-stranger', payout))).status).toBe(201);

    expect((await company.allowlist('DELETE', `/addresses/${payout}?network=tron`)).status).toBe(200);
    expect((await company.v1('POST', '/withdrawals', withdrawal('after-removal', payout))).body.error.code).toBe('ADDRESS_NOT_ALLOWED');
    expect((await company.allowlist('DELETE', `/addresses/${payout}?network=tron`)).status).toBe(404);

    // With no waiting period, a turn-off is immediate.
    const off = await company.allowlist('PUT', '', { enabled: false });
    expect(off.body.data).toMatchObject({ enabled: false, turnsOffAt: null });
    expect((await company.v1('POST', '/withdrawals', withdrawal('after-off', stranger))).status).toBe(201);

    expect(await usdtAvailable(company.v1)).toMatchObject({ available: '56.000000', locked: '44.000000' });
    await expectLedgerMatchesBalances(api.db, api.runtime.tableName, company.companyId);
    const actions = ((await company.browser.call('GET', `/companies/${company.companyId}/audit-log`)).body.data as { action: string }[]).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['withdrawal_allowlist.enabled', 'withdrawal_address.added', 'withdrawal_address.removed', 'withdrawal_allowlist.disabled']));
  });

  it("holds a new deposit's split address to the same list", async () => {
    const company = await fundedCompany('Split Co');
    await company.allowlist('PUT', '', { enabled: true });
    await company.allowlist('POST', '/addresses', { network: 'tron', address: payout, label: 'Partner' });
    const deposit = (reference: string, address: string) => ({ body: { method: 'usdt', network: 'tron', reference, split: { address, percent: 10 } } });

    const refused = await company.v1('POST', '/deposits', deposit('split-stranger', stranger));
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'ADDRESS_NOT_ALLOWED', details: { field: 'split.address', address: stranger } });
    const made = await company.v1('POST', '/deposits', deposit('split-partner', payout));
    expect(made.status).toBe(201);
    expect(made.body.data.split.address).toBe(payout);
    // A deposit without a split is not the allowlist's business.
    expect((await company.v1('POST', '/deposits', { body: { method: 'usdt', network: 'tron', reference: 'plain' } })).status).toBe(201);
  });

  it('mails Owners and Admins when an address is added, and refuses what is no address of the chosen network (a `0x…` address on TRON) or is listed already', async () => {
    const company = await fundedCompany('Mailed Co');
    const bad = await company.allowlist('POST', '/addresses', { network: 'tron', address: '0x52908400098527886E0F7030069857D2E4169EE7', label: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['address', 'label']);
    expect(bad.body.error.details.find((d: { path: string }) => d.path === 'address').message).toBe('must be an address of TRON (base58check, starting with T)');
    const noNetwork = await company.allowlist('POST', '/addresses', { address: payout, label: 'No network' });
    expect(noNetwork.status).toBe(400);
    expect(noNetwork.body.error.details.map((d: { path: string }) => d.path)).toEqual(['network']);

    expect((await company.allowlist('POST', '/addresses', { network: 'tron', address: payout, label: 'Exchange account' })).status).toBe(201);
    const again = await company.allowlist('POST', '/addresses', { network: 'tron', address: payout, label: 'Twice' });
    expect(again.status).toBe(400);
    expect(again.body.error.details).toEqual([{ path: 'address', message: 'is on the withdrawal allowlist for tron already' }]);

    // After the mail of the test's own API key.
    const [keyMail, mail] = mailsTo(api.runtime.outboxDir, company.email);
    expect(keyMail?.subject).toBe('New API key for Mailed Co');
    expect(mail?.subject).toBe('Withdrawal address added to Mailed Co');
    expect(mail?.text).toContain(`${payout} on TRON`);
    expect(mail?.text).toContain('Exchange account');
    expect((await company.allowlist('GET')).body.data.addresses).toEqual([expect.objectContaining({ network: 'tron', address: payout, label: 'Exchange account', active: true })]);
  });

  it('keeps an entry per network in its canonical form: letter cases of an EVM address are one entry, and an entry on Ethereum allows nothing on Polygon', async () => {
    const company = await fundedCompany('Per Network Co');
    await creditAvailable(api.db, api.runtime.tableName, company.companyId, 'USDT', '100', 'ethereum');
    await creditAvailable(api.db, api.runtime.tableName, company.companyId, 'USDT', '100', 'polygon');
    await company.allowlist('PUT', '', { enabled: true });
    const lower = '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359';
    const checksummed = toChecksumAddress(lower);

    const added = await company.allowlist('POST', '/addresses', { network: 'ethereum', address: lower, label: 'Exchange' });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ network: 'ethereum', address: checksummed });
    // The EIP-55 form, and all upper case, are the same entry.
    for (const form of [checksummed, `0x${lower.slice(2).toUpperCase()}`]) {
      const twice = await company.allowlist('POST', '/addresses', { network: 'ethereum', address: form, label: 'Exchange again' });
      expect(twice.status, form).toBe(400);
      expect(twice.body.error.details, form).toEqual([{ path: 'address', message: 'is on the withdrawal allowlist for ethereum already' }]);
    }
    // A mixed-case address whose checksum fails is a typo, refused before anything is listed.
    const letter = checksummed.slice(2).search(/[a-fA-F]/) + 2;
    const flipped = checksummed[letter] === checksummed[letter]!.toUpperCase() ? checksummed[letter]!.toLowerCase() : checksummed[letter]!.toUpperCase();
    const typo = checksummed.slice(0, letter) + flipped + checksummed.slice(letter + 1);
    expect((await company.allowlist('POST', '/addresses', { network: 'ethereum', address: typo, label: 'Typo' })).status).toBe(400);

    // Ethereum pays it in any letter case; Polygon, where it is not listed, does not, and writes nothing.
    expect((await company.v1('POST', '/withdrawals', withdrawal('eth-lower', lower, 'ethereum'))).status).toBe(201);
    expect((await company.v1('POST', '/withdrawals', withdrawal('eth-checksummed', checksummed, 'ethereum'))).status).toBe(201);
    const before = await companyItems(api.db, api.runtime, company.companyId);
    const onPolygon = await company.v1('POST', '/withdrawals', withdrawal('polygon', checksummed, 'polygon'));
    expect(onPolygon.status).toBe(422);
    expect(onPolygon.body.error).toMatchObject({ code: 'ADDRESS_NOT_ALLOWED', details: { field: 'address', address: checksummed } });
    expect(await companyItems(api.db, api.runtime, company.companyId)).toEqual(before);

    // Listed on Polygon as well, it is a second entry; removing Ethereum's (in another letter case) leaves Polygon's.
    expect((await company.allowlist('POST', '/addresses', { network: 'polygon', address: checksummed, label: 'Exchange on Polygon' })).status).toBe(201);
    expect((await company.v1('POST', '/withdrawals', withdrawal('polygon-listed', lower, 'polygon'))).status).toBe(201);
    expect((await company.allowlist('GET')).body.data.addresses.map((entry: { network: string; address: string }) => [entry.network, entry.address]).sort()).toEqual([
      ['ethereum', checksummed],
      ['polygon', checksummed],
    ]);
    expect((await company.allowlist('DELETE', `/addresses/${lower}?network=ethereum`)).status).toBe(200);
    expect((await company.v1('POST', '/withdrawals', withdrawal('eth-removed', checksummed, 'ethereum'))).body.error.code).toBe('ADDRESS_NOT_ALLOWED');
    expect((await company.v1('POST', '/withdrawals', withdrawal('polygon-kept', checksummed, 'polygon'))).status).toBe(201);
  });

  it('may be read by every role and changed only by Owners and Admins, not by a Developer who holds the keys', async () => {
    const company = await fundedCompany('Roles Co');
    const member = async (role: string) => {
      const { browser } = await invitedMember(api.runtime, company.browser, company.companyId, role);
      return (method: string, path = '', body?: unknown) => browser.call(method, `/companies/${company.companyId}/withdrawal-allowlist${path}`, body === undefined ? {} : { body });
    };
    const developer = await member('Developer');
    const admin = await member('Admin');

    expect((await developer('GET')).status).toBe(200);
    expect((await developer('PUT', '', { enabled: true })).status).toBe(403);
    expect((await developer('POST', '/addresses', { network: 'tron', address: payout, label: 'Mine' })).status).toBe(403);
    expect((await admin('POST', '/addresses', { network: 'tron', address: payout, label: 'Ops wallet' })).status).toBe(201);
    expect((await developer('DELETE', `/addresses/${payout}?network=tron`)).status).toBe(403);
    expect((await developer('GET')).body.data.addresses).toHaveLength(1);
  });

  it(`allows at most ${MAX_ALLOWED_ADDRESSES} addresses, even when they are added at once`, async () => {
    const company = await fundedCompany('Many Co');
    const answers = await Promise.all(
      Array.from({ length: MAX_ALLOWED_ADDRESSES + 5 }, (_, i) => company.allowlist('POST', '/addresses', { network: 'tron', address: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 20_000 + i), label: `Wallet ${i}` })),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(MAX_ALLOWED_ADDRESSES);
    expect(answers.filter((answer) => answer.status !== 201).map((answer) => answer.body.error.code)).toEqual(Array(5).fill('LIMIT_REACHED'));
    expect((await company.allowlist('GET')).body.data.addresses).toHaveLength(MAX_ALLOWED_ADDRESSES);
  }, 60_000);
});
