import { describe, expect, it } from 'vitest';
import { PutCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { useFreshTable } from '../support/dynamo.ts';
import { createCompany } from '#functions/companies/company';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { creditAvailable, usdt } from '../support/money.ts';
import { requestWithdrawal, type Withdrawal } from '#functions/withdrawals/withdrawals';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { withdrawalItem } from '#adapters/dynamo/items/withdrawal';
import { ledgerSide } from '#adapters/dynamo/reconciliation-store';
import { reconcileHoldings, reconciliationReport, type NetworkReconcileSources } from '#functions/ledger/reconciliation';
import type { TransactionReceipt } from '#functions/networks/chain';
import { complete } from '#functions/withdrawals/withdrawal-sending';
import { DynamoWithdrawalSendingStore } from '#adapters/dynamo/withdrawal-sending-store';
import { ledgerEntryItem } from '#adapters/dynamo/items/ledger-entry';

/**
 * An EVM payout replaced at a higher fee (functions/networks/evm/nonce-sequence.ts withReplacement)
 * keeps its earlier versions in `transaction.replacedTxHashes`, and any one of them may be the one
 * mined. Reconcile reads the ledger side from the table (reconciliation-store.ts) and counts the
 * payout in flight when any version succeeded: the first version mined, not yet final, must not read
 * as the hot wallet short by the payout.
 */
const env = useFreshTable();
const HOT = '0x1111111111111111111111111111111111111111';
const FIRST = `0x${'a'.repeat(64)}`;
const SECOND = `0x${'b'.repeat(64)}`;
const NEWEST = `0x${'c'.repeat(64)}`;

const mined = (txHash: string): TransactionReceipt => ({ txHash, blockNumber: 10, blockHash: '0x01', result: 'SUCCESS', tokenTransfers: [] });

/** Ethereum as reconcile reads it: the hot wallet's USDT and the receipts of the versions mined. */
function ethereum(hotWalletUsdt: bigint, receipts: TransactionReceipt[]): NetworkReconcileSources {
  return {
    network: 'ethereum',
    hotWalletAddress: async () => HOT,
    usdtBalances: async (addresses) => new Map(addresses.map((address) => [address, address === HOT ? hotWalletUsdt : 0n])),
    receipt: async (txHash) => receipts.find((receipt) => receipt.txHash === txHash) ?? null,
  };
}

describe('reconcile with an EVM payout replaced at a higher fee', () => {
  it('counts the payout in flight, once, when an earlier version is the one mined; before any is mined the hot wallet still holds it', async () => {
    // A company as made (its balance's shard 0 with it, which a withdrawal's hold writes to).
    const { company: { id: companyId } } = await createCompany(new DynamoCompanyStore(env.db, env.tableName), { name: 'Replaced Payout Co', environment: 'sandbox' }, new Date());
    // 100 USDT credited on Ethereum, swept to the hot wallet; a payout of 40, sent and replaced twice.
    await creditAvailable(env.db, env.tableName, companyId, 'USDT', '100', 'ethereum');
    const store = new DynamoWithdrawalStore(env.db, env.tableName);
    const rules = { fee: 0n, minimum: usdt('1'), networks: { ethereum: {} }, contracts: () => [] };
    const withdrawal = await requestWithdrawal(store, rules, companyId, { reference: 'out', network: 'ethereum', address: '0x2222222222222222222222222222222222222222', amount: usdt('40') });
    const processing: Withdrawal = {
      ...withdrawal,
      status: 'processing',
      txHash: NEWEST,
      transaction: { signed: '0x', expiresAt: null, broadcastAt: new Date().toISOString(), nonce: 7, replacedTxHashes: [FIRST, SECOND] },
    };
    await env.db.send(new PutCommand({ TableName: env.tableName, Item: withdrawalItem.toItem(processing) }));
    const reconcileWith = (chain: NetworkReconcileSources) => reconcileHoldings({ ledger: () => ledgerSide(env.db, env.tableName, 'unswept'), networks: [chain] });

    // No version mined yet: the 40 is still in the hot wallet, nothing in flight.
    const waiting = await reconcileWith(ethereum(usdt('100'), []));
    expect(waiting, reconciliationReport(waiting)).toMatchObject({ inFlightUsdt: 0n, onChain: usdt('100'), owed: usdt('100'), balanced: true });

    // The first version mined (the newest never will be): 40 left the hot wallet and is in flight.
    const firstMined = await reconcileWith(ethereum(usdt('60'), [mined(FIRST)]));
    const report = reconciliationReport(firstMined);
    expect(firstMined, report).toMatchObject({ inFlightUsdt: usdt('40'), onChain: usdt('60'), owed: usdt('60'), difference: 0n, balanced: true, mismatch: null });
    expect(firstMined.networks[0], report).toMatchObject({ network: 'ethereum', inFlightUsdt: usdt('40'), difference: 0n, balanced: true, mismatch: null });
    expect(report).toMatch(/- sent, not yet settled\s+40\.000000/);
    expect(report).not.toContain('MISMATCH');

    // A version in the middle mined instead: the same.
    const secondMined = await reconcileWith(ethereum(usdt('60'), [mined(SECOND)]));
    expect(secondMined, reconciliationReport(secondMined)).toMatchObject({ inFlightUsdt: usdt('40'), balanced: true });
  });
});

describe('reconcile while a payout settles under its Scan', () => {
  // A table of its own: reconcile reads every company in it.
  const own = useFreshTable();
  it('balances when the payout completes after the Scan read its company’s entries and before it reads the withdrawal', async () => {
    const { company: { id: companyId } } = await createCompany(new DynamoCompanyStore(own.db, own.tableName), { name: 'Settling Payout Co', environment: 'sandbox' }, new Date());
    await creditAvailable(own.db, own.tableName, companyId, 'USDT', '100', 'ethereum');
    const rules = { fee: 0n, minimum: usdt('1'), networks: { ethereum: {} }, contracts: () => [] };
    const withdrawal = await requestWithdrawal(new DynamoWithdrawalStore(own.db, own.tableName), rules, companyId, { reference: 'settling', network: 'ethereum', address: '0x2222222222222222222222222222222222222222', amount: usdt('40') });
    const processing: Withdrawal = { ...withdrawal, status: 'processing', txHash: FIRST, transaction: { signed: '0x', expiresAt: null, broadcastAt: new Date().toISOString(), nonce: 8 } };
    await own.db.send(new PutCommand({ TableName: own.tableName, Item: withdrawalItem.toItem(processing) }));
    const holdAt = Date.parse(withdrawal.createdAt);

    // The Scan a page an item, as a large table reads; once it has read the hold's entry, the sender
    // completes the payout. Its completion entry lands where the Scan has passed (dated before the
    // hold here, as on a table whose Scan has moved past the company's entries), so the Scan reads
    // the balance and the entries from before the completion and the withdrawal from after it.
    let completed = false;
    const racing = new Proxy(own.db, {
      get(target, property, receiver) {
        if (property !== 'send') return Reflect.get(target, property, receiver);
        return async (command: { input: object }) => {
          if (!(command instanceof ScanCommand)) return target.send(command as never);
          const page = await target.send(new ScanCommand({ ...command.input, Limit: 1 }));
          const holdRead = (page.Items ?? []).some((item) => ledgerEntryItem.isOne(item) && item.reference === `withdrawal:${withdrawal.id}:hold`);
          if (holdRead && !completed) {
            completed = true;
            const change = complete(processing, new Date(holdAt - 1_000));
            await new DynamoWithdrawalSendingStore(own.db, own.tableName, 'ethereum').transition(processing, change.after, change);
          }
          return page;
        };
      },
    }) as DynamoDBDocumentClient;

    // The payout mined: the hot wallet holds 60 of the 100.
    const result = await reconcileHoldings({ ledger: () => ledgerSide(racing, own.tableName, 'unswept'), networks: [ethereum(usdt('60'), [mined(FIRST)])] });
    expect(completed).toBe(true);
    expect(result, reconciliationReport(result)).toMatchObject({ inFlightUsdt: usdt('40'), onChain: usdt('60'), owed: usdt('60'), balanced: true });
    // Read again, settled: nothing in flight, still balanced.
    const after = await reconcileHoldings({ ledger: () => ledgerSide(own.db, own.tableName, 'unswept'), networks: [ethereum(usdt('60'), [mined(FIRST)])] });
    expect(after, reconciliationReport(after)).toMatchObject({ inFlightUsdt: 0n, owed: usdt('60'), balanced: true });
  });
});
