import { PutCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AccountBalances, EXTERNAL_ACCOUNTS, networkAccount } from '#functions/ledger/ledger';
import type { EveryDepositAddressListing, LedgerSide, SweepInFlightReader } from '#functions/ledger/reconciliation';
import { chainTransferItem } from './items/chain-transfer.ts';
import { depositAddressItem, depositAddressListedItem } from './items/deposit-address.ts';
import { dustTransferItem } from './items/dust-transfer.ts';
import { batchGetAll, gsi1Partition, pagesOf, readItem } from './queries.ts';
import { ledgerEntryItem } from './items/ledger-entry.ts';
import { depositItem } from './items/deposit.ts';
import { withdrawalItem } from './items/withdrawal.ts';
import { reconcileAddressTurnItem } from './items/reconcile-address-turn.ts';
import { depositAddressesListedAfter, depositAddressesListedSince } from './deposit-address-listing.ts';
import { NETWORK_NAMES, type NetworkName } from '#functions/networks/names';
import { networkNamed } from '#functions/networks/registry';
import { SWEEPS_IN_FLIGHT } from '#functions/networks/record-registry';

/**
 * Which deposit addresses the ledger side lists on each network: `unswept`, those that may still
 * hold USDT the ledger counts (sparse GSI1 partitions, see unsweptDepositAddresses), and on the
 * networks `every` names every address of the network's form ever issued as well (the whole
 * deposit address listing), for a sandbox chain, which answers any number of balances in one read
 * (NetworkChains.reconcileSources readsAllBalancesAtOnce). The networks that read beyond the list
 * on a real chain read a page of the listing a run instead (LedgerSide.everyDepositAddress).
 */
export type AddressScope = 'unswept' | { every: readonly NetworkName[] };

/** A withdrawal's settling entry: `withdrawal:<id>:completed` or `:failed` (functions/withdrawals/withdrawal-sending.ts). */
const SETTLING_REFERENCE = /^withdrawal:([^:]+):(?:completed|failed)$/;
/** Every company account (companyAccount: `company:<id>:<bucket>`). */
const COMPANY_ACCOUNT_PREFIX = 'company:';

/** Segments of the ledger side's parallel Scan, read side by side: its time is the largest
 * segment's, about the table's size over this. */
export const LEDGER_SCAN_SEGMENTS = 8;

/** Each family's sweep record's `type` (sweepInFlightReader): the Scan's filter keeps them. */
const SWEEP_RECORD_TYPES = SWEEPS_IN_FLIGHT.map((reader) => {
  const { recordType } = reader as Partial<SweepInFlightReader>;
  if (!recordType) throw new Error("A family's sweep-in-flight reader names no record type (sweepInFlightReader): reconcile's Scan would never read its sweeps");
  return recordType;
});

/** The kinds of item the ledger side reads: every other item (deposits, addresses, events, webhook
 * attempts: most of a grown table) is left on the server by the Scan's filter, never sent nor
 * unmarshalled. Read capacity is still spent on them: a Scan reads before it filters. */
const LEDGER_SIDE_TYPES = [ledgerEntryItem.type, withdrawalItem.type, dustTransferItem.type, ...SWEEP_RECORD_TYPES];

/**
 * The ledger side of reconciliation. The companies' USDT and Cambio's own accounts come from the
 * ledger entries of one full Scan: no index lists every company's entries, and the fee and desk
 * accounts exist only as postings in them. (That each Balance item equals its entries is the
 * ledger's own check, `npm run ledger:csv`.) An operator's tool run hourly or on demand (and on a DynamoDB export by
 * finance), never on a request path. The addresses come from GSI1 queries made after the Scan,
 * so that a transfer credited before its balance was read is found (reconcileHoldings).
 *
 * The Scan is a parallel one (LEDGER_SCAN_SEGMENTS segments read side by side), filtered on `type`
 * to the kinds it reads (LEDGER_SIDE_TYPES). No projection: what it keeps is read whole by each
 * record's fromItem, and a ledger entry, most of what it keeps, holds nothing else but its keys.
 */
