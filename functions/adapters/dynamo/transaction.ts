import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { balanceChanges, subjectOf, type LedgerEntry } from '#functions/ledger/ledger';
import type { Alongside } from '#functions/shared/alongside';
import type { DomainEvent } from '#functions/shared/events';
import { backoffDelay, sleep, type RetryPolicy } from '#functions/shared/retry';
import { eventItem } from './items/event.ts';
import { ledgerEntryItem } from './items/ledger-entry.ts';
import { balanceItem, type ShardBuckets } from './items/balance.ts';
import { balanceKey, balancesToRead, changeOf, placeChanges, type BalanceChange, type ShardReads, type ShardUpdate } from './balance-shards.ts';
import { itemsUnder } from './queries.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type Item = Record<string, unknown>;

/** An update expression, the condition guarding it, and the values and names they use. */
type ItemUpdate = { expression: string; condition?: string; values?: Item; names?: Record<string, string> };

/** One item's update, as a store hands it to another's transaction (an Idempotency-Key's answer,
 * stored with the work it answers: idempotency-store.ts `answerWrite`). */
export interface KeyedUpdate {
  key: Item;
  update: ItemUpdate & { onFailed?: OnConditionFailed };
}

/** The domain carries a KeyedUpdate opaquely (functions/shared/alongside.ts): in, and out again. */
export const asAlongside = (update: KeyedUpdate) => update as unknown as Alongside;

/** The condition a write is guarded by, with the values and names its expression uses. */
type Condition = { condition: string; values?: Item; names?: Record<string, string> };

const conditionOf = (guard: Condition) => ({
  ConditionExpression: guard.condition,
  ...(guard.values && { ExpressionAttributeValues: guard.values }),
  ...(guard.names && { ExpressionAttributeNames: guard.names }),
});

/** What a failed condition on one item means to the caller (an ApiError for the API, or a signal
 * such as a version conflict for a job); may read to fill in details. */
export type OnConditionFailed = () => Error | Promise<Error>;

/** A job's guard failed: the record changed since it was read, because another worker moved it first. */
class StaleRecord extends Error {}
export const stale: OnConditionFailed = () => new StaleRecord();

/** A failed condition that is an answer for the caller to decide on (a withdrawal policy's guard
 * found false), not an error: commitOrAnswer returns its name. */
class ConditionAnswer extends Error {
  constructor(readonly answer: string) {
    super(`Condition answered ${answer}`);
  }
}
/** The failed condition's meaning is the plain answer `answer`, returned by commitOrAnswer. */
export const answer =
  (answer: string): OnConditionFailed =>
  () =>
    new ConditionAnswer(answer);

/** DynamoDB cancels a transaction that races another on the same item (TransactionConflict);
 * those are retried, with jitter so 50 racing withdrawals spread out. */
const CONFLICT_RETRY: RetryPolicy = { maxAttempts: 11, baseDelayMs: 20, maxDelayMs: 200 };

/**
 * What this process last knew of each balance's shards (a Lambda keeps it across warm invocations):
 * a debit of `available` is placed from it without a read, and the shards' guards catch a placement
 * it got wrong (another process took the money first), which is then placed from a fresh read.
 * Without it every withdrawal paid a Query of the shards before its transaction. Bounded: cleared
 * when it holds more balances than a busy container meets.
 */
const lastKnownShards: ShardReads = new Map();
const LAST_KNOWN_SHARDS_MAX = 10_000;

/** Keeps what a committed transaction left on the shards it read or remembered. */
function rememberPlaced(reads: ShardReads, placed: readonly ShardUpdate[]): void {
  if (lastKnownShards.size > LAST_KNOWN_SHARDS_MAX) lastKnownShards.clear();
  for (const [balance, shards] of reads) {
    const after = new Map([...shards].map(([shard, buckets]) => [shard, { ...buckets }]));
    for (const update of placed.filter((one) => one.balance === balance)) {
      const buckets = after.get(update.shard) ?? { available: 0n, pending: 0n, locked: 0n, held: 0n };
      for (const [bucket, delta] of update.deltas) buckets[bucket] += delta;
      after.set(update.shard, buckets);
    }
    lastKnownShards.set(balance, after);
  }
}

