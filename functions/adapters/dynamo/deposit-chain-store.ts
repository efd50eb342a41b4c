import { DeleteCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DepositChainStore } from '#functions/deposits/deposit-chain';
import type { ScanCursor } from '#functions/deposits/deposit-scan';
import type { AddressOwner, ListedDepositAddress, ListingPage } from '#functions/deposits/deposit-address-filter';
import { keepsSanctionedMoneyInPlace, transferId, type DepositChange, type TransferKey, type TransferRecord } from '#functions/deposits/deposit-transitions';
import type { Deposit } from '#functions/deposits/deposits';
import { balanceChanges, subjectOf, type LedgerEntry } from '#functions/ledger/ledger';
import { changeOf, shardsWrittenUnread } from './balance-shards.ts';
import { chainTransferItem, scanCursorItem, scanRescanItem } from './items/chain-transfer.ts';
import type { Item } from './items/item.ts';
import { dustTransferItem } from './items/dust-transfer.ts';
import type { DustTransfer } from '#functions/deposits/dust';
import { depositAddressCounts, depositAddressItem } from './items/deposit-address.ts';
import { batchGetAll, gsi1Partition, heldCondition, queryAll, readItem } from './queries.ts';
import { MoneyTransaction, stale } from './transaction.ts';
import { DynamoDepositAddressListing } from './deposit-address-listing.ts';
import { depositItem } from './items/deposit.ts';
import { auditEntryItem } from './items/audit-entry.ts';
import { withdrawalItem, withdrawalReferenceItem } from './items/withdrawal.ts';
import { TableStore } from './table-store.ts';
import type { NetworkName } from '#functions/networks/names';
import { allowlistReader, underGuard } from './withdrawal-allowlist-store.ts';

class VersionConflict extends Error {}
class DuplicateTransfer extends Error {}
class ChainInvariantBroken extends Error {}

/** DynamoDB's 100 items a transaction. A deposit's debits are of `pending` and `held`, which are
 * on shard 0 (balance-shards.ts shardsOfSubject) as every balance's were before it was spread, so
 * one placed again from a read lands on that same item and the count holds. */
const MAX_TRANSACTION_ITEMS = 100;
/** Deposit changes a transaction carries at most (config/hot-items.ts counts shard 0's writes by it). */
export const MAX_CHANGES_PER_WRITE = 25;

/** What addChange and the ledger write for one change, balance updates aside. */
function itemsWrittenBy(change: DepositChange): number {
  return (
    1 +
    (change.transfer ? 1 : 0) +
    (depositAddressListing(change) !== null || change.unsweptCredit !== undefined || change.sweepable !== undefined ? 1 : 0) +
    change.entries.length +
    change.events.length +
    (change.splitForward ? 3 : 0) +
    (change.audit ? 1 : 0)
  );
}

/**
 * Where a change puts its deposit's address among the sweeper's lists (GSI1 of its DepositAddress item):
 * - `due`: confirmed funds now sit there, for the sweeper to move to the hot wallet; also a transfer
 *   held because the issuer froze the address: the sweeper's next run finds the freeze and sets the
 *   address aside, taking back in the same write any credit still there (frozen-addresses.ts), which
 *   a move straight to the set-aside list would skip;
 * - `frozen`: set aside by the sweeper (freezeCredit), on the list the alarm counts;
 * - `kept`: a sanctioned payer's money is held there, so the address leaves every list until a
 *   person decides (keepsSanctionedMoneyInPlace), and neither of the others puts it back meanwhile.
 * Reconcile still reads it, from the held transfer.
 */
function depositAddressListing(change: DepositChange): 'due' | 'frozen' | 'kept' | null {
  const record = change.transfer?.record;
  // A sanctioned payer's money there keeps the address off every list, a freeze's or an unfreeze's
  // move included, until a person decides.
  if (keepsSanctionedMoneyInPlace(change.after)) return change.listing || (record?.status === 'held' && record.holdReason === 'sender_sanctioned') ? 'kept' : null;
  if (change.listing) return change.listing;
  if (!record) return null;
  return record.status === 'confirmed' || (record.status === 'held' && record.holdReason === 'address_frozen') ? 'due' : null;
}

/** The item a split's allowlist guard checks (underGuard): a transaction may name an item once, so
 * two splits checking the same one go in different writes. */
function guardedItemOf(change: DepositChange): string | null {
  const forward = change.splitForward;
  if (!forward) return null;
  return forward.guard.holds ? `address#${forward.withdrawal.companyId}#${forward.guard.entry.address}` : `allowlist#${forward.withdrawal.companyId}`;
}