export async function ledgerSide(db: DynamoDBDocumentClient, tableName: string, scope: AddressScope): Promise<LedgerSide> {
  const postings = new AccountBalances();
  const processing: LedgerSide['processing'] = [];
  const sweepsInFlight: NonNullable<LedgerSide['sweepsInFlight']> = [];
  const dust: NonNullable<LedgerSide['dust']> = {};
  const filter = {
    FilterExpression: `#type IN (${LEDGER_SIDE_TYPES.map((_, i) => `:type${i}`).join(', ')})`,
    ExpressionAttributeNames: { '#type': 'type' },
    ExpressionAttributeValues: Object.fromEntries(LEDGER_SIDE_TYPES.map((type, i) => [`:type${i}`, type])),
  };
  /*
   * A withdrawal is judged against the ledger entries the Scan read before it: a partition's
   * entries (LEDGER#…) sort before its withdrawals (WITHDRAWAL#…), so by a company's withdrawals
   * the Scan has read its entries, and one `completed` whose settling entry it did not read settled
   * after they were read and is still owed by them (in flight). That stays true of a parallel Scan
   * because a segment is a range of partition keys' hashes: every item of a partition is in one
   * segment, which returns them in sort-key order, a page after another. Pages of different
   * segments interleave, so the partition being read and the settling entries read in it are kept
   * per segment (each segment's own loop below), never across segments. The filter keeps that
   * order (it drops items, it does not reorder them), and a partition's items stay together.
   */
  const readSegment = async (Segment: number) => {
    let partition: unknown;
    const settledInEntries = new Set<string>();
    // A page at a time: memory holds a page a segment, not the table.
    const scan = (ExclusiveStartKey: Record<string, unknown> | undefined) =>
      new ScanCommand({ TableName: tableName, ExclusiveStartKey, ConsistentRead: true, Segment, TotalSegments: LEDGER_SCAN_SEGMENTS, ...filter });
    for await (const page of pagesOf(db, scan)) {
      for (const item of page) {
        if (item.PK !== partition) {
          partition = item.PK;
          settledInEntries.clear();
        }
        if (ledgerEntryItem.isOne(item)) {
          const entry = ledgerEntryItem.fromItem(item);
          postings.add(entry);
          const settled = SETTLING_REFERENCE.exec(entry.reference);
          if (settled) settledInEntries.add(settled[1]!);
        } else if (dustTransferItem.isOne(item)) {
          const { network, address, amount } = dustTransferItem.fromItem(item);
          (dust[network] ??= []).push({ address, amount });
        } else if (withdrawalItem.isOne(item)) {
          const withdrawal = withdrawalItem.fromItem(item);
          // Still owed by the entries read: processing, or completed since they were read (a payout
          // settling while the Scan crossed the partition). Every version of a payout replaced at a
          // higher fee (EVM): any one of them may be the one mined.
          const unsettledInEntries = withdrawal.status === 'processing' || (withdrawal.status === 'completed' && !settledInEntries.has(withdrawal.id));
          if (unsettledInEntries && withdrawal.txHash)
            processing.push({ network: withdrawal.network, txHashes: [withdrawal.txHash, ...(withdrawal.transaction?.replacedTxHashes ?? [])], amount: withdrawal.amount });
        } else {
          // A family's own sweep records (functions/networks/record-registry.ts).
          for (const inFlight of SWEEPS_IN_FLIGHT) {
            const sweep = inFlight(item);
            if (sweep) sweepsInFlight.push(sweep);
          }
        }
      }
    }
  };
  await Promise.all(Array.from({ length: LEDGER_SCAN_SEGMENTS }, (_, segment) => readSegment(segment)));
  // The companies' USDT as the entries read add up, not their Balance items: those are read before
  // the entries (BALANCE#… sorts first), so a payout settling between the two reads would be owed by
  // the balance and settled by the entries, a false shortfall every run while payouts flow.
  let companiesUsdt = 0n;
  for (const { account, currency, balance } of postings.all()) if (currency === 'USDT' && account.startsWith(COMPANY_ACCOUNT_PREFIX)) companiesUsdt += balance;
  const treasuryUsdt = [EXTERNAL_ACCOUNTS.networkFees, EXTERNAL_ACCOUNTS.conversionDesk, EXTERNAL_ACCOUNTS.hotWalletFloat, EXTERNAL_ACCOUNTS.tokenFees].reduce(
    (sum, account) => sum + postings.of(account, 'USDT'),
    0n,
  );
  // Only on a sandbox chain (AddressScope): the whole listing, read after the Scan as the GSI1 lists are.
  const everyListed = scope === 'unswept' || scope.every.length === 0 ? [] : (await depositAddressesListedSince(db, tableName, null)).map(({ address }) => address);
  const netInflowUsdt: LedgerSide['netInflowUsdt'] = {};
  const depositAddresses: LedgerSide['depositAddresses'] = {};
  for (const network of NETWORK_NAMES) {
    // Deposits credit a company from `external:<network>`, and a float Cambio's own account; payouts on it go back there.
    netInflowUsdt[network] = -postings.of(networkAccount(network), 'USDT');
    const unswept = await unsweptDepositAddresses(db, tableName, network);
    const every = scope !== 'unswept' && scope.every.includes(network) ? everyListed.filter((address) => networkNamed(network).address.is(address)) : [];
    depositAddresses[network] = every.length > 0 ? [...new Set([...every, ...unswept])] : unswept;
  }
  return { companiesUsdt, treasuryUsdt, netInflowUsdt, processing, sweepsInFlight, depositAddresses, everyDepositAddress: everyDepositAddressListing(db, tableName), dust };
}