/** A debit placed on a shard that another operation emptied first is placed again from a fresh
 * read; under a burst of one company's withdrawals that can take a few turns. */
const SHARD_RETRY: RetryPolicy = { maxAttempts: 11, baseDelayMs: 5, maxDelayMs: 100 };

/**
 * One DynamoDB transaction: the state change, its ledger entry and balance updates, and its event
 * commit together or not at all. Each guarded item says what its failed condition means, so a
 * cancelled transaction becomes the contract's error (INSUFFICIENT_BALANCE, DUPLICATE_REFERENCE…).
 */
export class MoneyTransaction {
  private readonly items: TransactItem[] = [];
  private readonly meanings: (OnConditionFailed | undefined)[] = [];
  private readonly balanceChanges: { change: BalanceChange; onInsufficient: OnConditionFailed }[] = [];

  constructor(private readonly tableName: string) {}

  put(item: Item, guard?: Condition & { onFailed: OnConditionFailed }): this {
    return this.add({ Put: { TableName: this.tableName, Item: item, ...(guard && conditionOf(guard)) } }, guard?.onFailed);
  }

  /** A put that must create a new item (`attribute_not_exists(PK)`). */
  create(item: Item, onFailed: OnConditionFailed): this {
    return this.put(item, { condition: 'attribute_not_exists(PK)', onFailed });
  }

  update(key: Item, update: ItemUpdate & { onFailed?: OnConditionFailed }): this {
    return this.add(this.updateOperation(key, update), update.onFailed);
  }

  /** A write built outside the domain, carried through it (functions/shared/alongside.ts), if any. */
  alongside(write: Alongside | undefined): this {
    if (!write) return this;
    const { key, update } = write as unknown as KeyedUpdate;
    return this.update(key, update);
  }

  /** A condition on an item the transaction does not write (an allowlisted address still there). */
  check(key: Item, guard: Condition & { onFailed: OnConditionFailed }): this {
    return this.add({ ConditionCheck: { TableName: this.tableName, Key: key, ...conditionOf(guard) } }, guard.onFailed);
  }

  /** A delete that must find the item (`attribute_exists(PK)`). */
  delete(key: Item, onFailed: OnConditionFailed): this {
    return this.deleteWhere(key, { condition: 'attribute_exists(PK)', onFailed });
  }

  /** A delete guarded by any condition (the item's state as last read, say). */
  deleteWhere(key: Item, guard: Condition & { onFailed: OnConditionFailed }): this {
    return this.add({ Delete: { TableName: this.tableName, Key: key, ...conditionOf(guard) } }, guard.onFailed);
  }

  /** One operation, and what its failed condition means (by position: DynamoDB's cancellation
   * reasons come in the operations' order). */
  private add(operation: TransactItem, onFailed: OnConditionFailed | undefined): this {
    this.items.push(operation);
    this.meanings.push(onFailed);
    return this;
  }

  /**
   * The entry's balance updates (one per currency touched, each debit guarded by a condition so
   * no bucket goes below zero) and the entry itself. `onInsufficient` names the refusal.
   */
  ledger(entry: LedgerEntry, onInsufficient: OnConditionFailed): this {
    return this.ledgerEntries([entry], onInsufficient);
  }

  /**
   * Several entries in one transaction. Their balance changes are placed on the balance's shards
   * when the transaction commits (balance-shards.ts), changes meeting on one shard summed into one
   * update, as DynamoDB refuses two operations on one item.
   */
  ledgerEntries(entries: LedgerEntry[], onInsufficient: OnConditionFailed): this {
    for (const entry of entries) {
      for (const [currency, deltas] of balanceChanges(entry)) {
        this.balanceChanges.push({ change: changeOf(entry.companyId, currency, subjectOf(entry), deltas, entry.createdAt), onInsufficient });
      }
    }
    for (const entry of entries) this.put(ledgerEntryItem.toItem(entry));
    return this;
  }

  event(event: DomainEvent): this {
    return this.put(eventItem.toItem(event));
  }

