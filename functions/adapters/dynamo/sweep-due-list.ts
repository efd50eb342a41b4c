import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { FrozenAddressList, Unfrozen } from '#functions/deposits/frozen-addresses';
import type { AddressOwner } from '#functions/deposits/deposit-address-filter';
import type { NetworkName } from '#functions/networks/names';
import { depositAddressCounts, depositAddressItem } from './items/deposit-address.ts';
import { chainTransferItem } from './items/chain-transfer.ts';
import { batchGetAll, gsi1Partition, heldCondition, itemsUnder, queryAll, readItem } from './queries.ts';
import type { Item } from './items/item.ts';
import { balanceItem } from './items/balance.ts';
import { depositItem } from './items/deposit.ts';
import { DynamoDepositChainStore } from './deposit-chain-store.ts';
import { withDeposit } from '#functions/deposits/deposit-chain';
import { freezeCredit, heldAt, heldForItsFreeze, stillAtAddress, uncountedCreditOf, unfreezeCredit } from '#functions/deposits/deposit-transitions';
import { stderrLog } from '#functions/shared/log';
import { formatAmount } from '#functions/shared/money';
import type { CountsTaken, SweepCounts } from '#functions/deposits/sweep-amount';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';

/** Count writes of one sweep's addresses sent at once. */
const PARALLEL_COUNT_WRITES = 25;

/**
 * One network's deposit addresses marked sweep-due (a confirmed deposit since their last sweep), as
 * its sweeper reads and clears them: each network's sweeper (functions/networks/<family>/sweeps.ts). Remembers when each due flag was read, so clearing it never
 * drops a flag set since.
 */