/** The balance shards an entry writes when placed without a read (balance-shards.ts): a deposit's
 * pending on shard 0, its credit to `available` on its own. */
const balanceKeysOf = (entry: LedgerEntry): string[] =>
  [...balanceChanges(entry)].flatMap(([currency, deltas]) => shardsWrittenUnread(changeOf(entry.companyId, currency, subjectOf(entry), deltas, entry.createdAt)));

/** One network's deposit jobs: its transfers' records and its confirming partition alone, so a
 * poller never judges another network's transfers by its own chain. */
export class DynamoDepositChainStore extends TableStore implements DepositChainStore {
  constructor(
    db: DynamoDBDocumentClient,
    tableName: string,
    readonly network: NetworkName,
  ) {
    super(db, tableName);
  }

  /** The deposit address listing, the same for every network. */
  private readonly listing = new DynamoDepositAddressListing(this.db, this.tableName);

  allowlistFor(companyId: string, network: NetworkName, address: string) {
    return allowlistReader(this.db, this.tableName).allowlistFor(companyId, network, address);
  }

  ownersOf(addresses: string[]): Promise<Map<string, AddressOwner>> {
    return this.listing.ownersOf(addresses);
  }

  depositAddressesListed(since: string | null): Promise<ListedDepositAddress[]> {
    return this.listing.depositAddressesListed(since);
  }

  depositAddressesListedPage(after: string | null, limit: number): Promise<ListingPage> {
    return this.listing.depositAddressesListedPage(after, limit);
  }

  listsEveryAddress(): Promise<boolean> {
    return this.listing.listsEveryAddress();
  }

  /** Each one put unless already there (the scanner may see a final block twice): a few a day at
   * most. In the same write its base units are added to its address's (the sweeper's allowance for
   * a balance that sub-micro remainders round up: sweep-amount.ts), so once only. */
  async recordDust(dust: DustTransfer[]): Promise<void> {
    await Promise.all(
      dust.map((one) =>
        new MoneyTransaction(this.tableName)
          .put(dustTransferItem.toItem(one), { condition: 'attribute_not_exists(PK)', onFailed: stale })
          .update(depositAddressItem.key(one.address), depositAddressCounts.dustAdded(one.amount))
          .commitUnlessStale(this.db),
      ),
    );
  }

  async recordedTransfers(transfers: TransferKey[]): Promise<Set<string>> {
    const unique = [...new Map(transfers.map((t) => [transferId(t), chainTransferItem.key(this.network, t.txHash, t.eventIndex)])).values()];
    const items = await batchGetAll(this.db, this.tableName, unique);
    return new Set(
      items
        .map(chainTransferItem.fromItem)
        .filter((record) => record.status !== 'reversed')
        .map(transferId),
    );
  }

  async getDeposit(companyId: string, depositId: string): Promise<Deposit | null> {
    return this.companyRecordById(depositItem, companyId, depositId);
  }

  async getDeposits(owners: AddressOwner[]): Promise<Map<string, Deposit>> {
    const unique = [...new Map(owners.map((owner) => [owner.depositId, depositItem.key(owner.companyId, owner.depositId)])).values()];
    const items = await batchGetAll(this.db, this.tableName, unique, { consistent: true });
    return new Map(items.map(depositItem.fromItem).map((deposit) => [deposit.id, deposit]));
  }

  /** Packs changes into transactions of at most MAX_TRANSACTION_ITEMS, counting each balance
   * shard's update once per transaction; a seen transfer takes 4 items (deposit,
   * transfer record, ledger entry, event). The size cap keeps a transaction well under 4 MB. */
  inWrites(changes: DepositChange[]): DepositChange[][] {
    const writes: DepositChange[][] = [];
    let current: DepositChange[] = [];
    let items = 0;
    let balances = new Set<string>();
    let guarded = new Set<string>();
    for (const change of changes) {
      const changeBalances = [...new Set(change.entries.flatMap(balanceKeysOf))];
      const guard = guardedItemOf(change);
      const size = () => itemsWrittenBy(change) + changeBalances.filter((key) => !balances.has(key)).length;
      const full = items + size() > MAX_TRANSACTION_ITEMS || current.length >= MAX_CHANGES_PER_WRITE || (guard !== null && guarded.has(guard));
      if (current.length > 0 && full) {
        writes.push(current);
        current = [];
        items = 0;
        balances = new Set();
        guarded = new Set();
      }
      items += size();
      current.push(change);
      for (const key of changeBalances) balances.add(key);
      if (guard) guarded.add(guard);
    }
    if (current.length > 0) writes.push(current);
    return writes;
  }