  /** Commits; false, with nothing written, when a guard meaning `stale` failed: another worker won. */
  async commitUnlessStale(db: DynamoDBDocumentClient): Promise<boolean> {
    try {
      await this.commit(db);
      return true;
    } catch (error) {
      if (error instanceof StaleRecord) return false;
      throw error;
    }
  }

  /** Commits and answers 'written', or, with nothing written, the `answer` of the first condition
   * that failed when that one was given one; any other failure throws as commit's does. */
  async commitOrAnswer<A extends string>(db: DynamoDBDocumentClient): Promise<'written' | A> {
    try {
      await this.commit(db);
      return 'written';
    } catch (error) {
      if (error instanceof ConditionAnswer) return error.answer as A;
      throw error;
    }
  }

  async commit(db: DynamoDBDocumentClient): Promise<void> {
    const changes = this.balanceChanges.map(({ change }) => change);
    const reads: ShardReads = new Map();
    // Balances placed from what this process last knew of them rather than a fresh read: read again
    // if a placement on them fails or finds too little.
    const remembered = new Set<string>();
    const toRead = balancesToRead(changes);
    for (const balance of toRead) {
      const known = lastKnownShards.get(balance);
      if (!known) continue;
      reads.set(balance, known);
      remembered.add(balance);
      toRead.delete(balance);
    }
    for (let attempt = 1; ; attempt++) {
      for (const balance of toRead) {
        reads.set(balance, await this.readShards(db, balance));
        remembered.delete(balance);
      }
      toRead.clear();
      const placed = placeChanges(changes, reads);
      if (placed === 'insufficient') {
        // Only a fresh read may refuse: what was remembered may be behind a credit since.
        if (remembered.size > 0) {
          for (const balance of remembered) toRead.add(balance);
          continue;
        }
        const refused = this.balanceChanges.find(({ change }) => reads.has(balanceKey(change.companyId, change.currency)));
        throw await (refused ?? this.balanceChanges[0]!).onInsufficient();
      }
      try {
        await db.send(new TransactWriteCommand({ TransactItems: [...this.items, ...placed.map((update) => this.shardOperation(update))] }));
        rememberPlaced(reads, placed);
        return;
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const reasons = error.CancellationReasons ?? [];
        const failedAt = reasons.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
        if (failedAt >= this.items.length) {
          // A shard held less than placed: placed without a read, or another operation took from it
          // since. Placed again from a fresh read of that balance.
          if (attempt >= SHARD_RETRY.maxAttempts) throw error;
          const balance = placed[failedAt - this.items.length]!.balance;
          lastKnownShards.delete(balance);
          toRead.add(balance);
          if (reads.has(balance) && !remembered.has(balance)) await sleep(backoffDelay(SHARD_RETRY, attempt));
          continue;
        }
        if (failedAt >= 0) {
          const meaning = this.meanings[failedAt];
          if (meaning) throw await meaning();
          throw error;
        }
        const conflictOnly = reasons.length > 0 && reasons.every((reason) => reason.Code === 'None' || reason.Code === 'TransactionConflict');
        if (!conflictOnly || attempt >= CONFLICT_RETRY.maxAttempts) throw error;
        await sleep(backoffDelay(CONFLICT_RETRY, attempt));
      }
    }
  }

  private async readShards(db: DynamoDBDocumentClient, balance: string): Promise<Map<number, ShardBuckets>> {
    const { companyId, currency } = this.balanceChanges.find(({ change }) => balanceKey(change.companyId, change.currency) === balance)!.change;
    return balanceItem.shardBuckets(await itemsUnder(db, this.tableName, balanceItem.shardsOf(companyId, currency)), currency);
  }

  private shardOperation(update: ShardUpdate): TransactItem {
    const { key, ...shardUpdate } = balanceItem.shardUpdate(update.companyId, update.currency, update.shard, update.deltas, update.at);
    return this.updateOperation(key, shardUpdate);
  }

  private updateOperation(key: Item, update: ItemUpdate): TransactItem {
    return {
      Update: {
        TableName: this.tableName,
        Key: key,
        UpdateExpression: update.expression,
        ...(update.condition && { ConditionExpression: update.condition }),
        ...(update.values && { ExpressionAttributeValues: update.values }),
        ...(update.names && { ExpressionAttributeNames: update.names }),
      },
    };
  }
}
