import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { queryAll } from './queries.ts';
import { TABLE } from './table-definition.ts';

/** Every item in one GSI1 partition (its name from the record's module in items/), every page of
 * it: the sparse partitions a job must see whole, such as the transfers still confirming or the
 * addresses set aside. GSI reads are eventually consistent. */
export function gsi1Partition(db: DynamoDBDocumentClient, tableName: string, GSI1PK: string): Promise<Record<string, unknown>[]> {
  return queryAll(db, {
    TableName: tableName,
    IndexName: TABLE.gsi1.indexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': GSI1PK },
  });
}
