import { afterEach, describe, expect, it, vi } from 'vitest';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createCompany } from '#functions/companies/company';
import type { Caller } from '#functions/people/caller';
import type { Mail } from '#functions/mail/mail';
import type { Role } from '#functions/people/team';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { changeWithdrawalLimit, withdrawalLimit, type LimitDeps } from '#functions/withdrawals/withdrawal-limit';
import { newWithdrawal, requestWithdrawal } from '#functions/withdrawals/withdrawals';
import { limitDay, type LimitGuard } from '#functions/withdrawals/withdrawal-policy';
import { companyAccount, ledgerEntry } from '#functions/ledger/ledger';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { companyPartition } from '#adapters/dynamo/items/item';
import { DAY_TOTAL_PARTS, dayShares, withdrawalDayItem } from '#adapters/dynamo/items/withdrawal-limit';
import { membershipItem } from '#adapters/dynamo/items/team';
import { DynamoLimitStore } from '#adapters/dynamo/withdrawal-limit-store';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { useFreshTable } from '../support/dynamo.ts';
import { creditAvailable, expectLedgerMatchesBalances, usdt, WITHDRAWAL_RULES } from '../support/money.ts';

/**
 * The daily withdrawal limit on DynamoDB Local with the clock in the test's hands: what the day's
 * withdrawals may take, concurrent withdrawals that cannot pass it together, the next UTC day, a
 * lower limit at once and a higher one or its removal only after the waiting period.
 */
