import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { requestWithdrawal } from '#functions/withdrawals/withdrawals';
import { companyAccount, ledgerEntry, networkAccount } from '#functions/ledger/ledger';
import { ApiError } from '#functions/shared/errors';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { MoneyTransaction } from '#adapters/dynamo/transaction';
import { itemsUnder } from '#adapters/dynamo/queries';
import { BALANCE_SHARDS, balanceItem } from '#adapters/dynamo/items/balance';
import { ledgerEntryItem } from '#adapters/dynamo/items/ledger-entry';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { freshTable } from '../support/dynamo.ts';
import { creditAvailable, ledgerDifferences } from '../support/ledger.ts';
import { WITHDRAWAL_RULES, usdt } from '../support/money.ts';

/**
 * A company's balance is spread over shards (adapters/dynamo/items/balance.ts) so that its money
 * operations at the highest rate tier do not all write one item. These drive the shards under
 * concurrency on DynamoDB Local: the ledger must stay exact, no shard may go below zero, and the
 * writes must in fact spread.
 */
const destination = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 9_999);

async function fundedCompany(credits: number, amount: string) {
  const { db, tableName } = await freshTable();
  const { company } = await createCompany(new DynamoCompanyStore(db, tableName), { name: 'Scale tier', environment: 'production' });
  // Each credit is its own subject, so the credits land across the shards as deposits' would.
  for (let i = 0; i < credits; i++) await creditAvailable(db, tableName, company.id, 'USDT', amount);
  return { db, tableName, companyId: company.id, withdrawals: new DynamoWithdrawalStore(db, tableName) };
}

async function usdtShards(db: Parameters<typeof itemsUnder>[0], tableName: string, companyId: string) {
  return (await itemsUnder(db, tableName, balanceItem.shardsOf(companyId, 'USDT'))).map(balanceItem.fromItem);
}

const withdraw = (withdrawals: DynamoWithdrawalStore, companyId: string, amount: string) =>
  requestWithdrawal(withdrawals, WITHDRAWAL_RULES, companyId, { reference: `w-${Math.random()}`, address: destination, amount: usdt(amount) }).then(
    () => 'written' as const,
    (error: unknown) => {
      if (error instanceof ApiError && error.code === 'INSUFFICIENT_BALANCE') return 'insufficient' as const;
      throw error;
    },
  );

describe('a balance spread over shards', () => {
  it('1,000 concurrent money operations of one company: every hold placed, the ledger exact, the writes spread', async () => {
    const { db, tableName, companyId, withdrawals } = await fundedCompany(40, '100');
    // 650 withdrawals of 5 USDT (+1 fee) beside 350 deposits credited: the 4,000 funded covers the
    // holds whatever the order, so every one must be written.
    const operations = [
      ...Array.from({ length: 650 }, () => () => withdraw(withdrawals, companyId, '5')),
      ...Array.from({ length: 350 }, () => () => creditAvailable(db, tableName, companyId, 'USDT', '1').then(() => 'written' as const)),
    ].sort(() => Math.random() - 0.5);

    const outcomes = await Promise.all(operations.map((operation) => operation()));

    expect(outcomes.filter((outcome) => outcome === 'written')).toHaveLength(1_000);
    const shards = await usdtShards(db, tableName, companyId);
    const total = (bucket: 'available' | 'locked') => shards.reduce((sum, shard) => sum + shard[bucket], 0n);
    expect(total('locked')).toBe(usdt('3900'));
    expect(total('available')).toBe(usdt('4000') + usdt('350') - usdt('3900'));
    expect(shards.every((shard) => shard.available >= 0n && shard.locked >= 0n)).toBe(true);
    // Credits and holds land on every shard, not on one item.
    expect(new Set(shards.map((shard) => shard.shard)).size).toBe(BALANCE_SHARDS);
    expect(await ledgerDifferences(db, tableName, companyId)).toEqual([]);
  }, 180_000);

  it('never overdraws: 60 concurrent withdrawals against money for exactly 20, spread so no shard holds one alone', async () => {
    // 20 × (10 + 1 fee) = 220, in 40 credits of 5.5: no shard holds 11 unless two credits met on it,
    // so most holds take from several shards.
    const { db, tableName, companyId, withdrawals } = await fundedCompany(40, '5.5');

    const outcomes = await Promise.all(Array.from({ length: 60 }, () => withdraw(withdrawals, companyId, '10')));

    expect(outcomes.filter((outcome) => outcome === 'written')).toHaveLength(20);
    expect(outcomes.filter((outcome) => outcome === 'insufficient')).toHaveLength(40);
    const shards = await usdtShards(db, tableName, companyId);
    expect(shards.reduce((sum, shard) => sum + shard.available, 0n)).toBe(0n);
    expect(shards.reduce((sum, shard) => sum + shard.locked, 0n)).toBe(usdt('220'));
    expect(await ledgerDifferences(db, tableName, companyId)).toEqual([]);
  }, 120_000);

  it('a balance this process last saw empty is read again before a withdrawal is refused', async () => {
    const { db, tableName, companyId, withdrawals } = await fundedCompany(1, '11');
    expect(await withdraw(withdrawals, companyId, '10')).toBe('written');
    // The process now remembers the shards empty; a credit that reads nothing (a deposit confirmed
    // by another process, here by this one) leaves that memory behind.
    await creditAvailable(db, tableName, companyId, 'USDT', '11');

    expect(await withdraw(withdrawals, companyId, '10')).toBe('written');
    expect(await withdraw(withdrawals, companyId, '10')).toBe('insufficient');
    expect(await ledgerDifferences(db, tableName, companyId)).toEqual([]);
  });

  it('a balance from before the shards (all on one item) is spent where it is', async () => {
    const { db, tableName, companyId } = await fundedCompany(0, '0');
    // What the code before the shards wrote: a hold's entry, and its buckets on the one item.
    const withdrawalId = Array.from({ length: 50 }, (_, i) => `wdr_OLD${i}`).find((id) => balanceItem.shardOfSubject(`withdrawal:${id}`) !== 0)!;
    const hold = ledgerEntry(companyId, `withdrawal:${withdrawalId}:hold`, [{ source: networkAccount('tron'), destination: companyAccount(companyId, 'locked'), currency: 'USDT', amount: usdt('11') }], new Date());
    await db.send(new PutCommand({ TableName: tableName, Item: ledgerEntryItem.toItem(hold) }));
    await db.send(new UpdateCommand({ TableName: tableName, Key: balanceItem.key(companyId, 'USDT'), UpdateExpression: 'SET locked = locked + :amount', ExpressionAttributeValues: { ':amount': usdt('11') } }));

    // Its completion takes `locked` from the withdrawal's own shard first, finds nothing there, and
    // is placed again from a read: on the one item that holds it.
    const completed = ledgerEntry(companyId, `withdrawal:${withdrawalId}:completed`, [{ source: companyAccount(companyId, 'locked'), destination: networkAccount('tron'), currency: 'USDT', amount: usdt('11') }], new Date());
    await new MoneyTransaction(tableName).ledger(completed, () => new Error('insufficient')).commit(db);

    const shards = await usdtShards(db, tableName, companyId);
    expect(shards.map((shard) => [shard.shard, shard.locked])).toEqual([[0, 0n]]);
    expect(await ledgerDifferences(db, tableName, companyId)).toEqual([]);
  });
});
