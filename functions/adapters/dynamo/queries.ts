import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, QueryCommand, ScanCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { validationFailed } from '#functions/shared/errors';
import { isId, type IdKind } from '#functions/shared/ids';
import { inParallel } from '#functions/shared/in-parallel';
import { TABLE } from './table-definition.ts';
import { backoffDelay, sleep, type RetryPolicy } from '#functions/shared/retry';

type Item = Record<string, unknown>;

/** Every page of a Query or Scan, one at a time, so a caller can act on a page before the next
 * is read. `command` builds the request from where the previous page stopped. */
export async function* pagesOf(
  db: DynamoDBDocumentClient,
  command: (exclusiveStartKey: Item | undefined) => QueryCommand | ScanCommand,
): AsyncGenerator<Item[]> {
  let start: Item | undefined;
  do {
    const page = await db.send(command(start));
    yield page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start);
}

/** Every page of a query: for jobs that must see all of a (small, sparse) index partition. */
export async function queryAll(db: DynamoDBDocumentClient, input: Omit<QueryCommandInput, 'ExclusiveStartKey'>): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of pagesOf(db, (ExclusiveStartKey) => new QueryCommand({ ...input, ExclusiveStartKey }))) items.push(...page);
  return items;
}

/** One item by its key, read consistently (a read right after a write sees it), or null. */
export async function readItem(db: DynamoDBDocumentClient, tableName: string, key: { PK: string; SK: string }): Promise<Item | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  return Item ?? null;
}

/** Every item of one kind in a partition (`{PK, skPrefix}` from the record's module in items/), read consistently. */
export function itemsUnder(db: DynamoDBDocumentClient, tableName: string, prefix: { PK: string; skPrefix: string }): Promise<Item[]> {
  return queryAll(db, {
    TableName: tableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': prefix.PK, ':prefix': prefix.skPrefix },
    ConsistentRead: true,
  });
}

/** Every item in one GSI1 partition (its name from the record's module in items/), every page of
 * it: the sparse partitions a job must see whole, such as the transfers still confirming or the
 * addresses set aside. GSI reads are eventually consistent. */
export function gsi1Partition(db: DynamoDBDocumentClient, tableName: string, GSI1PK: string): Promise<Item[]> {
  return queryAll(db, {
    TableName: tableName,
    IndexName: TABLE.gsi1.indexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': GSI1PK },
  });
}

/** Every item of one kind under a GSI1 partition (`{GSI1PK, skPrefix}` from the record's module in items/); GSI reads are eventually consistent. */
export function gsi1ItemsUnder(db: DynamoDBDocumentClient, tableName: string, prefix: { GSI1PK: string; skPrefix: string }): Promise<Item[]> {
  return queryAll(db, {
    TableName: tableName,
    IndexName: TABLE.gsi1.indexName,
    KeyConditionExpression: 'GSI1PK = :pk AND begins_with(GSI1SK, :prefix)',
    ExpressionAttributeValues: { ':pk': prefix.GSI1PK, ':prefix': prefix.skPrefix },
  });
}

/**
 * One page of a company's records of one kind, newest first (ids are ULIDs, so the sort key
 * sorts by time). The cursor is the last item's sort key in base64url; it is checked to be one
 * of this list's keys, and the partition always comes from the authenticated company, so a
 * cursor can never reach another company's data.
 */
export async function newestFirstPage(
  db: DynamoDBDocumentClient,
  tableName: string,
  /** `kind`: the id after the prefix, which a cursor must hold; without it, any key under the prefix. */
  list: { PK: string; skPrefix: string; kind?: IdKind },
  page: { limit: number; cursor?: string },
): Promise<{ items: Item[]; nextCursor: string | null }> {
  const startKey = page.cursor === undefined ? undefined : { PK: list.PK, SK: list.skPrefix + idFromCursor(list, page.cursor) };
  // One item more than asked tells whether another page exists, so the last page says
  // nextCursor: null instead of pointing at an empty page.
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': list.PK, ':prefix': list.skPrefix },
      ScanIndexForward: false,
      Limit: page.limit + 1,
      ConsistentRead: true,
      ...(startKey && { ExclusiveStartKey: startKey }),
    }),
  );
  const last = Items.length > page.limit ? Items[page.limit - 1] : undefined;
  return { items: Items.slice(0, page.limit), nextCursor: last ? cursorOf(last.SK as string) : null };
}

const cursorOf = (sortKey: string): string => Buffer.from(sortKey, 'utf8').toString('base64url');

function idFromCursor(list: { skPrefix: string; kind?: IdKind }, cursor: string): string {
  const sortKey = Buffer.from(cursor, 'base64url').toString('utf8');
  const id = sortKey.startsWith(list.skPrefix) ? sortKey.slice(list.skPrefix.length) : '';
  if (!(list.kind ? isId(list.kind, id) : id !== '') || cursorOf(sortKey) !== cursor) {
    throw validationFailed([{ path: 'cursor', message: 'is not a cursor returned by this list' }]);
  }
  return id;
}

const BATCH_GET_LIMIT = 100;
/** BatchGets in flight at once: a scan resolves thousands of addresses, and one round trip after
 * another would leave the reading to a single request at a time. */
const BATCH_GETS_IN_FLIGHT = 4;
/** DynamoDB leaves keys unprocessed when a partition is throttled; past ~5 s of waiting the caller
 * fails (and its job runs again) rather than hold a Lambda for as long as throttling lasts. */
const UNPROCESSED_KEYS_RETRY: RetryPolicy = { maxAttempts: 10, baseDelayMs: 50, maxDelayMs: 1000 };

/** Every item for these keys, 100 per BatchGetItem (DynamoDB's limit), a few requests at a time,
 * retrying unprocessed keys with capped backoff as DynamoDB asks. Missing items are simply absent. */
export async function batchGetAll(
  db: DynamoDBDocumentClient,
  tableName: string,
  keys: Item[],
  options: { projection?: { expression: string; names?: Record<string, string> }; consistent?: boolean } = {},
): Promise<Item[]> {
  const { projection, consistent } = options;
  const chunks: Item[][] = [];
  for (let i = 0; i < keys.length; i += BATCH_GET_LIMIT) chunks.push(keys.slice(i, i + BATCH_GET_LIMIT));
  const items: Item[] = [];
  const readChunk = async (chunk: Item[]) => {
    let pending: Item[] | undefined = chunk;
    for (let attempt = 1; pending && pending.length > 0; attempt++) {
      if (attempt > UNPROCESSED_KEYS_RETRY.maxAttempts) {
        throw new Error(`DynamoDB left ${pending.length} keys unprocessed after ${UNPROCESSED_KEYS_RETRY.maxAttempts} BatchGetItem attempts`);
      }
      if (attempt > 1) await sleep(backoffDelay(UNPROCESSED_KEYS_RETRY, attempt - 1));
      const { Responses, UnprocessedKeys } = await db.send(
        new BatchGetCommand({
          RequestItems: {
            [tableName]: {
              Keys: pending,
              ...(consistent && { ConsistentRead: true }),
              ...(projection && { ProjectionExpression: projection.expression, ExpressionAttributeNames: projection.names }),
            },
          },
        }),
      );
      items.push(...(Responses?.[tableName] ?? []));
      pending = UnprocessedKeys?.[tableName]?.Keys as Item[] | undefined;
    }
  };
  await inParallel(chunks, BATCH_GETS_IN_FLIGHT, readChunk);
  return items;
}

/** A guarded write: false when its condition failed (the item is gone, or changed since it was
 * read), which the caller answers as it sees fit; any other error is thrown. */
export async function heldCondition(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
