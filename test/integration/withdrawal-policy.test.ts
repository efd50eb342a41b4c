import { TRON_DEPOSIT_SETTINGS } from '../support/deposit-settings.ts';
import { describe, expect, it } from 'vitest';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createCompany } from '#functions/companies/company';
import { createDeposit } from '#functions/deposits/deposits';
import type { Caller } from '#functions/people/caller';
import type { Role } from '#functions/people/team';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { addAllowedAddress, removeAllowedAddress, switchAllowlist, type AllowlistDeps } from '#functions/withdrawals/withdrawal-allowlist';
import { changeWithdrawalLimit, withdrawalLimit, type LimitDeps } from '#functions/withdrawals/withdrawal-limit';
import { requestWithdrawal } from '#functions/withdrawals/withdrawals';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { companyPartition } from '#adapters/dynamo/items/item';
import { membershipItem } from '#adapters/dynamo/items/team';
import { DynamoAllowlistStore } from '#adapters/dynamo/withdrawal-allowlist-store';
import { DynamoLimitStore } from '#adapters/dynamo/withdrawal-limit-store';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { useFreshTable } from '../support/dynamo.ts';
import { creditAvailable, usdt, WITHDRAWAL_RULES } from '../support/money.ts';

/**
 * The withdrawal policy's read-and-retry (functions/withdrawals/withdrawal-policy.ts), on DynamoDB
 * Local: each test changes the allowlist or the limit right after the policy has read it, as a
 * person on the Integrations page would between a payout's read and its transaction, and the payout
 * goes by the change.
 */
const env = useFreshTable();
const T0 = new Date('2026-11-26T10:00:00.000Z');
const payout = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 9_701);

async function setUp() {
  const { company } = await createCompany(new DynamoCompanyStore(env.db, env.tableName), { name: 'Raced Co', environment: 'production' });
  await creditAvailable(env.db, env.tableName, company.id, 'USDT', '1000');
  const owner = { companyId: company.id, personId: 'person-1', email: 'owner@example.com', role: 'Owner' as Role, createdAt: T0.toISOString() };
  await env.db.send(new PutCommand({ TableName: env.tableName, Item: membershipItem.toItem(owner) }));
  const caller: Caller = { membership: owner, origin: { sourceIp: '203.0.113.9', userAgent: 'test' } };
  // No waiting period: every change acts at once, so a change made in the race is in force.
  const common = { delayMs: 0, members: new DynamoTeamStore(env.db, env.tableName), mailer: null, log: { warn: () => undefined, error: () => undefined } };
  const limits: LimitDeps = { ...common, store: new DynamoLimitStore(env.db, env.tableName) };
  const allowlist: AllowlistDeps = { ...common, store: new DynamoAllowlistStore(env.db, env.tableName), contracts: () => [] };
  return { companyId: company.id, caller, limits, allowlist, withdrawals: new DynamoWithdrawalStore(env.db, env.tableName) };
}

/** `store` with `method` running `race` once, right after its first read. */
function racedAfterRead<S extends object, K extends keyof S>(store: S, method: K, race: () => Promise<unknown>): S {
  const read = store[method] as (...args: unknown[]) => Promise<unknown>;
  let raced = false;
  const racing = async (...args: unknown[]) => {
    const result = await read.apply(store, args);
    if (!raced) {
      raced = true;
      await race();
    }
    return result;
  };
  return Object.assign(Object.create(store) as S, { [method]: racing });
}

