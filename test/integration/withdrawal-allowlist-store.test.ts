import { describe, expect, it } from 'vitest';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createCompany } from '#functions/companies/company';
import type { Caller } from '#functions/people/caller';
import type { Mail } from '#functions/mail/mail';
import type { Role } from '#functions/people/team';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { addAllowedAddress, removeAllowedAddress, switchAllowlist, withdrawalAllowlist, type AllowlistDeps } from '#functions/withdrawals/withdrawal-allowlist';
import type { AllowlistGuard } from '#functions/withdrawals/withdrawal-policy';
import { requestWithdrawal } from '#functions/withdrawals/withdrawals';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { companyPartition } from '#adapters/dynamo/items/item';
import { allowedAddressItem, withdrawalAllowlistItem } from '#adapters/dynamo/items/withdrawal-allowlist';
import { toChecksumAddress } from '#functions/networks/evm/evm-address';
import { membershipItem } from '#adapters/dynamo/items/team';
import { DynamoAllowlistStore } from '#adapters/dynamo/withdrawal-allowlist-store';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { useFreshTable } from '../support/dynamo.ts';
import { creditAvailable, usdt, WITHDRAWAL_RULES } from '../support/money.ts';

/**
 * The allowlist's waiting period and its race with a withdrawal, on DynamoDB Local with the clock
 * in the test's hands: an added address waits (production's 24 h), a turn-off waits while the list
 * still holds, and an address removed between a withdrawal's check and its transaction stops it.
 */
const env = useFreshTable();
const DAY_MS = 24 * 3600 * 1000;
const T0 = new Date('2026-11-26T10:00:00.000Z');
const later = (ms: number) => new Date(T0.getTime() + ms);
const payout = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 9_101);

async function setUp() {
  const { company } = await createCompany(new DynamoCompanyStore(env.db, env.tableName), { name: 'Clocked Co', environment: 'production' });
  await creditAvailable(env.db, env.tableName, company.id, 'USDT', '100');
  const mails: Mail[] = [];
  const deps: AllowlistDeps = {
    store: new DynamoAllowlistStore(env.db, env.tableName),
    members: new DynamoTeamStore(env.db, env.tableName),
    contracts: () => [],
    delayMs: DAY_MS,
    mailer: { send: async (mail) => void mails.push(mail) },
    log: { warn: () => undefined, error: () => undefined },
  };
  const owner = { companyId: company.id, personId: 'person-1', email: 'owner@example.com', role: 'Owner' as Role, createdAt: T0.toISOString() };
  // The Owner, to be mailed, and a Developer, who is not.
  for (const member of [owner, { ...owner, personId: 'person-2', email: 'dev@example.com', role: 'Developer' as Role }]) {
    await env.db.send(new PutCommand({ TableName: env.tableName, Item: membershipItem.toItem(member) }));
  }
  const caller = (role: Role = 'Owner'): Caller => ({ membership: { ...owner, role }, origin: { sourceIp: '203.0.113.9', userAgent: 'test' } });
  const withdrawals = new DynamoWithdrawalStore(env.db, env.tableName);
  const withdraw = (reference: string, at: Date) => requestWithdrawal(withdrawals, WITHDRAWAL_RULES, company.id, { reference, address: payout, amount: usdt('10') }, at);
  return { companyId: company.id, deps, caller, withdrawals, withdraw, mails };
}

const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: { code?: string; details?: unknown }) => ({ code: error.code, details: error.details }));

