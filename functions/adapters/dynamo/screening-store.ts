import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { NetworkName } from '#functions/networks/names';
import type { OperatorAuditEntry } from '#functions/operations/operator-audit';
import { canonicalOn, isListed, type ScreeningEntry } from '#functions/screening/screening';
import type { ImportSummary, OfacChange, RefreshFailure, ScreeningListState, ScreeningStore } from '#functions/screening/screening-import';
import { ScreeningListNotLoaded, type ScreeningList } from '#functions/screening/screening-list';
import { inParallel } from '#functions/shared/in-parallel';
import { operatorAuditEntryItem } from './items/operator-audit-entry.ts';
import { screeningEntryItem, screeningListItem } from './items/screening.ts';
import { batchGetAll, itemsUnder, readItem } from './queries.ts';
import { TableStore } from './table-store.ts';
import { answer, MoneyTransaction } from './transaction.ts';

/**
 * The screening list in the table (items/screening.ts): the lookups the API and the chain jobs make
 * (ScreeningList), and the writes of the import and the operator's commands (ScreeningStore).
 *
 * The lookups' cost: each address is read at most once per container while the list's version
 * stays the same. A container keeps, per table, what it has read (listed or not) under the version
 * it read it with. A lookup that finds every address known answers with no read, unless the
 * version was last read VERSION_CHECK_MS ago or more: then it reads the version item alone (one
 * GetItem-sized read, at most once a minute per container). A lookup with an address not known
 * reads those addresses and the version item in one BatchGetItem, so the version is refreshed for
 * free. When the version read differs from the cache's, the cache is dropped: every address is read
 * again under the new one. Every change of an entry moves the version on (after its writes, and
 * for an import before them too), so a change reaches every warm container within a minute. Reads
 * are consistent: an eventually consistent read could pair the new version with an entry not yet
 * written, and keep that answer for the whole version.
 *
 * A `fresh` lookup (a payout about to be signed) reads every address it is given, with the version,
 * in one BatchGetItem: a listing made in the last minute stops it. And while the list has never been
 * loaded (the version item says so) every lookup reads the version item and throws
 * ScreeningListNotLoaded, so the first lookup after the first import answers.
 */
export const VERSION_CHECK_MS = 60_000;

/** Far beyond the payees a container meets; a cache this full starts again rather than grow. */
const MAX_CACHED_ADDRESSES = 100_000;

/** Entry updates of an import in flight at once. */
const WRITES_IN_FLIGHT = 16;
/** DynamoDB's limit on the items of a TransactWriteItems. */
const TRANSACTION_LIMIT = 100;

/** What a container knows of one table's list: each address's answer, under one version. */
export class ScreeningCache {
  version: number | null = null;
  /** When the version was last read (ms, the lookup's clock). */
  checkedAt = Number.NEGATIVE_INFINITY;
  /** Whether the version item, as last read, says the list was ever loaded. */
  loaded = false;
  readonly listed = new Map<string, boolean>();
}

/** One cache per table for the life of the container (module scope), shared by every store on it. */
const CACHES = new Map<string, ScreeningCache>();

type EntryKey = { network: NetworkName; address: string };
const cacheKey = ({ network, address }: EntryKey) => `${network}#${address}`;

export class DynamoScreeningList implements ScreeningList {
  private readonly cache: ScreeningCache;
  private readonly versionCheckMs: number;
  private readonly now: () => number;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    options: { cache?: ScreeningCache; versionCheckMs?: number; now?: () => number } = {},
  ) {
    this.cache = options.cache ?? new ScreeningCache();
    this.versionCheckMs = options.versionCheckMs ?? VERSION_CHECK_MS;
    this.now = options.now ?? Date.now;
  }

  async listed(network: NetworkName, addresses: string[], { fresh = false }: { fresh?: boolean } = {}): Promise<Set<string>> {
    // An address that is none of the network's cannot be on its list: nothing to read.
    const given = new Map<string, { entry: EntryKey; forms: string[] }>();
    for (const form of addresses) {
      const address = canonicalOn(network, form);
      if (address === null) continue;
      const entry = { network, address };
      const known = given.get(cacheKey(entry));
      if (known) known.forms.push(form);
      else given.set(cacheKey(entry), { entry, forms: [form] });
    }
    const { cache } = this;
    const now = this.now();
    const missing = [...given.values()].filter(({ entry }) => fresh || !cache.listed.has(cacheKey(entry))).map(({ entry }) => entry);
    if (missing.length > 0 || !cache.loaded || now - cache.checkedAt >= this.versionCheckMs) {
      const cachedBefore = [...given.values()].filter(({ entry }) => !fresh && cache.listed.has(cacheKey(entry))).map(({ entry }) => entry);
      const { version, loaded, answers } = await this.read(missing, true);
      cache.checkedAt = now;
      cache.loaded = loaded;
      if (version !== cache.version) {
        cache.listed.clear();
        cache.version = version;
        for (const [key, listed] of answers) cache.listed.set(key, listed);
        // Known under the old version only: read again under the new one.
        if (cachedBefore.length > 0) for (const [key, listed] of (await this.read(cachedBefore, false)).answers) cache.listed.set(key, listed);
      } else {
        if (cache.listed.size + answers.size > MAX_CACHED_ADDRESSES) cache.listed.clear();
        for (const [key, listed] of answers) cache.listed.set(key, listed);
      }
    }
    if (!cache.loaded) throw new ScreeningListNotLoaded(`No import of OFAC's list into ${this.tableName} yet`);
    const listed = new Set<string>();
    for (const [key, { forms }] of given) if (cache.listed.get(key)) for (const form of forms) listed.add(form);
    return listed;
  }

  /** The entries' answers (absent: not listed) and, with `withVersion`, the list's version and
   * whether it was ever loaded, in one BatchGetItem per 100 keys. */
  private async read(entries: EntryKey[], withVersion: boolean): Promise<{ version: number | null; loaded: boolean; answers: Map<string, boolean> }> {
    const keys = [...(withVersion ? [screeningListItem.key()] : []), ...entries.map(({ network, address }) => screeningEntryItem.key(network, address))];
    const items = await batchGetAll(this.db, this.tableName, keys, { consistent: true });
    const answers = new Map(entries.map((entry) => [cacheKey(entry), false]));
    let version: number | null = null;
    let loaded = false;
    for (const item of items) {
      if (item.type === screeningListItem.type) {
        version = screeningListItem.versionOf(item);
        loaded = screeningListItem.loadedOf(item);
      } else if (item.type === screeningEntryItem.type) {
        const entry = screeningEntryItem.fromItem(item);
        answers.set(cacheKey(entry), isListed(entry));
      }
    }
    return { version: withVersion ? (version ?? 0) : null, loaded, answers };
  }
}