const env = useFreshTable();
const DAY_MS = 24 * 3600 * 1000;
const T0 = new Date('2026-11-26T10:00:00.000Z');
const later = (ms: number) => new Date(T0.getTime() + ms);
const payout = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 9_601);
const partition = async (companyId: string) =>
  (await env.db.send(new QueryCommand({ TableName: env.tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': companyPartition(companyId) }, ConsistentRead: true }))).Items;

async function setUp() {
  const { company } = await createCompany(new DynamoCompanyStore(env.db, env.tableName), { name: 'Limited Co', environment: 'production' });
  await creditAvailable(env.db, env.tableName, company.id, 'USDT', '10000');
  const owner = { companyId: company.id, personId: 'person-1', email: 'owner@example.com', role: 'Owner' as Role, createdAt: T0.toISOString() };
  await env.db.send(new PutCommand({ TableName: env.tableName, Item: membershipItem.toItem(owner) }));
  const mails: Mail[] = [];
  const deps: LimitDeps = { store: new DynamoLimitStore(env.db, env.tableName), delayMs: DAY_MS, members: new DynamoTeamStore(env.db, env.tableName), mailer: { send: async (mail) => void mails.push(mail) }, log: { warn: () => undefined, error: () => undefined } };
  const caller = (role: Role = 'Owner'): Caller => ({ membership: { ...owner, role }, origin: { sourceIp: '203.0.113.9', userAgent: 'test' } });
  const withdrawals = new DynamoWithdrawalStore(env.db, env.tableName);
  let n = 0;
  const withdraw = (amount: string, at: Date) => requestWithdrawal(withdrawals, WITHDRAWAL_RULES, company.id, { reference: `w-${n++}`, address: payout, amount: usdt(amount) }, at);
  const refusal = (amount: string, at: Date) => withdraw(amount, at).then(() => null, (error: { code?: string; details?: unknown }) => ({ code: error.code, details: error.details }));
  return { companyId: company.id, deps, caller, withdraw, refusal, mails, withdrawals };
}

/**
 * Sends `withdrawals` withdrawals of `amount` at once against a daily limit of `dailyLimit`: exactly
 * `passing` of them go out, every other is refused LIMIT_REACHED, and the day's total is theirs, `sentToday`.
 */
async function expectConcurrentWithdrawalsHeld(burst: { dailyLimit: string; withdrawals: number; amount: string; passing: number; sentToday: string }) {
  const { companyId, deps, caller, withdraw } = await setUp();
  await changeWithdrawalLimit(deps, caller(), { dailyLimit: burst.dailyLimit }, T0);
  const outcomes = await Promise.all(Array.from({ length: burst.withdrawals }, () => withdraw(burst.amount, later(1000)).then(() => 'sent', (error: { code?: string }) => error.code)));
  expect(outcomes.filter((outcome) => outcome === 'sent')).toHaveLength(burst.passing);
  expect(new Set(outcomes.filter((outcome) => outcome !== 'sent'))).toEqual(new Set(['LIMIT_REACHED']));
  expect((await withdrawalLimit(deps, caller(), later(2000))).sentToday).toBe(burst.sentToday);
  return { companyId };
}

afterEach(() => vi.restoreAllMocks());

describe('the daily withdrawal limit', () => {
  it('lets the day’s withdrawals take up to the limit and refuses the one past it, writing nothing; the next UTC day starts again', async () => {
    const { companyId, deps, caller, withdraw, refusal } = await setUp();
    await changeWithdrawalLimit(deps, caller(), { dailyLimit: '100' }, T0);
    await withdraw('60', T0);
    await withdraw('40', later(1000));
    const before = await partition(companyId);
    expect(await refusal('1', later(2000))).toEqual({
      code: 'LIMIT_REACHED',
      details: { dailyLimit: '100.000000', sentToday: '100.000000', remaining: '0.000000' },
    });
    expect(await partition(companyId)).toEqual(before);
    expect(await withdrawalLimit(deps, caller(), later(3000))).toMatchObject({ dailyLimit: '100.000000', sentToday: '100.000000', pending: null });
    // 2026-11-27, from 00:00 UTC.
    await expect(withdraw('100', new Date('2026-11-27T00:00:00.000Z'))).resolves.toMatchObject({ status: 'pending' });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('answers a retry of the withdrawal that reached the limit DUPLICATE_REFERENCE naming it, not LIMIT_REACHED', async () => {
    const { companyId, deps, caller, withdrawals } = await setUp();
    await changeWithdrawalLimit(deps, caller(), { dailyLimit: '100' }, T0);
    const request = { reference: 'month-end', address: payout, amount: usdt('100') };
    const made = await requestWithdrawal(withdrawals, WITHDRAWAL_RULES, companyId, request, later(1000));
    const retried = await requestWithdrawal(withdrawals, WITHDRAWAL_RULES, companyId, request, later(2000)).then(
      () => null,
      (error: { code?: string; details?: unknown }) => ({ code: error.code, details: error.details }),
    );
    expect(retried).toEqual({ code: 'DUPLICATE_REFERENCE', details: { existingId: made.id } });
    expect((await withdrawalLimit(deps, caller(), later(3000))).sentToday).toBe('100.000000');
  });

  it('holds under concurrent withdrawals: of twenty 10 USDT withdrawals against 55 a day, exactly five pass', async () => {
    const { companyId } = await expectConcurrentWithdrawalsHeld({ dailyLimit: '55', withdrawals: 20, amount: '10', passing: 5, sentToday: '50.000000' });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  }, 60_000);

  it('holds at the highest tier’s pace: of 200 concurrent 5 USDT withdrawals against 750 a day, exactly 150 pass, the day’s total kept in its parts', async () => {
    const { companyId } = await expectConcurrentWithdrawalsHeld({ dailyLimit: '750', withdrawals: 200, amount: '5', passing: 150, sentToday: '750.000000' });

    // Written across the day's parts, none past its share of the limit (items/withdrawal-limit.ts).
    const parts = (await partition(companyId))!.filter((item) => item.type === withdrawalDayItem.type);
    expect(parts).toHaveLength(DAY_TOTAL_PARTS);
    const shares = dayShares(usdt('750'));
    expect(withdrawalDayItem.sentByPart(parts).every((sent, part) => sent <= shares[part]!)).toBe(true);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  }, 180_000);

  it('lowers at once, but raises and removes only after the waiting period, mailing the Owners', async () => {
    const { deps, caller, withdraw, refusal, mails } = await setUp();
    await changeWithdrawalLimit(deps, caller(), { dailyLimit: '100' }, T0);
    expect(mails).toEqual([]);
    const raised = await changeWithdrawalLimit(deps, caller(), { dailyLimit: '1000' }, T0);
    expect(raised).toMatchObject({ dailyLimit: '100.000000', pending: { dailyLimit: '1000.000000', from: later(DAY_MS).toISOString() } });
    expect(mails.map((mail) => [mail.to, mail.subject])).toEqual([['owner@example.com', 'Daily withdrawal limit raise for Limited Co']]);
    expect((await refusal('150', later(1000)))?.code).toBe('LIMIT_REACHED');
    // A day later the raise holds (and it is a new UTC day too).
    await expect(withdraw('900', later(DAY_MS))).resolves.toMatchObject({ status: 'pending' });

    // Lowered: at once, and a pending removal is cancelled by it.
    await changeWithdrawalLimit(deps, caller(), { dailyLimit: null }, later(DAY_MS + 1000));
    expect(await withdrawalLimit(deps, caller(), later(DAY_MS + 2000))).toMatchObject({ dailyLimit: '1000.000000', pending: { dailyLimit: null } });
    await changeWithdrawalLimit(deps, caller(), { dailyLimit: '950' }, later(DAY_MS + 3000));
    expect(await withdrawalLimit(deps, caller(), later(3 * DAY_MS))).toMatchObject({ dailyLimit: '950.000000', pending: null });
    expect((await refusal('60', later(DAY_MS + 4000)))?.details).toMatchObject({ remaining: '50.000000' });
  });

  it('counts only what is withdrawn while a limit is in force: one set during a day starts from zero', async () => {
    const { deps, caller, withdraw, refusal } = await setUp();
    await withdraw('500', T0);
    expect(await withdrawalLimit(deps, caller(), T0)).toMatchObject({ dailyLimit: null, sentToday: null });
    await changeWithdrawalLimit(deps, caller(), { dailyLimit: '100' }, later(1000));
    expect(await withdrawalLimit(deps, caller(), later(1000))).toMatchObject({ dailyLimit: '100.000000', sentToday: '0.000000' });
    await withdraw('100', later(2000));
    expect((await refusal('1', later(3000)))?.code).toBe('LIMIT_REACHED');
  });

  // Lowered during the day, a part of the day's total can be past its new share (800 a day: shares
  // of 100; 50 sent on one part; lowered to 80: shares of 10): parts each within their share no
  // longer keep the day within the limit.
  it('holds after being lowered during the day: of twenty concurrent 10 USDT withdrawals, only the three that fit the 30 left pass', async () => {
    const { deps, caller, withdraw } = await setUp();
    await changeWithdrawalLimit(deps, caller(), { dailyLimit: '800' }, T0);
    await withdraw('50', later(1000));
    await changeWithdrawalLimit(deps, caller(), { dailyLimit: '80' }, later(2000));
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => withdraw('10', later(3000)).then(() => 'sent', (error: { code?: string }) => error.code)));
    expect(outcomes.filter((outcome) => outcome === 'sent')).toHaveLength(3);
    expect(new Set(outcomes.filter((outcome) => outcome !== 'sent'))).toEqual(new Set(['LIMIT_REACHED']));
    expect(await withdrawalLimit(deps, caller(), later(4000))).toMatchObject({ dailyLimit: '80.000000', sentToday: '80.000000' });
  }, 60_000);

  it('holds after being lowered during the day when withdrawals all read the day before any is written, each placed on another part', async () => {
    const { companyId, deps, caller, withdraw, withdrawals } = await setUp();
    await changeWithdrawalLimit(deps, caller(), { dailyLimit: '800' }, T0);
    await withdraw('50', later(1000));
    await changeWithdrawalLimit(deps, caller(), { dailyLimit: '80' }, later(2000));

    // Seven 10 USDT withdrawals read the limit and the day together (50 sent: each fits the 30
    // left), then each is written under that read, on an empty part of the day's total.
    const at = later(3000);
    const { limit, sent, sentByPart } = await withdrawals.limitFor(companyId, limitDay(at));
    expect(sent).toBe(usdt('50'));
    const guard: LimitGuard = { limited: true, day: limitDay(at), amount: usdt('10'), version: limit.version, dailyLimit: usdt('80'), sentByPart };
    const answers: string[] = [];
    for (let part = 0; part < DAY_TOTAL_PARTS; part++) {
      if (sentByPart[part] !== 0n) continue;
      vi.spyOn(Math, 'random').mockReturnValue((part + 0.5) / DAY_TOTAL_PARTS);
      const withdrawal = { ...newWithdrawal(companyId, { reference: `read-together-${part}`, address: payout, amount: usdt('10'), fee: WITHDRAWAL_RULES.fee }, at), limitDay: guard.day };
      const [available, locked] = [companyAccount(companyId, 'available'), companyAccount(companyId, 'locked')];
      const hold = ledgerEntry(companyId, `withdrawal:${withdrawal.id}:hold`, [
        { source: available, destination: locked, currency: 'USDT', amount: withdrawal.amount },
        { source: available, destination: locked, currency: 'USDT', amount: withdrawal.fee },
      ], at, 'tron');
      answers.push(await withdrawals.createWithdrawal(withdrawal, hold, { allowlist: { holds: false, at: at.toISOString() }, limit: guard }));
      vi.restoreAllMocks();
    }
    // The first is written; the others find the day changed since their read (and, read again, would be checked against 60 sent).
    expect(answers).toEqual(['written', ...Array.from({ length: answers.length - 1 }, () => 'day-total')]);
    expect(await withdrawalLimit(deps, caller(), later(4000))).toMatchObject({ dailyLimit: '80.000000', sentToday: '60.000000' });
  });

  it('is changed by Owners and Admins only, and refuses what is not a USDT amount', async () => {
    const { deps, caller } = await setUp();
    await expect(changeWithdrawalLimit(deps, caller('Developer'), { dailyLimit: '1' }, T0)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(changeWithdrawalLimit(deps, caller(), { dailyLimit: '1.1234567' }, T0)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(changeWithdrawalLimit(deps, caller('Admin'), { dailyLimit: '5' }, T0)).resolves.toMatchObject({ dailyLimit: '5.000000' });
  });
});
