import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RunLeases } from '#functions/networks/run-lease';
import { runLeaseItem } from './items/run-lease.ts';
import { heldCondition } from './queries.ts';

/** The job leases in the table (functions/networks/run-lease.ts), each one conditional write. */
export class DynamoRunLeases implements RunLeases {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async take(name: string, holder: string, until: Date, now: Date): Promise<boolean> {
    return heldCondition(
      this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: runLeaseItem.toItem(name, holder, until),
          // None yet, or the last one lapsed (released, or its run died).
          ConditionExpression: 'attribute_not_exists(PK) OR #until <= :now',
          ExpressionAttributeNames: { '#until': 'until' },
          ExpressionAttributeValues: { ':now': now.toISOString() },
        }),
      ),
    );
  }

  async release(name: string, holder: string, now: Date): Promise<void> {
    await heldCondition(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: runLeaseItem.key(name),
          UpdateExpression: 'SET #until = :now',
          ConditionExpression: 'holder = :holder',
          ExpressionAttributeNames: { '#until': 'until' },
          ExpressionAttributeValues: { ':now': now.toISOString(), ':holder': holder },
        }),
      ),
    );
  }
}