/**
 * The screening list of a table, with the container's cache for it: what the API's stores and the
 * chain jobs look addresses up in (functions/screening/screening-list.ts).
 */
export function screeningListOf(db: DynamoDBDocumentClient, tableName: string): ScreeningList {
  let cache = CACHES.get(tableName);
  if (!cache) CACHES.set(tableName, (cache = new ScreeningCache()));
  return new DynamoScreeningList(db, tableName, { cache });
}

const ENTRY_NAMES = { '#type': 'type', '#network': 'network', '#address': 'address' };
const entryHead = ({ network, address }: EntryKey) => ({ ':type': screeningEntryItem.type, ':network': network, ':address': address });

/** The list's writes (functions/screening/screening-import.ts ScreeningStore). */
export class DynamoScreeningStore extends TableStore implements ScreeningStore {
  async state(): Promise<ScreeningListState> {
    return screeningListItem.fromItem(await readItem(this.db, this.tableName, screeningListItem.key()));
  }

  async entriesOf(network: NetworkName): Promise<ScreeningEntry[]> {
    return (await itemsUnder(this.db, this.tableName, screeningEntryItem.ofNetwork(network))).map(screeningEntryItem.fromItem).filter(isListed);
  }

  async entry(network: NetworkName, address: string): Promise<ScreeningEntry | null> {
    const item = await readItem(this.db, this.tableName, screeningEntryItem.key(network, address));
    return item ? screeningEntryItem.fromItem(item) : null;
  }

  async beginImport(at: string): Promise<void> {
    await this.updateList('importStartedAt = :at, changedAt = :at ADD version :one', { ':at': at, ':one': 1 });
  }