export class DynamoSweepDueList implements FrozenAddressList {
  private readonly dueSince = new Map<string, string>();
  private readonly deposits: DynamoDepositChainStore;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly network: NetworkName,
  ) {
    this.deposits = new DynamoDepositChainStore(db, tableName, network);
  }

  /** The company's USDT `available`, its shards summed (a consistent read: the write is placed on it). */
  private async availableUsdt(companyId: string): Promise<bigint> {
    const rows = balanceItem.summed(await itemsUnder(this.db, this.tableName, balanceItem.shardsOf(companyId, 'USDT')));
    return rows.find((row) => row.currency === 'USDT')?.available ?? 0n;
  }

  /**
   * At most `limit`, in address order; `after`: only those after that address (the next page). An
   * address paid by a transfer still confirming waits (left out, still due) until the confirmer has
   * judged it: a sweep would take a payment not yet screened into the hot wallet with the credited
   * one (EVM's and Solana's move an address's whole balance; TRON's what is recorded, sweep-amount.ts,
   * which this payment is), where a sanctioned payer's money,
   * held once final, must stay where it landed (deposit-chain-store keepsSanctionedMoneyInPlace).
   * The wait is the network's finality: about a minute on TRON, thirteen on Ethereum.
   */
  async dueAddresses(limit: number, after?: string): Promise<DueAddress[]> {
    return (await this.dueAddressesPage(limit, after)).due;
  }

  /** dueAddresses, and where the next page starts (null: the list ends here). The page can hold fewer
   * than `limit` while more follow (those left out for a payment confirming), so a reader pages on
   * `next`, never on the count. */
  async dueAddressesPage(limit: number, after?: string): Promise<{ due: DueAddress[]; next: string | null }> {
    const [Items, confirming] = await Promise.all([this.duePage(limit, after), this.depositsConfirming()]);
    const due = Items.flatMap((item) => {
      const { dueSince, ...candidate } = depositAddressItem.sweepCandidateFromItem(item);
      if (confirming.has(candidate.depositId)) return [];
      this.dueSince.set(candidate.address, dueSince);
      return [candidate];
    });
    return { due, next: Items.length < limit ? null : (Items.at(-1)!.GSI1SK as string) };
  }

  private duePage(limit: number, after?: string) {
    return this.pageOf(depositAddressItem.sweepDuePartition(this.network), limit, after);
  }

  /** At most `limit` addresses of one of the list's GSI1 partitions, in address order, after `after`. */
  private async pageOf(partition: string, limit: number, after?: string) {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: after === undefined ? 'GSI1PK = :pk' : 'GSI1PK = :pk AND GSI1SK > :after',
        ExpressionAttributeValues: { ':pk': partition, ...(after !== undefined && { ':after': after }) },
        Limit: limit,
      }),
    );
    return Items;
  }

  /** The deposits of this network's transfers still confirming (the index is eventually consistent:
   * one just recorded may show a moment late, as the due mark its credit sets does). */
  private async depositsConfirming(): Promise<Set<string>> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': chainTransferItem.confirmingPartition(this.network) },
      ProjectionExpression: 'depositId',
    });
    return new Set(items.map((item) => item.depositId as string));
  }

  /**
   * Due, or below the sweep minimum → set aside (frozen-addresses.ts). Only from those lists: a
   * cleared address stays cleared. What was credited there and is still there is taken back from
   * the company's `available` into `held` in the same write (deposit-transitions.ts freezeCredit):
   * money that cannot move is never available.
   */
  async setAside(address: string, usdtThere: bigint): Promise<void> {
    const setAsideFrom = [depositAddressItem.sweepDuePartition(this.network), depositAddressItem.belowMinimumPartition(this.network)];
    const listed = async () => {
      const item = await readItem(this.db, this.tableName, depositAddressItem.key(address));
      return item && setAsideFrom.includes(item.GSI1PK as string) ? item : null;
    };
    const first = await listed();
    if (first) {
      const { companyId, depositId } = depositAddressItem.ownerFromItem(first);
      let notHeld = 0n;
      let unused: Item | null = first;
      const outcome = await withDeposit(this.deposits, { companyId, depositId }, async (deposit) => {
        // Read again on each try after the first: a credit that made it try again also added to the
        // address's count, and a sanctioned payer's money held there meanwhile took it off the lists.
        const item = unused ?? (await listed());
        unused = null;
        if (!item) return null;
        const counted = depositAddressItem.creditedUnsweptOf(item, uncountedCreditOf(deposit));
        // What is there now bounds it: a sweep that moved the rest may not have cleared the count yet.
        const creditedUnswept = counted < usdtThere ? counted : usdtThere;
        const taken = freezeCredit(deposit, { creditedUnswept, available: await this.availableUsdt(companyId) }, new Date());
        notHeld = taken.notHeld;
        return taken.change;
      });
      if (notHeld > 0n) {
        // Spent before the freeze was known: the company's balance cannot go below zero, so this
        // part is Cambio's exposure, for finance to settle with the company.
        stderrLog.error('deposit address frozen after its credit was spent: not all of it could be held', {
          network: this.network,
          address,
          companyId,
          depositId,
          notHeld: formatAmount(notHeld, 'USDT'),
        });
      }
      // The write set the address aside with the credit taken back.
      if (outcome === 'applied') return;
    }
    const frozen = depositAddressItem.frozen(this.network, address);
    await this.moveAddress(address, {
      UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk',
      ConditionExpression: 'GSI1PK IN (:due, :below)',
      ExpressionAttributeValues: { ':pk': frozen.GSI1PK, ':sk': frozen.GSI1SK, ':due': setAsideFrom[0], ':below': setAsideFrom[1] },
    });
  }

  /** The next page of below-minimum addresses; one whose deposit has a payment still confirming
   * waits (left out: the confirmer judges it first, as on the due list). */
  async belowMinimumPage(limit: number): Promise<string[]> {
    const cursorKey = depositAddressItem.belowMinimumReviewKey(this.network);
    const after = depositAddressItem.belowMinimumReviewedUpTo(await readItem(this.db, this.tableName, cursorKey));
    const page = await this.belowMinimumAfter(limit, after);
    // Past the last: on from the first, so each address comes round in turn.
    if (page.length < limit && after !== undefined) {
      const seen = new Set(page.map(depositAddressItem.addressOf));
      page.push(...(await this.belowMinimumAfter(limit - page.length)).filter((item) => depositAddressItem.addressOf(item) <= after && !seen.has(depositAddressItem.addressOf(item))));
    }
    const last = page.length < limit ? undefined : depositAddressItem.addressOf(page.at(-1)!);
    if (last !== undefined) await this.db.send(new PutCommand({ TableName: this.tableName, Item: depositAddressItem.belowMinimumReview(this.network, last) }));
    else if (after !== undefined) await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: cursorKey }));
    const confirming = page.length > 0 ? await this.depositsConfirming() : new Set<string>();
    return page.filter((item) => !confirming.has(depositAddressItem.ownerFromItem(item).depositId)).map(depositAddressItem.addressOf);
  }

  private belowMinimumAfter(limit: number, after?: string) {
    return this.pageOf(depositAddressItem.belowMinimumPartition(this.network), limit, after);
  }

  async frozenCreditAddresses(): Promise<string[]> {
    return (await this.frozenCreditDeposits()).map((deposit) => deposit.address);
  }

  /** This network's deposits whose credit a freeze took back, wherever their address is listed: the
   * held ones (the sweeper), and with `alsoConfirming` those confirming a new payment too (a person's
   * release: `npm run deposits:release`). */
  async frozenCreditDeposits({ alsoConfirming = false } = {}): Promise<(AddressOwner & { address: string })[]> {
    const partitions = [depositItem.heldPartition, ...(alsoConfirming ? [depositItem.byStatus('confirming', '', '').GSI1PK] : [])];
    const pages = await Promise.all(
      partitions.map((partition) =>
        queryAll(this.db, {
          TableName: this.tableName,
          IndexName: 'GSI1',
          KeyConditionExpression: 'GSI1PK = :pk',
          FilterExpression: 'attribute_exists(frozenCredit) AND #network = :network',
          ExpressionAttributeNames: { '#network': 'network', '#address': 'address', '#id': 'id' },
          ExpressionAttributeValues: { ':pk': partition, ':network': this.network },
          ProjectionExpression: '#address, companyId, #id',
        }),
      ),
    );
    return pages.flat().map((item) => ({ address: item.address as string, companyId: item.companyId as string, depositId: item.id as string }));
  }

  async returnFrozenCredit(address: string, usdtThere: bigint): Promise<Unfrozen> {
    const item = await readItem(this.db, this.tableName, depositAddressItem.key(address));
    if (!item) return 'returned';
    const given = await this.frozenCreditGivenBack(item, usdtThere);
    return given === 'gone' || given === 'waiting' ? given : 'returned';
  }

  /** The credit a freeze took back from the deposit of the address `item` is, given back
   * (unfreezeCredit); 'waiting' while a payment held for the freeze is the poller's to release
   * first, 'gone' where the address no longer holds what the deposit holds there. */
  private async frozenCreditGivenBack(item: Item, usdtThere: bigint): Promise<Awaited<ReturnType<typeof withDeposit>> | 'gone' | 'waiting'> {
    let verdict: 'gone' | 'waiting' | null = null;
    let held = 0n;
    const outcome = await withDeposit(this.deposits, depositAddressItem.ownerFromItem(item), (deposit) => {
      const creditedUnswept = depositAddressItem.creditedUnsweptOf(item, uncountedCreditOf(deposit));
      verdict = heldForItsFreeze(deposit) ? 'waiting' : stillAtAddress(deposit, usdtThere, creditedUnswept) ? null : 'gone';
      held = heldAt(deposit);
      return verdict ? null : unfreezeCredit(deposit, new Date());
    });
    if (verdict === 'gone') await this.countsAtMost(item, usdtThere > held ? usdtThere - held : 0n);
    return verdict ?? outcome;
  }

  /**
   * The issuer erased what an address held: its counts come down to what is still there beside its
   * held transfers, so that a payment credited there later is not swept for USDT that exists nowhere
   * (and the address then read as empty too soon, run after run: sweep-amount.ts emptyTooSoon). Only
   * if the counts are still as read: a credit meanwhile added to them, and the next run's read of the
   * erasure (said each run while it lasts) tries again.
   */
  private async countsAtMost(item: Item, there: bigint): Promise<void> {
    const lowered = depositAddressCounts.countsLoweredTo(item, there);
    if (!lowered) return;
    await heldCondition(this.db.send(new UpdateCommand({ TableName: this.tableName, Key: depositAddressItem.key(depositAddressItem.addressOf(item)), ...lowered })));
  }

  async heldForTheirFreeze(addresses: string[]): Promise<Set<string>> {
    if (addresses.length === 0) return new Set();
    const asked = new Set(addresses);
    const held = await this.deposits.heldTransfers();
    return new Set(held.filter((record) => record.holdReason === 'address_frozen' && record.to !== undefined && asked.has(record.to)).map((record) => record.to!));
  }

  async setAsideAddresses(): Promise<string[]> {
    const items = await gsi1Partition(this.db, this.tableName, depositAddressItem.frozenPartition(this.network));
    return items.map(depositAddressItem.addressOf);
  }

  /** Set aside → due, with its due time kept (a confirmation meanwhile may have set a later one).
   * A credit setAside took back is given back in the same write (unfreezeCredit). */
  async returnToDue(address: string, usdtThere: bigint): Promise<Unfrozen> {
    const item = await readItem(this.db, this.tableName, depositAddressItem.key(address));
    if (item && item.GSI1PK === depositAddressItem.frozenPartition(this.network)) {
      const given = await this.frozenCreditGivenBack(item, usdtThere);
      if (given === 'gone' || given === 'waiting') return given;
      if (given === 'applied') return 'returned';
    }
    const due = depositAddressItem.sweepDue(this.network, address);
    await this.moveAddress(address, {
      UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk, sweepDueSince = if_not_exists(sweepDueSince, :now)',
      ConditionExpression: 'GSI1PK = :frozen',
      ExpressionAttributeValues: { ':pk': due.GSI1PK, ':sk': due.GSI1SK, ':frozen': depositAddressItem.frozenPartition(this.network), ':now': new Date().toISOString() },
    });
    return 'returned';
  }

  /** The address's counts, read consistently: a sweep that just landed took its amount off them. */
  async sweepCountsAt(address: string): Promise<SweepCounts> {
    return depositAddressCounts.sweepCountsOf(await readItem(this.db, this.tableName, depositAddressItem.key(address)));
  }

  /** Each address's counts, read consistently in one batch (an address with no item has none). */
  async sweepCountsAtEach(addresses: string[]): Promise<Map<string, SweepCounts>> {
    const items = await batchGetAll(this.db, this.tableName, [...new Set(addresses)].map(depositAddressItem.key), { consistent: true });
    const read = new Map(items.map((item) => [depositAddressItem.addressOf(item), item]));
    return new Map(addresses.map((address) => [address, depositAddressCounts.sweepCountsOf(read.get(address) ?? null)]));
  }

  /**
   * A landed sweep's amounts taken off its addresses' counts, once: each address keeps the last
   * sweep taken off it (`countsSweptBy`), so a run that settles the same sweep again after a crash
   * takes nothing twice. One write an address, not one transaction: a batch sweep holds more
   * addresses than a transaction takes; the sweep is saved done after them all.
   */
  async takeOffCounts(sweepId: string, taken: { address: string; taken: CountsTaken }[]): Promise<void> {
    for (let start = 0; start < taken.length; start += PARALLEL_COUNT_WRITES) {
      await Promise.all(
        taken.slice(start, start + PARALLEL_COUNT_WRITES).map(async ({ address, taken: amounts }) => {
          const swept = depositAddressCounts.sweptOff(amounts);
          try {
            await this.db.send(
              new UpdateCommand({
                TableName: this.tableName,
                Key: depositAddressItem.key(address),
                UpdateExpression: `${swept.clause} SET countsSweptBy = :sweep`,
                ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(countsSweptBy) OR countsSweptBy <> :sweep)',
                ExpressionAttributeValues: { ...swept.values, ':sweep': sweepId },
              }),
            );
          } catch (error) {
            if (!(error instanceof ConditionalCheckFailedException)) throw error;
          }
        }),
      );
    }
  }

  async clearDue(address: string, remaining: bigint): Promise<void> {
    const belowMinimum = depositAddressItem.belowMinimum(this.network, address);
    await this.moveAddress(address, {
      // A confirmation moves the item back to sweepDue (deposit-chain-store); a sweep that
      // empties the address removes it from both partitions, and its counts are nothing (what they
      // still said was there, the issuer erased). Zero, not removed: a count removed would stand
      // for the deposit's whole credit, which a freeze of the emptied address would take back.
      UpdateExpression:
        remaining > 0n
          ? 'SET GSI1PK = :pk, GSI1SK = :sk, unsweptUsdt = :remaining REMOVE sweepDueSince'
          : 'SET creditedUnsweptUsdt = :none, sweepableUsdt = :none REMOVE GSI1PK, GSI1SK, sweepDueSince, unsweptUsdt',
      ConditionExpression: 'sweepDueSince = :seen',
      ExpressionAttributeValues: {
        ':seen': this.dueSince.get(address) ?? '',
        ...(remaining > 0n ? { ':pk': belowMinimum.GSI1PK, ':sk': belowMinimum.GSI1SK, ':remaining': remaining } : { ':none': 0 }),
      },
    });
  }

  /** Moves a deposit address's item between the list's GSI1 partitions, only if it is still where
   * the condition says: one that moved meanwhile (a confirmation, another sweeper) is left as it is. */
  private async moveAddress(address: string, update: Pick<UpdateCommandInput, 'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeValues'>): Promise<void> {
    await heldCondition(this.db.send(new UpdateCommand({ TableName: this.tableName, Key: depositAddressItem.key(address), ...update })));
  }
}

