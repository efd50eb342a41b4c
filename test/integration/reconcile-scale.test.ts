import { describe, expect, it } from 'vitest';
import { BatchWriteCommand, ScanCommand, type DynamoDBDocumentClient, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { useFreshTable, type TestTable } from '../support/dynamo.ts';
import { usdt } from '../support/money.ts';
import { companyAccount, EXTERNAL_ACCOUNTS, networkAccount, type LedgerEntry, type Posting } from '#functions/ledger/ledger';
import type { Withdrawal } from '#functions/withdrawals/withdrawals';
import { EVERY_ADDRESS_PAGE, reconcileHoldings, type NetworkReconcileSources } from '#functions/ledger/reconciliation';
import { ledgerSide, LEDGER_SCAN_SEGMENTS } from '#adapters/dynamo/reconciliation-store';
import { ledgerEntryItem } from '#adapters/dynamo/items/ledger-entry';
import { withdrawalItem } from '#adapters/dynamo/items/withdrawal';
import { dustTransferItem } from '#adapters/dynamo/items/dust-transfer';
import { depositAddressItem, depositAddressListedItem } from '#adapters/dynamo/items/deposit-address';
import { reconcileAddressTurnItem } from '#adapters/dynamo/items/reconcile-address-turn';
import { readItem } from '#adapters/dynamo/queries';
import { sweepItem } from '#functions/networks/tron/sweep-record';
import type { Item } from '#adapters/dynamo/items/item';

/**
 * Reconcile on a grown stage (functions/adapters/dynamo/reconciliation-store.ts), against DynamoDB
 * Local. The ledger side's Scan read every item of every company, one segment, and a stage of
 * ~3M items outran the job's 5 minutes before any chain was read: it is now a parallel Scan,
 * filtered on `type` to the kinds it reads, whose figures must be those the whole Scan gave. And
 * the deposit addresses a network reads beyond the ledger's list come a page a run from the
 * deposit address listing, the turn kept in the table.
 */

const T0 = Date.parse('2026-12-01T00:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

async function putAll(table: TestTable, items: Item[]): Promise<void> {
  for (let start = 0; start < items.length; start += 25) {
    await table.db.send(new BatchWriteCommand({ RequestItems: { [table.tableName]: items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })) } }));
  }
}

/**
 * A client that sends every Scan as pages of two items (as a large table's pages end mid-partition,
 * so the segments' pages interleave within each company's items), and records each Scan's input and
 * the types of the items it was sent.
 */
function inspectingScans(db: DynamoDBDocumentClient) {
  const scans: ScanCommandInput[] = [];
  const typesSent = new Set<unknown>();
  const client = new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return async (command: { input: object }) => {
        if (!(command instanceof ScanCommand)) return target.send(command as never);
        scans.push(command.input);
        const page = await target.send(new ScanCommand({ ...command.input, Limit: 2 }));
        for (const item of page.Items ?? []) typesSent.add(item.type);
        return page;
      };
    },
  }) as DynamoDBDocumentClient;
  return { client, scans, typesSent };
}