  async writeOfac(changes: OfacChange[], at: string): Promise<void> {
    // A new entry is created, 100 to a transaction: an import's first run writes hundreds of them
    // (a fifth of the time updates take on DynamoDB Local, where every test table gets the shipped
    // snapshot). Each only where no entry is: a stage entry added for the same address since the
    // import's read is updated instead, so it keeps its `stage` part, and a later delisting by OFAC
    // leaves it listed by the stage.
    const created = changes.filter((change): change is Extract<OfacChange, { kind: 'list' }> => change.kind === 'list' && change.isNew);
    const updated = changes.filter((change) => !(change.kind === 'list' && change.isNew));
    for (let i = 0; i < created.length; i += TRANSACTION_LIMIT) {
      const chunk = created.slice(i, i + TRANSACTION_LIMIT);
      if ((await this.createAll(chunk)) === 'exists') updated.push(...chunk);
    }
    await inParallel(updated, WRITES_IN_FLIGHT, async (change) => {
      const Key = screeningEntryItem.key(change.network, change.address);
      if (change.kind === 'list') {
        await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key,
            UpdateExpression: 'SET #type = :type, #network = :network, #address = :address, #ofac = :ofac REMOVE ofacDelistedAt',
            ExpressionAttributeNames: { ...ENTRY_NAMES, '#ofac': 'ofac' },
            ExpressionAttributeValues: { ...entryHead(change), ':ofac': change.ofac },
          }),
        );
        return;
      }
      try {
        await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key,
            UpdateExpression: 'REMOVE #ofac SET ofacDelistedAt = :at',
            ConditionExpression: 'attribute_exists(#ofac)',
            ExpressionAttributeNames: { '#ofac': 'ofac' },
            ExpressionAttributeValues: { ':at': at },
          }),
        );
      } catch (error) {
        // Delisted already (an import that stopped halfway did it): nothing left to do.
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    });
  }

  /** Creates each new entry, all or none: 'exists' if any has an entry by now. */
  private createAll(changes: Extract<OfacChange, { kind: 'list' }>[]): Promise<'written' | 'exists'> {
    const transaction = new MoneyTransaction(this.tableName);
    for (const change of changes) {
      const item = { ...screeningEntryItem.key(change.network, change.address), ...screeningEntryItem.head(change.network, change.address), ofac: change.ofac };
      transaction.create(item, answer('exists'));
    }
    return transaction.commitOrAnswer<'exists'>(this.db);
  }

  async finishImport(
    outcome: { summary: ImportSummary; synced: boolean; ofacEntries: Partial<Record<NetworkName, number>>; changed: boolean },
    audit: OperatorAuditEntry | null,
  ): Promise<void> {
    const { summary, synced, ofacEntries, changed } = outcome;
    const set = ['#type = :type', 'lastImport = :summary', 'ofacEntries = :entries'];
    const values: Record<string, unknown> = { ':type': screeningListItem.type, ':summary': summary, ':entries': ofacEntries };
    if (synced) {
      set.push('ofacSyncedAt = :at', 'ofacFrom = :from', 'ofacIssuedOn = :issuedOn');
      Object.assign(values, { ':at': summary.at, ':from': summary.from, ':issuedOn': summary.issuedOn });
    }
    if (changed) {
      set.push('changedAt = :changedAt');
      Object.assign(values, { ':changedAt': summary.at, ':one': 1 });
    }
    const transaction = new MoneyTransaction(this.tableName).update(screeningListItem.key(), {
      expression: `SET ${set.join(', ')} REMOVE importStartedAt${synced ? ', lastRefreshFailure' : ''}${changed ? ' ADD version :one' : ''}`,
      names: { '#type': 'type' },
      values,
    });
    if (audit) transaction.create(operatorAuditEntryItem.toItem(audit), () => new Error(`Operator audit entry ${audit.id} exists`));
    await transaction.commit(this.db);
  }

  async addStage(entries: EntryKey[], stage: NonNullable<ScreeningEntry['stage']>, audit: OperatorAuditEntry): Promise<'added' | 'listed'> {
    const transaction = new MoneyTransaction(this.tableName);
    for (const entry of entries) {
      transaction.update(screeningEntryItem.key(entry.network, entry.address), {
        expression: 'SET #type = :type, #network = :network, #address = :address, #stage = :stage REMOVE stageRemovedAt',
        condition: 'attribute_not_exists(#stage)',
        names: { ...ENTRY_NAMES, '#stage': 'stage' },
        values: { ...entryHead(entry), ':stage': stage },
        onFailed: answer('listed'),
      });
    }
    return this.withVersionAndAudit(transaction, entries.length, audit.createdAt, audit).commitOrAnswer<'listed'>(this.db).then((outcome) => (outcome === 'written' ? 'added' : outcome));
  }

  async removeStage(entries: EntryKey[], audit: OperatorAuditEntry): Promise<'removed' | 'not-listed'> {
    const transaction = new MoneyTransaction(this.tableName);
    for (const entry of entries) {
      transaction.update(screeningEntryItem.key(entry.network, entry.address), {
        expression: 'REMOVE #stage SET stageRemovedAt = :at',
        condition: 'attribute_exists(#stage)',
        names: { '#stage': 'stage' },
        values: { ':at': audit.createdAt },
        onFailed: answer('not-listed'),
      });
    }
    return this.withVersionAndAudit(transaction, -entries.length, audit.createdAt, audit).commitOrAnswer<'not-listed'>(this.db).then((outcome) => (outcome === 'written' ? 'removed' : outcome));
  }

  async recordRefreshFailure(failure: RefreshFailure): Promise<void> {
    await this.updateList('lastRefreshFailure = :failure', { ':failure': failure });
  }

  /** An UpdateItem of the list's own item: `SET #type = :type, ` then `expression`. */
  private async updateList(expression: string, values: Record<string, unknown>): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: screeningListItem.key(),
        UpdateExpression: `SET #type = :type, ${expression}`,
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':type': screeningListItem.type, ...values },
      }),
    );
  }

  /** A stage entry's change moves the version on and counts, with its audit entry, in its own transaction. */
  private withVersionAndAudit(transaction: MoneyTransaction, stageEntries: number, at: string, audit: OperatorAuditEntry): MoneyTransaction {
    return transaction
      .update(screeningListItem.key(), {
        expression: 'SET #type = :type, changedAt = :at ADD version :one, stageEntries :count',
        names: { '#type': 'type' },
        values: { ':type': screeningListItem.type, ':at': at, ':one': 1, ':count': stageEntries },
      })
      .create(operatorAuditEntryItem.toItem(audit), () => new Error(`Operator audit entry ${audit.id} exists`));
  }
}
