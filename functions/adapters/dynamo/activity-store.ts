import type { Page, PageRequest } from '#functions/shared/pagination';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { encodeTime } from 'ulid';
import type { ActivityKind, ActivityQuery, ActivityRecord, ActivityStore, EventDelivery } from '#functions/companies/activity';
import { ID_KIND } from '#functions/companies/activity';
import { validationFailed } from '#functions/shared/errors';
import { ID_PREFIXES, isId } from '#functions/shared/ids';
import { conversionItem } from './items/conversion.ts';
import { depositItem, depositReferenceItem } from './items/deposit.ts';
import { companyPartition } from './items/item.ts';
import { referenceHolder } from './refusals.ts';
import { eventItem } from './items/event.ts';
import { webhookDeliveryItem } from './items/webhook-delivery.ts';
import { itemsUnder, readItem } from './queries.ts';
import { withdrawalItem, withdrawalReferenceItem } from './items/withdrawal.ts';
import { TableStore } from './table-store.ts';

type Item = Record<string, unknown>;

/** Each list's records: their sort-key prefix in the company's partition, and their reader. */
const LISTS: Record<ActivityKind, { skPrefix: string; read: (item: Item) => ActivityRecord; filterAttribute: string }> = {
  deposits: { skPrefix: depositItem.key('', '').SK, read: (item) => ({ kind: 'deposits', record: depositItem.fromItem(item) }), filterAttribute: 'status' },
  withdrawals: { skPrefix: withdrawalItem.key('', '').SK, read: (item) => ({ kind: 'withdrawals', record: withdrawalItem.fromItem(item) }), filterAttribute: 'status' },
  conversions: { skPrefix: conversionItem.ofCompany('').skPrefix, read: (item) => ({ kind: 'conversions', record: conversionItem.fromItem(item) }), filterAttribute: 'status' },
  events: { skPrefix: eventItem.ofCompany('').skPrefix, read: (item) => ({ kind: 'events', record: eventItem.shownFromItem(item) }), filterAttribute: 'eventType' },
};

/** Items a filtered page may read before it answers with what it found and a cursor to go on:
 * bounds one request's cost whatever the filter (a rare status over a long history). */
const MAX_ITEMS_READ_PER_PAGE = 2_000;

/**
 * The dashboard's Activity lists. Access pattern (docs/data-model.md): a Query of the company's
 * partition over one record kind's sort keys, newest first. Ids are ULIDs, so a date range is a
 * sort-key range (`BETWEEN DEPOSIT#dep_<time from> AND DEPOSIT#dep_<time to>`): no index is needed
 * for "newest first within dates", and every record ever written is covered with no backfill. A
 * status and a network are a FilterExpression on that range, read at most MAX_ITEMS_READ_PER_PAGE
 * items per page: every deposit and withdrawal item holds its `network` (TRON's since the first), and
 * a company's records on one network are too few apart to pay for an index of their own. Never a
 * Scan: this class sends only Query and GetItem.
 */
