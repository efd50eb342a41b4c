import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The single table's shape, shared by the CDK stack (lib/) and the local runtime, so the table
 * DynamoDB Local serves is the one AWS gets. Each record's keys live in its module under items/.
 */
export const TABLE = {
  partitionKey: 'PK',
  sortKey: 'SK',
  gsi1: { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
  /** Epoch seconds; DynamoDB deletes the item some time after (idempotency records, quotes). */
  ttlAttribute: 'ttl',
} as const;

export function createTableInput(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: TABLE.partitionKey, AttributeType: 'S' },
      { AttributeName: TABLE.sortKey, AttributeType: 'S' },
      { AttributeName: TABLE.gsi1.partitionKey, AttributeType: 'S' },
      { AttributeName: TABLE.gsi1.sortKey, AttributeType: 'S' },
    ],
    KeySchema: [
      { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: TABLE.gsi1.indexName,
        KeySchema: [
          { AttributeName: TABLE.gsi1.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE.gsi1.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ],
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  };
}
