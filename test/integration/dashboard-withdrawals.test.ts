import { describe, expect, it } from 'vitest';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { apiClient, useTestApi } from '../support/local-api.ts';
import { companyItems, invitedMember, nextTotpCode, signedUpOwner, STRONG_PASSWORD } from '../support/dashboard.ts';
import { totpCode } from '#local/totp';
import { creditAvailable, expectLedgerMatchesBalances } from '../support/money.ts';

/**
 * Activity → Withdrawals → `New withdrawal` through the dashboard API against the local runtime:
 * the /v1 withdrawal made by a person, its audit entry in the same transaction (a refusal writes
 * neither), the minimum, fee and allowlist of /v1, and only Owners and Admins may send.
 */
const api = useTestApi();
const destination = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 9_401);

async function fundedOwner(name: string) {
  const owner = await signedUpOwner(api.runtime, name);
  await creditAvailable(api.db, api.runtime.tableName, owner.companyId, 'USDT', '50');
  // With the person's password again and the network chosen (TRON, the dialog's default), as the dialog sends them.
  const send = (body: object, browser = owner.browser) => browser.call('POST', `/companies/${owner.companyId}/withdrawals`, { body: { password: STRONG_PASSWORD, network: 'tron', ...body } });
  return { ...owner, send };
}