  async applyChanges(changes: DepositChange[]): Promise<'applied' | 'conflict' | 'duplicate' | 'allowlist'> {
    const tx = new MoneyTransaction(this.tableName);
    const entries: LedgerEntry[] = [];
    for (const change of changes) {
      this.addChange(tx, change);
      entries.push(...change.entries);
    }
    if (entries.length > 0) {
      // Asked only when a balance fell short. A change that takes from `available` (a credit taken
      // back: freezeCredit) takes what a withdrawal may have spent since it was read: read again.
      // Anything else takes from `pending` or `held`, which only the deposit's own changes take from.
      const takesAvailable = () => entries.some((entry) => [...balanceChanges(entry).values()].some((deltas) => deltas.available < 0n));
      tx.ledgerEntries(entries, () =>
        takesAvailable() ? new VersionConflict() : new ChainInvariantBroken(`Pending balance below a transfer being settled (${entries.map((entry) => entry.reference).join(', ')})`),
      );
    }
    try {
      // 'allowlist': the list holds after all, or the address read was removed since; the split's guard is built again from a read.
      return (await tx.commitOrAnswer<'allowlist'>(this.db)) === 'written' ? 'applied' : 'allowlist';
    } catch (error) {
      if (error instanceof VersionConflict) return 'conflict';
      if (error instanceof DuplicateTransfer) return 'duplicate';
      throw error;
    }
  }

  /** Everything one change writes except its ledger entry, which applyChanges adds with the others. */
  private addChange(tx: MoneyTransaction, change: DepositChange): void {
    const now = change.after.updatedAt;
    tx.put(depositItem.toItem(change.after), {
      condition: 'version = :version',
      values: { ':version': change.before.version },
      onFailed: () => new VersionConflict(),
    });
    if (change.transfer?.write === 'record') {
      tx.put(chainTransferItem.toItem(change.transfer.record, now), {
        // A transfer reversed by a fork may be mined again later: then it counts again.
        condition: 'attribute_not_exists(PK) OR #status = :reversed',
        names: { '#status': 'status' },
        values: { ':reversed': 'reversed' },
        onFailed: () => new DuplicateTransfer(),
      });
    } else if (change.transfer?.write === 'update') {
      tx.put(chainTransferItem.toItem(change.transfer.record, now), {
        condition: '#status = :was',
        names: { '#status': 'status' },
        values: { ':was': change.transfer.was ?? 'confirming' },
        onFailed: () => new VersionConflict(),
      });
    }
    const listing = depositAddressListing(change);
    const addressKey = depositAddressItem.key(change.after.address);
    // The address's counts (depositAddressCounts.countsAdded): the credit still there, which
    // freezeCredit takes back if the address is frozen before it is swept, and what may be swept.
    const counts = depositAddressCounts.countsAdded({ credited: change.unsweptCredit, sweepable: change.sweepable, starts: change.sweepableCountStarts });
    const count = counts ? ` ${counts.clause}` : '';
    const countValues = counts?.values ?? {};
    if (listing === 'due') {
      const due = depositAddressItem.sweepDue(change.after.network, change.after.address);
      tx.update(addressKey, { expression: `SET GSI1PK = :pk, GSI1SK = :sk, sweepDueSince = :now${count}`, values: { ':pk': due.GSI1PK, ':sk': due.GSI1SK, ':now': now, ...countValues } });
    } else if (listing === null && counts) {
      tx.update(addressKey, { expression: counts.clause, values: counts.values });
    } else if (listing === 'frozen') {
      const frozen = depositAddressItem.frozen(change.after.network, change.after.address);
      tx.update(addressKey, { expression: 'SET GSI1PK = :pk, GSI1SK = :sk', values: { ':pk': frozen.GSI1PK, ':sk': frozen.GSI1SK } });
    } else if (listing === 'kept') {
      tx.update(addressKey, { expression: `REMOVE GSI1PK, GSI1SK, sweepDueSince${count}`, ...(counts && { values: counts.values }) });
    }
    for (const event of change.events) tx.event(event);
    if (change.audit) tx.put(auditEntryItem.toItem(change.audit), { condition: 'attribute_not_exists(PK)', onFailed: () => new ChainInvariantBroken('Audit entry id collision') });
    if (change.splitForward) {
      const { withdrawal, guard } = change.splitForward;
      underGuard(tx, withdrawal.companyId, guard)
        .create(withdrawalReferenceItem.toItem(withdrawal), () => new DuplicateTransfer())
        .create(withdrawalItem.toItem(withdrawal), () => new ChainInvariantBroken('Split withdrawal id collision'));
    }
  }

  async confirmingTransfers(): Promise<TransferRecord[]> {
    return this.transfersIn(chainTransferItem.confirmingPartition(this.network), 'confirming');
  }

