import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** What every store over the single table holds: the document client and the table's name. */
export abstract class TableStore {
  constructor(
    protected readonly db: DynamoDBDocumentClient,
    protected readonly tableName: string,
  ) {}
}
