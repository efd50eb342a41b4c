import type { Page, PageRequest } from '#functions/shared/pagination';
import { DeleteCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { IdKind } from '#functions/shared/ids';
import type { Item } from './items/item.ts';
import { heldCondition, newestFirstPage, readItem } from './queries.ts';

/** A record kept in its company's partition (items/item.ts `companyRecord`) and its reader. */
interface CompanyRecordFormat<T> {
  key(companyId: string, id: string): { PK: string; SK: string };
  ofCompany(companyId: string): { PK: string; skPrefix: string };
  fromItem(item: Item): T;
}

/** The `:value` placeholders and `#name` aliases a write's expressions use: DynamoDB refuses any
 * the expressions leave unused, so each write passes only its own. */
export interface ExpressionAttributes {
  values?: Record<string, unknown>;
  names?: Record<string, string>;
}

const expressionAttributes = ({ values, names }: ExpressionAttributes) => ({
  ...(values && { ExpressionAttributeValues: values }),
  ...(names && { ExpressionAttributeNames: names }),
});

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

  /** Puts `Item` where `condition` holds of the item it would replace; false where it does not. */
  protected putIf(Item: Item, condition: string, attributes: ExpressionAttributes = {}): Promise<boolean> {
    return heldCondition(this.db.send(new PutCommand({ TableName: this.tableName, Item, ConditionExpression: condition, ...expressionAttributes(attributes) })));
  }

  /** Applies `update` to the item at `Key` where `condition` holds of it; false where it does not. */
  protected updateIf(Key: { PK: string; SK: string }, update: string, condition: string, attributes: ExpressionAttributes = {}): Promise<boolean> {
    return heldCondition(
      this.db.send(new UpdateCommand({ TableName: this.tableName, Key, UpdateExpression: update, ConditionExpression: condition, ...expressionAttributes(attributes) })),
    );
  }

  /** Deletes the item at `Key` where `condition` holds of it; false where it does not. */
  protected deleteIf(Key: { PK: string; SK: string }, condition: string, attributes: ExpressionAttributes = {}): Promise<boolean> {
    return heldCondition(this.db.send(new DeleteCommand({ TableName: this.tableName, Key, ConditionExpression: condition, ...expressionAttributes(attributes) })));
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