  async heldTransfers(): Promise<TransferRecord[]> {
    return this.transfersIn(chainTransferItem.heldPartition(this.network), 'held');
  }

  /** The transfers listed in one of the network's GSI1 partitions that are still in its status:
   * the index is read eventually consistent, so a transfer that just moved on may still be listed. */
  private async transfersIn(GSI1PK: string, status: TransferRecord['status']): Promise<TransferRecord[]> {
    const items = await gsi1Partition(this.db, this.tableName, GSI1PK);
    return items.map(chainTransferItem.fromItem).filter((record) => record.status === status);
  }

  async creditedUnsweptAt(addresses: string[]): Promise<Map<string, bigint | null>> {
    const items = await batchGetAll(this.db, this.tableName, [...new Set(addresses)].map(depositAddressItem.key), { consistent: true });
    return new Map(items.map((item) => [depositAddressItem.addressOf(item), depositAddressItem.countedCreditOf(item)]));
  }

  async awaitingPaymentExpiredBy(by: Date): Promise<AddressOwner[]> {
    // One partition for every network: what is listed past its expiry is a few minutes' worth, as
    // each network's poller takes its own out every run, and the deposits the expiry keeps back while
    // their address holds USDT no scan recorded (expireDeposits), which the alarm asks to resolve.
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK < :by',
      FilterExpression: '#network = :network',
      ExpressionAttributeNames: { '#network': 'network' },
      ExpressionAttributeValues: { ':pk': depositItem.byStatus('awaiting_payment', '', '').GSI1PK, ':by': by.toISOString(), ':network': this.network },
    });
    return items.map(depositItem.fromItem).map((deposit) => ({ companyId: deposit.companyId, depositId: deposit.id }));
  }
}

type CursorKey = ReturnType<typeof scanCursorItem.key>;

/**
 * A scan's lease on its record: an UpdateItem that succeeds for one scanner at a time (`onlyIf`:
 * a further condition, such as a rescan's range not finished), returning the record as it then is;
 * null when another holds it or the condition fails.
 */
async function takeLease(db: DynamoDBDocumentClient, tableName: string, Key: CursorKey, type: string, lease: { owner: string; now: Date; leaseMs: number; onlyIf?: string }): Promise<Item | null> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key,
        UpdateExpression: 'SET leaseOwner = :owner, leaseExpiresAt = :until, #type = :type',
        ConditionExpression: `(attribute_not_exists(leaseExpiresAt) OR leaseExpiresAt < :now)${lease.onlyIf ? ` AND ${lease.onlyIf}` : ''}`,
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':owner': lease.owner, ':until': lease.now.getTime() + lease.leaseMs, ':now': lease.now.getTime(), ':type': type },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ?? {};
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return null;
    throw error;
  }
}

/** Moves a leased scan to `nextBlock`: only the lease holder does, and never backwards. */
async function advanceLeased(db: DynamoDBDocumentClient, tableName: string, Key: CursorKey, owner: string, nextBlock: number, rereadFrom?: number): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key,
      UpdateExpression: rereadFrom === undefined ? 'SET nextBlock = :next' : 'SET nextBlock = :next, rereadFrom = :reread',
      ConditionExpression: 'leaseOwner = :owner AND (attribute_not_exists(nextBlock) OR nextBlock <= :next)',
      ExpressionAttributeValues: { ':owner': owner, ':next': nextBlock, ...(rereadFrom !== undefined && { ':reread': rereadFrom }) },
    }),
  );
}

async function releaseLease(db: DynamoDBDocumentClient, tableName: string, Key: CursorKey, owner: string): Promise<void> {
  // Not held (the lease lapsed and another scanner took it): nothing of ours to release.
  await heldCondition(
    db.send(
      new UpdateCommand({
        TableName: tableName,
        Key,
        UpdateExpression: 'REMOVE leaseOwner, leaseExpiresAt',
        ConditionExpression: 'leaseOwner = :owner',
        ExpressionAttributeValues: { ':owner': owner },
      }),
    ),
  );
}