describe('a withdrawal sent from the dashboard', () => {
  it('is the /v1 withdrawal, held with its fee, audited with who sent it, and readable with an API key', async () => {
    const owner = await fundedOwner('Payout Co');
    const sent = await owner.send({ address: destination, amount: '12.5', reference: 'dashboard-payout-1' });
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({ id: expect.stringMatching(/^wdr_/), address: destination, amount: '12.500000', fee: '1.000000', reference: 'dashboard-payout-1', status: 'pending' });

    const { apiKey, apiSecret } = (await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'Reader', access: 'read' } })).body.data;
    const v1 = apiClient(api.runtime, { apiKey, apiSecret });
    expect((await v1('GET', `/withdrawals/${sent.body.data.id}`)).body.data).toEqual(sent.body.data);
    const balance = (await v1('GET', '/company/balance')).body.data.balances.find((b: { currency: string }) => b.currency === 'USDT');
    expect(balance).toMatchObject({ available: '36.500000', locked: '13.500000' });
    await expectLedgerMatchesBalances(api.db, api.runtime.tableName, owner.companyId);

    const audit = (await owner.browser.call('GET', `/companies/${owner.companyId}/audit-log`)).body.data as { action: string }[];
    expect(audit.find((entry) => entry.action === 'withdrawal.sent')).toMatchObject({
      action: 'withdrawal.sent',
      target: sent.body.data.id,
      actor: { email: owner.email },
      details: { amount: '12.500000', network: 'tron', address: destination, reference: 'dashboard-payout-1' },
    });
  });

  it('writes nothing, not even an audit entry, when refused: the same reference twice, too little balance, below the minimum', async () => {
    const owner = await fundedOwner('Refused Co');
    expect((await owner.send({ address: destination, amount: '5', reference: 'once' })).status).toBe(201);
    const before = await companyItems(api.db, api.runtime, owner.companyId);

    const twice = await owner.send({ address: destination, amount: '5', reference: 'once' });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('DUPLICATE_REFERENCE');
    expect((await owner.send({ address: destination, amount: '100', reference: 'too-much' })).body.error.code).toBe('INSUFFICIENT_BALANCE');
    expect((await owner.send({ address: destination, amount: '0.5', reference: 'tiny' })).body.error.code).toBe('AMOUNT_TOO_SMALL');
    const invalid = await owner.send({ address: 'not-tron', amount: 5, reference: 'bad' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['address', 'amount']);
    expect(await companyItems(api.db, api.runtime, owner.companyId)).toEqual(before);
  });

  it('asks for the person’s password again, and their authenticator code once they sign in with one; a wrong one writes nothing', async () => {
    const owner = await fundedOwner('Step-up Co');
    const before = await companyItems(api.db, api.runtime, owner.companyId);
    const wrongPassword = await owner.send({ address: destination, amount: '5', reference: 'w-1', password: 'not the password' });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body.error.details).toEqual([{ path: 'password', message: 'is wrong' }]);
    const noPassword = await owner.browser.call('POST', `/companies/${owner.companyId}/withdrawals`, { body: { network: 'tron', address: destination, amount: '5', reference: 'w-1' } });
    expect(noPassword.body.error.details.map((d: { path: string }) => d.path)).toEqual(['password']);
    // The page's session is not ended by a wrong password.
    expect((await owner.browser.call('GET', '/me')).status).toBe(200);
    expect(await companyItems(api.db, api.runtime, owner.companyId)).toEqual(before);

    const { secret } = (await owner.browser.call('POST', '/me/two-factor/setup', { body: {} })).body.data;
    await owner.browser.call('POST', '/me/two-factor/confirm', { body: { code: totpCode(secret) } });
    const withTwoFactor = await companyItems(api.db, api.runtime, owner.companyId);
    const noCode = await owner.send({ address: destination, amount: '5', reference: 'w-1' });
    expect(noCode.status).toBe(400);
    expect(noCode.body.error.details).toEqual([{ path: 'code', message: 'is needed: the 6 digits your authenticator app shows' }]);
    const wrongCode = await owner.send({ address: destination, amount: '5', reference: 'w-1', code: totpCode(secret, Date.now() - 5 * 60_000) });
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.body.error.details[0].path).toBe('code');
    expect(await companyItems(api.db, api.runtime, owner.companyId)).toEqual(withTwoFactor);

    const sent = await owner.send({ address: destination, amount: '5', reference: 'w-1', code: nextTotpCode(secret) });
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({ reference: 'w-1', status: 'pending' });
  });

  it('names its network: a `0x…` address on TRON is refused on `address` (never paid to its TRON twin), and no network at all on `network`, writing nothing', async () => {
    const owner = await fundedOwner('Network Co');
    const before = await companyItems(api.db, api.runtime, owner.companyId);

    const evmOnTron = await owner.send({ network: 'tron', address: '0x52908400098527886E0F7030069857D2E4169EE7', amount: '5', reference: 'evm-on-tron' });
    expect(evmOnTron.status).toBe(400);
    expect(evmOnTron.body.error.details).toEqual([{ path: 'address', message: 'must be an address of TRON (base58check, starting with T), the network named by "network"' }]);
    const noNetwork = await owner.browser.call('POST', `/companies/${owner.companyId}/withdrawals`, { body: { password: STRONG_PASSWORD, address: destination, amount: '5', reference: 'no-network' } });
    expect(noNetwork.status).toBe(400);
    expect(noNetwork.body.error.details.map((d: { path: string }) => d.path)).toEqual(['network']);
    // A network the stage does not open (this one opens TRON alone), as /v1 refuses it.
    const closed = await owner.send({ network: 'polygon', address: '0x52908400098527886E0F7030069857D2E4169EE7', amount: '5', reference: 'closed' });
    expect(closed.status).toBe(400);
    expect(closed.body.error.details.map((d: { path: string }) => d.path)).toEqual(['network']);
    expect(await companyItems(api.db, api.runtime, owner.companyId)).toEqual(before);
  });

  it('answers to the withdrawal allowlist as /v1 does', async () => {
    const owner = await fundedOwner('Listed Co');
    await owner.browser.call('PUT', `/companies/${owner.companyId}/withdrawal-allowlist`, { body: { enabled: true } });
    const refused = await owner.send({ address: destination, amount: '5', reference: 'unlisted' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('ADDRESS_NOT_ALLOWED');
  });

  it('may be sent by Owners and Admins only', async () => {
    const owner = await fundedOwner('Roles Co');
    const memberOf = async (role: string) => (await invitedMember(api.runtime, owner.browser, owner.companyId, role)).browser;
    for (const role of ['Developer', 'Viewer']) {
      const refused = await owner.send({ address: destination, amount: '5', reference: `by-${role}` }, await memberOf(role));
      expect(refused.status, role).toBe(403);
    }
    expect((await owner.send({ address: destination, amount: '5', reference: 'by-admin' }, await memberOf('Admin'))).status).toBe(201);
  });
});
