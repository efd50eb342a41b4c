import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import {
  IDEMPOTENCY_TTL_SECONDS,
  IN_FLIGHT_LOCK_SECONDS,
  type BeginOutcome,
  type IdempotencyScope,
  type IdempotencyStore,
  keyInUse,
  storedAnswer,
  type StoredResponse,
} from '#http/idempotency';
import { idempotencyRecordItem } from './items/idempotency-record.ts';
import { TableStore } from './table-store.ts';
import type { Alongside, AlongsideOf } from '#functions/shared/alongside';
import { asAlongside, type KeyedUpdate } from './transaction.ts';

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The request still holds the key: its claim, not yet answered. */
const HOLDS_KEY = 'claim = :claim AND #status = :inProgress';
const holdsKeyValues = (scope: IdempotencyScope) => ({ ':claim': scope.claim, ':inProgress': 'in_progress' });

/** The answered record, while the request holds the key (HOLDS_KEY). */
function answerWrite(scope: IdempotencyScope, response: StoredResponse, now: Date): KeyedUpdate {
  return {
    key: idempotencyRecordItem.key(scope.companyId, scope.key),
    update: {
      expression: 'SET #status = :completed, responseStatus = :statusCode, responseBody = :body, completedAt = :now REMOVE lockedUntil',
      condition: HOLDS_KEY,
      names: { '#status': 'status' },
      values: { ':completed': 'completed', ':statusCode': response.statusCode, ':body': response.body, ':now': now.toISOString(), ...holdsKeyValues(scope) },
      onFailed: keyInUse,
    },
  };
}

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
            claim: scope.claim,
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

  /** The answer stored on its own, after the request's work (answerWrite's update, sent alone). */
  async complete(scope: IdempotencyScope, response: StoredResponse, now: Date): Promise<boolean> {
    const { update } = answerWrite(scope, response, now);
    return this.updateIf(idempotencyRecordItem.key(scope.companyId, scope.key), update.expression, HOLDS_KEY, { names: update.names, values: update.values });
  }

  /**
   * The write that stores the answer, in the request's own transaction, so the work and its answer
   * commit together: stored after the work, a crash between the two left the key to a retry after
   * the lock, which did the work again (a second webhook endpoint) or met it as a duplicate (409
   * DUPLICATE_REFERENCE, QUOTE_ALREADY_USED) instead of the first answer. Only while this request
   * holds the key: one taken over after its lock, or already answered, cancels the work too, and the
   * caller is told to retry (409 IDEMPOTENCY_KEY_IN_USE), which then replays.
   */
  answerAlongside(scope: IdempotencyScope, response: StoredResponse, now: Date): Alongside {
    return asAlongside(answerWrite(scope, response, now));
  }

  /**
   * For a route that creates its record in one transaction: the write of its answer (`status`, the
   * record's `view`), built from the record as created and written beside it (answerWrite); none
   * when the request claimed no key.
   */
  answerFor<R>(claimed: IdempotencyScope | undefined, status: number, view: (record: R) => unknown): AlongsideOf<R> | undefined {
    return claimed && ((record) => this.answerAlongside(claimed, storedAnswer(status, view(record)), new Date()));
  }

  async release(scope: IdempotencyScope): Promise<void> {
    await this.deleteIf(idempotencyRecordItem.key(scope.companyId, scope.key), HOLDS_KEY, { names: { '#status': 'status' }, values: holdsKeyValues(scope) });
  }
}