/**
 * Every deposit address Cambio made, as reconcile reads it a page a run (EveryDepositAddressListing):
 * the deposit address listing (items/deposit-address.ts `DepositAddressListed`, the one partition
 * the scanner's filter and the sweepers page through too), and where the turn through it stands,
 * one item (items/reconcile-address-turn.ts).
 */
export function everyDepositAddressListing(db: DynamoDBDocumentClient, tableName: string): EveryDepositAddressListing {
  return {
    turn: async () => {
      const item = await readItem(db, tableName, reconcileAddressTurnItem.key());
      return item === null ? null : reconcileAddressTurnItem.fromItem(item);
    },
    listedAfter: async (after, before, limit) => {
      const until = depositAddressListedItem.from(before);
      const entries: { address: string; sortKey: string }[] = [];
      // One Query answers 1 MB at most (some 4,000 entries), fewer than a page: on from the last
      // entry read until the page is full or a Query finds nothing more, so a short page is the
      // listing's end. A place at or past the bound (a clock set back since it was kept) has
      // nothing before the bound after it: the turn ends there.
      for (let from = after; entries.length < limit && (from === null || from < until); ) {
        const read = await depositAddressesListedAfter(db, tableName, from, before, limit - entries.length);
        if (read.length === 0) break;
        entries.push(...read);
        from = read.at(-1)!.sortKey;
      }
      return entries;
    },
    keepTurn: async (turn) => {
      await db.send(new PutCommand({ TableName: tableName, Item: reconcileAddressTurnItem.toItem(turn, new Date().toISOString()) }));
    },
  };
}

/**
 * A network's deposit addresses that may still hold USDT a company was credited with: a transfer still
 * confirming (pending), confirmed funds the sweeper has not yet moved (sweep due), an amount
 * the sweeper left below its minimum, an address set aside because the issuer froze it, or a transfer
 * held there (a frozen address, a sanctioned payer). Each is a sparse GSI1 partition, so the cost follows the
 * funds waiting on deposit addresses, not the number of addresses ever issued.
 */
export async function unsweptDepositAddresses(db: DynamoDBDocumentClient, tableName: string, network: NetworkName): Promise<string[]> {
  const partition = (GSI1PK: string) => gsi1Partition(db, tableName, GSI1PK);
  const [due, belowMinimum, frozen, confirming, held] = await Promise.all([
    partition(depositAddressItem.sweepDuePartition(network)),
    partition(depositAddressItem.belowMinimumPartition(network)),
    partition(depositAddressItem.frozenPartition(network)),
    partition(chainTransferItem.confirmingPartition(network)),
    partition(chainTransferItem.heldPartition(network)),
  ]);
  // A chain transfer names its deposit, not the address: one BatchGet of those deposits.
  const depositKeys = new Map(
    [...confirming, ...held].map(chainTransferItem.fromItem).map(({ companyId, depositId }) => {
      const key = depositItem.key(companyId, depositId);
      return [`${key.PK}|${key.SK}`, key];
    }),
  );
  const confirmingOn = (await batchGetAll(db, tableName, [...depositKeys.values()])).map((item) => depositItem.fromItem(item).address);
  const marked = [...due, ...belowMinimum, ...frozen].map(depositAddressItem.addressOf);
  return [...new Set([...marked, ...confirmingOn])];
}