const partition = async (companyId: string) =>
  (await env.db.send(new QueryCommand({ TableName: env.tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': companyPartition(companyId) }, ConsistentRead: true }))).Items ?? [];

const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: { code?: string; message?: string; details?: unknown }) => ({ code: error.code, message: error.message, details: error.details }));

describe('the withdrawal policy under a concurrent change', () => {
  it('reads the daily limit again when it is lowered between its read and the withdrawal’s transaction, and goes by the new one', async () => {
    const { companyId, caller, limits, withdrawals } = await setUp();
    await changeWithdrawalLimit(limits, caller, { dailyLimit: '100' }, T0);
    const lowered = racedAfterRead(withdrawals, 'limitFor', () => changeWithdrawalLimit(limits, caller, { dailyLimit: '50' }, T0));
    expect(await refusal(requestWithdrawal(lowered, WITHDRAWAL_RULES, companyId, { reference: 'past-new-limit', address: payout, amount: usdt('60') }, T0))).toEqual({
      code: 'LIMIT_REACHED',
      message: "This withdrawal would take the day's withdrawals past the company's daily limit of 50.000000 USDT",
      details: { dailyLimit: '50.000000', sentToday: '0.000000', remaining: '50.000000' },
    });

    const loweredAgain = racedAfterRead(withdrawals, 'limitFor', () => changeWithdrawalLimit(limits, caller, { dailyLimit: '45' }, T0));
    await expect(requestWithdrawal(loweredAgain, WITHDRAWAL_RULES, companyId, { reference: 'within-new-limit', address: payout, amount: usdt('40') }, T0)).resolves.toMatchObject({ limitDay: '2026-11-26' });
    expect(await withdrawalLimit(limits, caller, T0)).toMatchObject({ dailyLimit: '45.000000', sentToday: '40.000000' });
  });

  it('decides a change of the limit again on the one another change wrote meanwhile', async () => {
    const { caller, limits } = await setUp();
    // Read while there is no limit, when 40 would act at once; then another person sets 30, over which 40 is a raise that waits.
    const store = racedAfterRead(limits.store, 'limitFor', () => changeWithdrawalLimit(limits, caller, { dailyLimit: '30' }, T0));
    await expect(changeWithdrawalLimit({ ...limits, store, delayMs: 3_600_000 }, caller, { dailyLimit: '40' }, T0)).resolves.toMatchObject({
      dailyLimit: '30.000000',
      pending: { dailyLimit: '40.000000', from: '2026-11-26T11:00:00.000Z' },
    });
  });

  it('refuses a withdrawal whose allowlisted address is removed between its read and the transaction, writing nothing', async () => {
    const { companyId, caller, allowlist, withdrawals } = await setUp();
    await switchAllowlist(allowlist, caller, { enabled: true }, T0);
    await addAllowedAddress(allowlist, caller, { network: 'tron', address: payout, label: 'Treasury' }, T0);
    const before = await partition(companyId);
    const removed = racedAfterRead(withdrawals, 'allowlistFor', () => removeAllowedAddress(allowlist, caller, { network: 'tron', address: payout }, T0));
    expect(await refusal(requestWithdrawal(removed, WITHDRAWAL_RULES, companyId, { reference: 'removed', address: payout, amount: usdt('10') }, T0))).toEqual({
      code: 'ADDRESS_NOT_ALLOWED',
      message: 'The address was removed from the withdrawal allowlist',
      details: { address: payout },
    });
    // Only the removal and its audit entry were written.
    expect((await partition(companyId)).filter((item) => !before.some((kept) => kept.SK === item.SK)).map((item) => item.type)).toEqual(['AuditEntry']);
  });

  it('refuses a new deposit whose split address is removed between its read and the transaction', async () => {
    const { companyId, caller, allowlist } = await setUp();
    await switchAllowlist(allowlist, caller, { enabled: true }, T0);
    await addAllowedAddress(allowlist, caller, { network: 'tron', address: payout, label: 'Partner' }, T0);
    const deposits = racedAfterRead(new DynamoDepositStore(env.db, env.tableName), 'allowlistFor', () => removeAllowedAddress(allowlist, caller, { network: 'tron', address: payout }, T0));
    const settings = TRON_DEPOSIT_SETTINGS;
    expect(await refusal(createDeposit(deposits, settings, companyId, { network: 'tron', reference: 'split-removed', split: { address: payout, percentBps: 1000 } }, T0))).toEqual({
      code: 'ADDRESS_NOT_ALLOWED',
      message: 'The address was removed from the withdrawal allowlist',
      details: { address: payout },
    });
  });
});