export class DynamoActivityStore extends TableStore implements ActivityStore {
  async activityPage(companyId: string, kind: ActivityKind, query: ActivityQuery, page: PageRequest): Promise<Page<ActivityRecord>> {
    const list = LISTS[kind];
    const PK = companyPartition(companyId);
    const idPrefix = `${list.skPrefix}${ID_PREFIXES[ID_KIND[kind]]}_`;
    const low = query.fromMs === undefined ? idPrefix : idPrefix + encodeTime(query.fromMs, 10);
    // A ULID made at `toMs` sorts above its 10-character time alone: the bound excludes it.
    const high = query.toMs === undefined ? `${idPrefix}~` : idPrefix + encodeTime(query.toMs, 10);
    let start: Item | undefined = page.cursor === undefined ? undefined : { PK, SK: sortKeyFromCursor(kind, idPrefix, page.cursor) };
    // DynamoDB refuses a start key outside the key condition: a cursor of another filter's range.
    if (start && ((start.SK as string) < low || (start.SK as string) > high)) throw validationFailed([{ path: 'cursor', message: 'belongs to another filter' }]);
    const filter = filterExpression(list.filterAttribute, query);
    const found: Item[] = [];
    let read = 0;
    let round = 0;
    for (;;) {
      const { Items = [], LastEvaluatedKey, ScannedCount = 0 } = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :low AND :high',
          ...(filter && { FilterExpression: filter.expression, ExpressionAttributeNames: filter.names }),
          ExpressionAttributeValues: { ':pk': PK, ':low': low, ':high': high, ...filter?.values },
          ScanIndexForward: false,
          // One more than asked tells whether another page exists.
          // A filter reads more each round (×4), so a common status costs a read or two of the page's
          // size and a rare one reaches the cap in a few requests.
          Limit: filter === null ? page.limit + 1 - found.length : Math.min(MAX_ITEMS_READ_PER_PAGE - read, (page.limit + 1) * 4 ** round++),
          ...(start && { ExclusiveStartKey: start }),
        }),
      );
      found.push(...Items);
      read += ScannedCount;
      if (found.length > page.limit) {
        const records = found.slice(0, page.limit);
        return { records: records.map(list.read), nextCursor: cursorOf(records.at(-1)!.SK as string) };
      }
      if (!LastEvaluatedKey) return { records: found.map(list.read), nextCursor: null };
      if (read >= MAX_ITEMS_READ_PER_PAGE) return { records: found.map(list.read), nextCursor: cursorOf(LastEvaluatedKey.SK as string) };
      start = LastEvaluatedKey;
    }
  }

  async activityById(companyId: string, kind: ActivityKind, id: string): Promise<ActivityRecord | null> {
    // Consistent, as /v1's GETs are: a record opened right after it changed shows the change.
    const item = await readItem(this.db, this.tableName, { PK: companyPartition(companyId), SK: LISTS[kind].skPrefix + id });
    return item ? LISTS[kind].read(item) : null;
  }

  async activityIdByReference(companyId: string, kind: 'deposits' | 'withdrawals', reference: string): Promise<string | null> {
    return referenceHolder(this.db, this.tableName, kind === 'deposits' ? depositReferenceItem : withdrawalReferenceItem, companyId, reference);
  }

  async deliveriesOfEvent(companyId: string, eventId: string): Promise<EventDelivery[]> {
    return (await itemsUnder(this.db, this.tableName, webhookDeliveryItem.ofEvent(companyId, eventId))).map(webhookDeliveryItem.attemptsFromItem);
  }
}

/** The status (an event's type), network and reference conditions of a filtered list, or null for none. */
function filterExpression(statusAttribute: string, query: ActivityQuery): { expression: string; names: Record<string, string>; values: Record<string, string> } | null {
  const conditions = [
    { name: statusAttribute, value: query.status },
    { name: 'network', value: query.network },
    { name: 'reference', value: query.reference },
  ].filter((condition): condition is { name: string; value: string } => condition.value !== undefined);
  if (!conditions.length) return null;
  return {
    expression: conditions.map((_, i) => `#filter${i} = :filter${i}`).join(' AND '),
    names: Object.fromEntries(conditions.map((condition, i) => [`#filter${i}`, condition.name])),
    values: Object.fromEntries(conditions.map((condition, i) => [`:filter${i}`, condition.value])),
  };
}

const cursorOf = (sortKey: string): string => Buffer.from(sortKey, 'utf8').toString('base64url');

/** A cursor is one of this list's own sort keys; the partition always comes from the caller. */
function sortKeyFromCursor(kind: ActivityKind, idPrefix: string, cursor: string): string {
  const sortKey = Buffer.from(cursor, 'base64url').toString('utf8');
  const id = sortKey.slice(LISTS[kind].skPrefix.length);
  if (!sortKey.startsWith(idPrefix) || !isId(ID_KIND[kind], id) || cursorOf(sortKey) !== cursor) {
    throw validationFailed([{ path: 'cursor', message: 'is not a cursor returned by this list' }]);
  }
  return sortKey;
}