/** The scanner's cursor with a lease: one scanner moves it at a time. */
export class DynamoScanCursor implements ScanCursor {
  /** `previousNames`: names the cursor had before (ChainSettings.previousCursorNames); with no
   * position of its own, it starts where the earliest of those stood. */
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly name: string,
    private readonly previousNames: string[] = [],
  ) {}

  private async previousPosition(): Promise<number | null> {
    const positions: number[] = [];
    for (const name of this.previousNames) {
      const item = await readItem(this.db, this.tableName, scanCursorItem.key(name));
      const next = item ? scanCursorItem.nextBlockOf(item) : null;
      if (next !== null) positions.push(next);
    }
    return positions.length ? Math.min(...positions) : null;
  }

  async acquire(owner: string, now: Date, leaseMs: number): Promise<{ nextBlock: number | null; rereadFrom?: number } | null> {
    const item = await takeLease(this.db, this.tableName, scanCursorItem.key(this.name), scanCursorItem.type, { owner, now, leaseMs });
    if (!item) return null;
    const rereadFrom = scanCursorItem.rereadFromOf(item);
    return { nextBlock: scanCursorItem.nextBlockOf(item) ?? (await this.previousPosition()), ...(rereadFrom !== null && { rereadFrom }) };
  }

  async advance(owner: string, nextBlock: number, rereadFrom?: number): Promise<void> {
    await advanceLeased(this.db, this.tableName, scanCursorItem.key(this.name), owner, nextBlock, rereadFrom);
  }

  async release(owner: string): Promise<void> {
    await releaseLease(this.db, this.tableName, scanCursorItem.key(this.name), owner);
  }

  /** Where the cursor stands: the next block to scan (where its previous names stood, before its
   * first scan under this one), or null before any scan moved it. */
  async position(): Promise<number | null> {
    const item = await readItem(this.db, this.tableName, scanCursorItem.key(this.name));
    return (item ? scanCursorItem.nextBlockOf(item) : null) ?? (await this.previousPosition());
  }

  /** Forgets where the scan was, and any rescan of its blocks, so the next one starts at the chain's
   * head: for a chain that began again (the local runtime's anvil nodes, fresh at each start), whose
   * old cursor is past its head. */
  async forget(): Promise<void> {
    await Promise.all([scanCursorItem.key(this.name), scanRescanItem.key(this.name)].map((Key) => this.db.send(new DeleteCommand({ TableName: this.tableName, Key }))));
  }
}

export interface RescanProgress {
  fromBlock: number;
  /** The next block the rescan reads; past `untilBlock` once it is finished. */
  nextBlock: number;
  untilBlock: number;
  requestedAt: string;
}

/**
 * A bounded rescan of one network's blocks beside its live scan (`npm run deposits:rescan`): the
 * poller reads `fromBlock`–`untilBlock` again in the time its live scan leaves each run, so a payment
 * no scan recorded is found without holding back the new ones. Its own record and lease, in the
 * live cursor's partition; one rescan at a time per network.
 */
export class DynamoRescanCursor implements ScanCursor {
  /** `name`: the live scan cursor's (ChainSettings.cursorName). */
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly name: string,
  ) {}

  /** Null when no rescan is under way (none asked, or the last one finished), or another run holds it. */
  async acquire(owner: string, now: Date, leaseMs: number): Promise<{ nextBlock: number; untilBlock: number } | null> {
    const item = await takeLease(this.db, this.tableName, scanRescanItem.key(this.name), scanRescanItem.type, { owner, now, leaseMs, onlyIf: 'nextBlock <= untilBlock' });
    if (!item) return null;
    const { nextBlock, untilBlock } = scanRescanItem.progressOf(item);
    return { nextBlock, untilBlock };
  }

  async advance(owner: string, nextBlock: number): Promise<void> {
    await advanceLeased(this.db, this.tableName, scanRescanItem.key(this.name), owner, nextBlock);
  }

  async release(owner: string): Promise<void> {
    await releaseLease(this.db, this.tableName, scanRescanItem.key(this.name), owner);
  }

  /** Asks for `fromBlock`–`untilBlock` to be read again: 'started', or 'in_progress' (nothing
   * written) while an earlier rescan of the network has blocks left; with the rescan under way. */
  async start(fromBlock: number, untilBlock: number, now: Date): Promise<{ result: 'started' | 'in_progress'; rescan: RescanProgress }> {
    const rescan = { fromBlock, nextBlock: fromBlock, untilBlock, requestedAt: now.toISOString() };
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...scanRescanItem.head(this.name), ...rescan },
          ConditionExpression: 'attribute_not_exists(PK) OR nextBlock > untilBlock',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { result: 'started', rescan };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException) || !error.Item) throw error;
      return { result: 'in_progress', rescan: scanRescanItem.progressOf(unmarshall(error.Item, { wrapNumbers: true })) };
    }
  }

  /** The network's rescan under way, or the last one (finished: `nextBlock` past `untilBlock`); null when none was asked. */
  async progress(): Promise<RescanProgress | null> {
    const item = await readItem(this.db, this.tableName, scanRescanItem.key(this.name));
    return item ? scanRescanItem.progressOf(item) : null;
  }
}
