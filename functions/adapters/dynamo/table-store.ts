import type { Page, PageRequest } from '#functions/shared/pagination';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { IdKind } from '#functions/shared/ids';
import type { Item } from './items/item.ts';
import { newestFirstPage, readItem } from './queries.ts';

/** A record kept in its company's partition (items/item.ts `companyRecord`) and its reader. */
interface CompanyRecordFormat<T> {
  key(companyId: string, id: string): { PK: string; SK: string };
  ofCompany(companyId: string): { PK: string; skPrefix: string };
  fromItem(item: Item): T;
}

/** What every store over the single table holds: the document client and the table's name. */
export abstract class TableStore {
  constructor(
    protected readonly db: DynamoDBDocumentClient,
    protected readonly tableName: string,
  ) {}

  /** A transaction's put of a new item: it never overwrites one (ids are new, records append-only). */
  protected putNew(Item: Item) {
    return { Put: { TableName: this.tableName, Item, ConditionExpression: 'attribute_not_exists(PK)' } };
  }

  /**
   * A company's record by id, or null (another company's id finds nothing). Read consistently: a
   * GET right after the POST that made the record must find it, as integrators expect.
   */
  protected async companyRecordById<T>(record: CompanyRecordFormat<T>, companyId: string, id: string): Promise<T | null> {
    const item = await readItem(this.db, this.tableName, record.key(companyId, id));
    return item ? record.fromItem(item) : null;
  }

  /** A page of a company's records of one kind, newest first; the cursor names a `kind` id. */
  protected async newestCompanyRecords<T>(
    record: CompanyRecordFormat<T>,
    kind: IdKind,
    companyId: string,
    page: PageRequest,
  ): Promise<Page<T>> {
    const { items, nextCursor } = await newestFirstPage(this.db, this.tableName, { ...record.ofCompany(companyId), kind }, page);
    return { records: items.map(record.fromItem), nextCursor };
  }
}