/** A due address as the list reads it: its HD index (TRON derives its key from it), and the deposit
 * it was issued for (an EVM forwarder's salt). */
export interface DueAddress {
  address: string;
  addressIndex: number;
  depositId: string;
}

/**
 * A family's sweep store over its network's due list (functions/networks/<family>/sweep-store.ts):
 * clearing an address and setting it aside (frozen-addresses.ts) are the list's; the family adds
 * how it reads the due addresses and keeps its sweeps.
 */
export abstract class SweepStoreOverDueList implements FrozenAddressList {
  protected readonly due: DynamoSweepDueList;

  constructor(
    protected readonly db: DynamoDBDocumentClient,
    protected readonly tableName: string,
    network: NetworkName,
  ) {
    this.due = new DynamoSweepDueList(db, tableName, network);
  }

  /** A page of the due list as a family's sweeper reads it (`pick`: what it keeps of each address), and where the next starts. */
  protected async duePage<Due>(limit: number, after: string | undefined, pick: (due: DueAddress) => Due): Promise<{ due: Due[]; next: string | null }> {
    const page = await this.due.dueAddressesPage(limit, after);
    return { due: page.due.map(pick), next: page.next };
  }

  clearDue(address: string, remaining: bigint): Promise<void> {
    return this.due.clearDue(address, remaining);
  }

