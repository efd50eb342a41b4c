import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import {
  IDEMPOTENCY_TTL_SECONDS,
  IN_FLIGHT_LOCK_SECONDS,
  type BeginOutcome,
  type IdempotencyScope,
  type IdempotencyStore,
  type StoredResponse,
} from '#http/idempotency';
import { idempotencyRecordItem } from './items/idempotency-record.ts';
import { heldCondition } from './queries.ts';
import { TableStore } from './table-store.ts';

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * One conditional put claims the key and, when it is taken, returns the existing record in the
 * same call (ReturnValuesOnConditionCheckFailure), as Powertools' idempotency utility does.
 */
export class DynamoIdempotencyStore extends TableStore implements IdempotencyStore {
  async begin(scope: IdempotencyScope, now: Date): Promise<BeginOutcome> {
    const nowSeconds = epochSeconds(now);
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...idempotencyRecordItem.key(scope.companyId, scope.key),
            type: idempotencyRecordItem.type,
            companyId: scope.companyId,
            idempotencyKey: scope.key,
            fingerprint: scope.fingerprint,
            status: 'in_progress',
            lockedUntil: nowSeconds + IN_FLIGHT_LOCK_SECONDS,
            createdAt: now.toISOString(),
            ttl: nowSeconds + IDEMPOTENCY_TTL_SECONDS,
          },
          // TTL deletion lags: an expired record is treated as absent.
          ConditionExpression: 'attribute_not_exists(PK) OR #ttl < :now OR (#status = :inProgress AND lockedUntil < :now)',
          ExpressionAttributeNames: { '#ttl': 'ttl', '#status': 'status' },
          ExpressionAttributeValues: { ':now': nowSeconds, ':inProgress': 'in_progress' },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { kind: 'started' };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException) || !error.Item) throw error;
      const existing = unmarshall(error.Item);
      if (existing.fingerprint !== scope.fingerprint) return { kind: 'mismatch' };
      if (existing.status !== 'completed') return { kind: 'in_progress' };
      return { kind: 'replay', response: { statusCode: Number(existing.responseStatus), body: String(existing.responseBody) } };
    }
  }

  async complete(scope: IdempotencyScope, response: StoredResponse, now: Date): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: idempotencyRecordItem.key(scope.companyId, scope.key),
        UpdateExpression: 'SET #status = :completed, responseStatus = :statusCode, responseBody = :body, completedAt = :now REMOVE lockedUntil',
        ConditionExpression: 'fingerprint = :fingerprint',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':completed': 'completed',
          ':statusCode': response.statusCode,
          ':body': response.body,
          ':now': now.toISOString(),
          ':fingerprint': scope.fingerprint,
        },
      }),
    );
  }

  async release(scope: IdempotencyScope): Promise<void> {
    await heldCondition(
      this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: idempotencyRecordItem.key(scope.companyId, scope.key),
          ConditionExpression: 'fingerprint = :fingerprint AND #status = :inProgress',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':fingerprint': scope.fingerprint, ':inProgress': 'in_progress' },
        }),
      ),
    );
  }
}