describe('the withdrawal allowlist over time', () => {
  it('accepts an added address only once its waiting period has passed', async () => {
    const { deps, caller, withdraw } = await setUp();
    await switchAllowlist(deps, caller(), { enabled: true }, T0);
    const added = await addAllowedAddress(deps, caller(), { network: 'tron', address: payout, label: 'Treasury' }, T0);
    expect(added).toMatchObject({ activeFrom: later(DAY_MS).toISOString(), active: false });

    expect(await refusal(withdraw('too-soon', later(DAY_MS - 1000)))).toEqual({
      code: 'ADDRESS_NOT_ALLOWED',
      details: { field: 'address', address: payout, activeFrom: later(DAY_MS).toISOString() },
    });
    await expect(withdraw('on-time', later(DAY_MS))).resolves.toMatchObject({ address: payout, status: 'pending' });
    expect((await withdrawalAllowlist(deps, caller(), later(DAY_MS))).addresses).toEqual([expect.objectContaining({ address: payout, active: true })]);
  });

  it('keeps holding for the waiting period after it is turned off, and a turn-on cancels the turn-off', async () => {
    const { deps, caller, withdraw, mails } = await setUp();
    await switchAllowlist(deps, caller(), { enabled: true }, T0);
    const off = await switchAllowlist(deps, caller(), { enabled: false }, T0);
    expect(off).toMatchObject({ enabled: true, turnsOffAt: later(DAY_MS).toISOString() });
    expect(mails.map((mail) => [mail.to, mail.subject])).toEqual([['owner@example.com', 'Withdrawal allowlist turning off for Clocked Co']]);
    // Asking again does not push the time back, nor mail again.
    expect(await switchAllowlist(deps, caller(), { enabled: false }, later(3600_000))).toMatchObject({ turnsOffAt: later(DAY_MS).toISOString() });
    expect(mails).toHaveLength(1);

    expect((await refusal(withdraw('still-held', later(DAY_MS - 1))))?.code).toBe('ADDRESS_NOT_ALLOWED');
    await expect(withdraw('released', later(DAY_MS))).resolves.toMatchObject({ status: 'pending' });
    expect(await withdrawalAllowlist(deps, caller(), later(DAY_MS))).toMatchObject({ enabled: false, turnsOffAt: null });

    // Turned on again after a pending turn-off: it holds, with no turn-off left.
    await switchAllowlist(deps, caller(), { enabled: false }, later(2 * DAY_MS));
    expect(await switchAllowlist(deps, caller(), { enabled: true }, later(2 * DAY_MS + 1000))).toMatchObject({ enabled: true, turnsOffAt: null });
    expect((await refusal(withdraw('held-again', later(10 * DAY_MS))))?.code).toBe('ADDRESS_NOT_ALLOWED');
  });

  it('stops a withdrawal whose address is removed, or whose allowlist is turned on, between its decision and its transaction, writing nothing', async () => {
    const { companyId, deps, caller, withdrawals } = await setUp();
    const at = later(DAY_MS);
    const partition = async () =>
      (await env.db.send(new QueryCommand({ TableName: env.tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': companyPartition(companyId) }, ConsistentRead: true }))).Items;
    // The withdrawal as requestWithdrawal makes it, sent with the guard it decided on.
    const send = (guard: AllowlistGuard) =>
      withdrawals.createWithdrawal(
        { id: 'wdr_01JBZ6W1V7Q8R9S0T1A2V3W4X5', companyId, method: 'usdt', reference: 'raced', network: 'tron', address: payout, amount: usdt('10'), fee: usdt('1'), status: 'pending', txHash: null, deliveredAmount: null, networkCost: null, failureReason: null, createdAt: at.toISOString(), updatedAt: at.toISOString(), completedAt: null, transaction: null, limitDay: null },
        { id: 'led_race', companyId, reference: 'withdrawal:raced:hold', postings: [], createdAt: at.toISOString() },
        { allowlist: guard, limit: { limited: false, at: at.toISOString() } },
      );

    // Decided while the allowlist was off, which it no longer is.
    await switchAllowlist(deps, caller(), { enabled: true }, T0);
    const before = await partition();
    // The store answers which guard it found false; the policy (withdrawal-policy.ts) decides what that means.
    await expect(send({ holds: false, at: at.toISOString() })).resolves.toBe('allowlist');
    expect(await partition()).toEqual(before);

    // Decided on the address as read, which is gone.
    await addAllowedAddress(deps, caller(), { network: 'tron', address: payout, label: 'Treasury' }, T0);
    const checked = await withdrawals.allowlistFor(companyId, 'tron', payout);
    await removeAllowedAddress(deps, caller(), { network: 'tron', address: payout }, at);
    const afterRemoval = await partition();
    await expect(send({ holds: true, entry: checked.entry! })).resolves.toBe('allowlist');
    // The same race through the use case: its read (here, the one made before the removal) saw the address listed.
    const readBeforeRemoval = Object.assign(Object.create(withdrawals) as DynamoWithdrawalStore, { allowlistFor: async () => checked });
    const raced = requestWithdrawal(readBeforeRemoval, WITHDRAWAL_RULES, companyId, { reference: 'raced', address: payout, amount: usdt('10') }, at);
    expect(await refusal(raced)).toEqual({ code: 'ADDRESS_NOT_ALLOWED', details: { address: payout } });
    expect(await partition()).toEqual(afterRemoval);
  });

  it('reads an entry added before entries named a network as allowing the one network of its form: a TRON address TRON, an EVM address none until added again', async () => {
    const { companyId, deps, caller, withdraw, withdrawals } = await setUp();
    await creditAvailable(env.db, env.tableName, companyId, 'USDT', '100', 'ethereum');
    await switchAllowlist(deps, caller(), { enabled: true }, T0);
    const evm = '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359';
    // As they were stored: keyed by the address as it was added, no `network`.
    const old = (address: string, label: string) => ({ ...allowedAddressItem.entryKey(companyId, null, address), type: 'WithdrawalAddress', companyId, address, label, addedBy: 'owner@example.com', createdAt: T0.toISOString(), activeFrom: T0.toISOString() });
    for (const item of [old(payout, 'Old TRON'), old(evm, 'Old EVM')]) await env.db.send(new PutCommand({ TableName: env.tableName, Item: item }));
    await env.db.send(new PutCommand({ TableName: env.tableName, Item: { ...withdrawalAllowlistItem.key(companyId), type: 'WithdrawalAllowlist', companyId, enabled: true, addressCount: 2 } }));

    expect((await withdrawalAllowlist(deps, caller(), T0)).addresses.map(({ network, address, label }) => ({ network, address, label })).sort((a, b) => a.label.localeCompare(b.label))).toEqual([
      { network: null, address: evm, label: 'Old EVM' },
      { network: 'tron', address: payout, label: 'Old TRON' },
    ]);
    // TRON's keeps working; the EVM one allows no network (it may have meant any one of four).
    await expect(withdraw('old-tron', T0)).resolves.toMatchObject({ network: 'tron', address: payout });
    const onEthereum = requestWithdrawal(withdrawals, { ...WITHDRAWAL_RULES, networks: { ...WITHDRAWAL_RULES.networks, ethereum: {} } }, companyId, { reference: 'old-evm', network: 'ethereum', address: evm, amount: usdt('10') }, T0);
    expect((await refusal(onEthereum))?.code).toBe('ADDRESS_NOT_ALLOWED');
    // The old TRON entry is TRON's entry: adding it again is refused, and removing it on TRON removes it.
    expect((await refusal(addAllowedAddress(deps, caller(), { network: 'tron', address: payout, label: 'Again' }, T0)))?.code).toBe('VALIDATION_FAILED');
    await removeAllowedAddress(deps, caller(), { network: 'tron', address: payout }, T0);
    expect((await refusal(withdraw('old-tron-removed', T0)))?.code).toBe('ADDRESS_NOT_ALLOWED');
    // The EVM one is removed without a network, and added again with Ethereum's.
    await removeAllowedAddress(deps, caller(), { network: null, address: evm }, T0);
    await addAllowedAddress(deps, caller(), { network: 'ethereum', address: evm, label: 'Exchange' }, T0);
    expect((await withdrawalAllowlist(deps, caller(), later(DAY_MS))).addresses).toEqual([expect.objectContaining({ network: 'ethereum', address: toChecksumAddress(evm), label: 'Exchange' })]);
  });

  it('leaves the list to Owners and Admins', async () => {
    const { deps, caller } = await setUp();
    expect((await refusal(addAllowedAddress(deps, caller('Developer'), { network: 'tron', address: payout, label: 'x' }, T0)))?.code).toBe('FORBIDDEN');
    expect((await refusal(switchAllowlist(deps, caller('Viewer'), { enabled: true }, T0)))?.code).toBe('FORBIDDEN');
    expect((await refusal(removeAllowedAddress(deps, caller('Developer'), { network: 'tron', address: payout }, T0)))?.code).toBe('FORBIDDEN');
    await expect(addAllowedAddress(deps, caller('Admin'), { network: 'tron', address: payout, label: 'Ops' }, T0)).resolves.toMatchObject({ address: payout });
  });
});