  sweepCountsAt(address: string): Promise<SweepCounts> {
    return this.due.sweepCountsAt(address);
  }

  sweepCountsAtEach(addresses: string[]): Promise<Map<string, SweepCounts>> {
    return this.due.sweepCountsAtEach(addresses);
  }

  takeOffCounts(sweepId: string, taken: { address: string; taken: CountsTaken }[]): Promise<void> {
    return this.due.takeOffCounts(sweepId, taken);
  }

  setAside(address: string, usdtThere: bigint): Promise<void> {
    return this.due.setAside(address, usdtThere);
  }

  setAsideAddresses(): Promise<string[]> {
    return this.due.setAsideAddresses();
  }

  heldForTheirFreeze(addresses: string[]): Promise<Set<string>> {
    return this.due.heldForTheirFreeze(addresses);
  }

  belowMinimumPage(limit: number): Promise<string[]> {
    return this.due.belowMinimumPage(limit);
  }

  frozenCreditAddresses(): Promise<string[]> {
    return this.due.frozenCreditAddresses();
  }

  returnFrozenCredit(address: string, usdtThere: bigint): Promise<Unfrozen> {
    return this.due.returnFrozenCredit(address, usdtThere);
  }

  returnToDue(address: string, usdtThere: bigint): Promise<Unfrozen> {
    return this.due.returnToDue(address, usdtThere);
  }
}