describe("reconcile's ledger side on a table of many companies", () => {
  const env = useFreshTable();

  const COMPANIES = 12;
  const entry = (companyId: string, id: string, reference: string, postings: Posting[], network?: LedgerEntry['network']): Item =>
    ledgerEntryItem.toItem({ id, companyId, reference, postings, createdAt: at(1), ...(network && { network }) });
  const posting = (source: string, destination: string, amount: bigint): Posting => ({ source, destination, currency: 'USDT', amount });
  const withdrawal = (companyId: string, id: string, status: Withdrawal['status'], txHash: string | null, replacedTxHashes?: string[]): Item =>
    withdrawalItem.toItem({
      id,
      companyId,
      method: 'usdt',
      reference: id,
      network: 'ethereum',
      address: '0x2222222222222222222222222222222222222222',
      amount: usdt('2'),
      fee: usdt('1'),
      status,
      txHash,
      deliveredAmount: null,
      networkCost: null,
      failureReason: null,
      createdAt: at(2),
      updatedAt: at(3),
      completedAt: null,
      transaction: txHash ? { signed: '0x', expiresAt: null, broadcastAt: at(2), nonce: 1, ...(replacedTxHashes && { replacedTxHashes }) } : null,
      limitDay: null,
    });

  /**
   * Each company: 10 + i USDT credited on TRON and 5 on Ethereum; three payouts of 2 (fee 1) held
   * from available: one processing, one completed and settled in the ledger, one completed whose
   * settling entry is not there (it settled while the Scan crossed the partition: still in flight),
   * and one failed. Beside them, the items a grown table is mostly made of, which the ledger side
   * does not read: events, deposits' addresses.
   */
  function companyItems(i: number): Item[] {
    const companyId = `cmp_${String(i).padStart(2, '0')}`;
    const available = companyAccount(companyId, 'available');
    const locked = companyAccount(companyId, 'locked');
    const hold = (id: string) => entry(companyId, `le_${id}_hold`, `withdrawal:${id}:hold`, [posting(available, locked, usdt('3'))], 'ethereum');
    const settle = (id: string) =>
      entry(companyId, `le_${id}_done`, `withdrawal:${id}:completed`, [posting(locked, networkAccount('ethereum'), usdt('2')), posting(locked, EXTERNAL_ACCOUNTS.networkFees, usdt('1'))], 'ethereum');
    const fail = (id: string) => entry(companyId, `le_${id}_failed`, `withdrawal:${id}:failed`, [posting(locked, available, usdt('3'))], 'ethereum');
    const [processing, settled, racing, failed] = ['processing', 'settled', 'racing', 'failed'].map((kind) => `wd_${kind}_${i}`) as [string, string, string, string];
    return [
      entry(companyId, 'le_0_tron', `deposit:${i}:tron`, [posting(networkAccount('tron'), available, usdt(String(10 + i)))], 'tron'),
      entry(companyId, 'le_0_eth', `deposit:${i}:eth`, [posting(networkAccount('ethereum'), available, usdt('5'))], 'ethereum'),
      hold(processing),
      hold(settled),
      settle(settled),
      hold(racing),
      hold(failed),
      fail(failed),
      withdrawal(companyId, processing, 'processing', `0xprocessing${i}`, [`0xprocessing${i}-replaced`]),
      withdrawal(companyId, settled, 'completed', `0xsettled${i}`),
      withdrawal(companyId, racing, 'completed', `0xracing${i}`),
      withdrawal(companyId, failed, 'failed', `0xfailed${i}`),
      ...Array.from({ length: 3 }, (_, n) => ({ PK: `COMPANY#${companyId}`, SK: `EVENT#evt_${n}`, type: 'Event', payload: '{}' })),
      depositAddressItem.toItem({ address: `TAddress${i}`, addressIndex: i, companyId, id: `dep_${i}`, createdAt: at(0) }),
    ];
  }

  it('reads it with a parallel Scan filtered on type, and finds the figures and the payouts in flight the whole Scan found', async () => {
    await putAll(env, [
      ...Array.from({ length: COMPANIES }, (_, i) => companyItems(i)).flat(),
      dustTransferItem.toItem({ network: 'bsc', txHash: '0xdust', eventIndex: 0, blockNumber: 1, blockHash: '0x01', address: '0x3333333333333333333333333333333333333333', amount: 7n, recordedAt: at(4) }),
      sweepItem.toItem({
        address: 'TSweptAddress',
        addressIndex: 1,
        amount: usdt('9'),
        status: 'sweeping',
        topUpTxHash: null,
        sweepTxHash: '0xsweep',
        reclaimTxHash: null,
        reclaimedSun: null,
        reclaimAttempts: 0,
        takenOffCounts: null,
        stepExpiresAt: null,
        failureReason: null,
        createdAt: at(5),
        updatedAt: at(5),
      }),
    ]);
    const { client, scans, typesSent } = inspectingScans(env.db);

    const ledger = await ledgerSide(client, env.tableName, 'unswept');

    // Segments read side by side, each to its end; only the kinds it reads are sent.
    for (const scan of scans) {
      expect(scan.TotalSegments ?? 1).toBeGreaterThan(1);
      expect(scan.FilterExpression).toMatch(/#type IN \(/);
      expect(scan.TotalSegments).toBe(LEDGER_SCAN_SEGMENTS);
      expect(scan.ExpressionAttributeNames).toMatchObject({ '#type': 'type' });
      expect(Object.values(scan.ExpressionAttributeValues ?? {})).toEqual(expect.arrayContaining(['LedgerEntry', 'Withdrawal', 'DustTransfer', 'Sweep', 'EvmSweep', 'SolanaSweep']));
    }
    expect(scans.length).toBeGreaterThan(LEDGER_SCAN_SEGMENTS);
    expect(new Set(scans.map((scan) => scan.Segment))).toEqual(new Set(Array.from({ length: LEDGER_SCAN_SEGMENTS }, (_, segment) => segment)));
    expect([...typesSent].sort()).toEqual(['DustTransfer', 'LedgerEntry', 'Sweep', 'Withdrawal']);

    // What the whole Scan gave: each company's credits less its settled payout (2 + 1 fee); the fee
    // is Cambio's; TRON took in the credits, Ethereum its 5s less the payouts sent.
    const credited = Array.from({ length: COMPANIES }, (_, i) => usdt(String(10 + i)) + usdt('5')).reduce((sum, value) => sum + value, 0n);
    expect(ledger.companiesUsdt).toBe(credited - BigInt(COMPANIES) * usdt('3'));
    expect(ledger.treasuryUsdt).toBe(BigInt(COMPANIES) * usdt('1'));
    expect(ledger.netInflowUsdt.tron).toBe(Array.from({ length: COMPANIES }, (_, i) => usdt(String(10 + i))).reduce((sum, value) => sum + value, 0n));
    expect(ledger.netInflowUsdt.ethereum).toBe(BigInt(COMPANIES) * (usdt('5') - usdt('2')));
    // In flight: each company's processing payout (every version) and the one completed after its
    // entries were read; never the settled or the failed one, whichever segment read its company.
    const expected = Array.from({ length: COMPANIES }, (_, i) => [
      { network: 'ethereum', txHashes: [`0xprocessing${i}`, `0xprocessing${i}-replaced`], amount: usdt('2') },
      { network: 'ethereum', txHashes: [`0xracing${i}`], amount: usdt('2') },
    ]).flat();
    const byTx = (a: { txHashes: string[] }, b: { txHashes: string[] }) => a.txHashes[0]!.localeCompare(b.txHashes[0]!);
    expect([...ledger.processing].sort(byTx)).toEqual(expected.sort(byTx));
    expect(ledger.sweepsInFlight).toEqual([{ network: 'tron', txHashes: ['0xsweep'], amount: usdt('9') }]);
    expect(ledger.dust).toEqual({ bsc: [{ address: '0x3333333333333333333333333333333333333333', amount: 7n }] });
    // Nothing marked as holding USDT: no address is listed.
    expect(ledger.depositAddresses.tron).toEqual([]);
  });
});

describe('every deposit address, a page a run, the turn kept in the table', () => {
  const env = useFreshTable();

  it("reads the listing a page a run from where the last run stopped, wraps round at its end, and keeps the turn's figures", async () => {
    // A page and 10 more EVM addresses, and a TRON one no EVM network reads, listed in the order made.
    const evm = Array.from({ length: EVERY_ADDRESS_PAGE + 10 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
    const listed = [...evm.slice(0, 3), 'TTronAddressNoEvmNetworkReads', ...evm.slice(3)];
    await putAll(
      env,
      listed.map((address, i) => depositAddressListedItem.toItem({ address, addressIndex: i, companyId: 'cmp_1', id: `dep_${i}`, createdAt: at(i) })),
    );
    const read: string[] = [];
    const ethereum: NetworkReconcileSources = {
      network: 'ethereum',
      hotWalletAddress: async () => '0x1111111111111111111111111111111111111111',
      usdtBalances: async (addresses) => {
        read.push(...addresses.filter((address) => address !== '0x1111111111111111111111111111111111111111'));
        return new Map(addresses.map((address) => [address, 0n]));
      },
      receipt: async () => null,
      readsEveryDepositAddressOf: (address) => address.startsWith('0x'),
    };
    const run = (hour: number) => reconcileHoldings({ ledger: () => ledgerSide(env.db, env.tableName, 'unswept'), networks: [ethereum], now: () => new Date(T0 + (listed.length + hour * 3600) * 1000) });

    const first = await run(1);
    expect(read).toEqual(listed.slice(0, EVERY_ADDRESS_PAGE).filter((address) => address.startsWith('0x')));
    expect(first.everyDepositAddress).toMatchObject({ read: EVERY_ADDRESS_PAGE, completedTurn: false, turn: { entries: EVERY_ADDRESS_PAGE, runs: 1 }, lastTurn: null });
    const kept = reconcileAddressTurnItem.fromItem((await readItem(env.db, env.tableName, reconcileAddressTurnItem.key()))!);
    expect(kept).toMatchObject({ after: depositAddressListedItem.sortKeyOf(depositAddressListedItem.toItem({ address: listed[EVERY_ADDRESS_PAGE - 1]!, addressIndex: 0, companyId: '', id: '', createdAt: at(EVERY_ADDRESS_PAGE - 1) })), runs: 1 });

    read.length = 0;
    const second = await run(2);
    expect(read).toEqual(listed.slice(EVERY_ADDRESS_PAGE));
    expect(second.everyDepositAddress).toMatchObject({ read: listed.length - EVERY_ADDRESS_PAGE, completedTurn: true, lastTurn: { entries: listed.length, runs: 2 } });

    read.length = 0;
    const third = await run(3);
    expect(read).toEqual(listed.slice(0, EVERY_ADDRESS_PAGE).filter((address) => address.startsWith('0x')));
    expect(third.everyDepositAddress).toMatchObject({ completedTurn: false, turn: { runs: 1 }, lastTurn: { entries: listed.length, runs: 2 } });
  }, 120_000);
});
