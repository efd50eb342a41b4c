import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CodeAttemptStore, CountedAttempt } from '#functions/people/code-attempts';
import { codeAttemptsItem, usedCodeItem } from './items/code-attempt.ts';
import { heldCondition, readItem } from './queries.ts';
import { TableStore } from './table-store.ts';

/** The limits on a person's authenticator codes (items/code-attempt.ts), each change one conditional write. */
export class DynamoCodeAttempts extends TableStore implements CodeAttemptStore {
  async countAttempt(email: string, limit: number, since: Date, now: Date): Promise<CountedAttempt> {
    const key = codeAttemptsItem.key(email);
    const values = { ':now': now.toISOString(), ':since': since.toISOString(), ':ttl': codeAttemptsItem.ttl(now), ':one': 1 };
    // Two guarded writes and a read can race a count that starts again in between; a few rounds settle it.
    for (let round = 0; round < 3; round += 1) {
      const restarted = await heldCondition(
        this.update(key, 'SET #type = :type, attempts = :one, lastAttemptAt = :now, #ttl = :ttl', 'attribute_not_exists(PK) OR lastAttemptAt < :since', {
          ...values,
          ':type': codeAttemptsItem.type,
        }),
      );
      if (restarted) return { counted: true };
      const added = await heldCondition(this.update(key, 'ADD attempts :one SET lastAttemptAt = :now, #ttl = :ttl', 'attempts < :limit AND lastAttemptAt >= :since', { ...values, ':limit': limit }));
      if (added) return { counted: true };
      const lastAt = codeAttemptsItem.lastAttemptAt(await readItem(this.db, this.tableName, key));
      if (lastAt && lastAt >= since) return { counted: false, lastAt };
    }
    return { counted: false, lastAt: now };
  }

  async uncountAttempt(email: string): Promise<void> {
    await heldCondition(this.update(codeAttemptsItem.key(email), 'ADD attempts :minusOne', 'attempts > :zero', { ':minusOne': -1, ':zero': 0 }));
  }

  async clearAttempts(email: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: codeAttemptsItem.key(email) }));
  }

  async claimCode(email: string, code: string, since: Date, now: Date): Promise<boolean> {
    return heldCondition(
      this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: usedCodeItem.toItem(email, code, now),
          ConditionExpression: 'attribute_not_exists(PK) OR usedAt < :since',
          ExpressionAttributeValues: { ':since': since.toISOString() },
        }),
      ),
    );
  }

  async releaseCode(email: string, code: string, claimedAt: Date): Promise<void> {
    await heldCondition(
      this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: usedCodeItem.key(email, code),
          ConditionExpression: 'usedAt = :at',
          ExpressionAttributeValues: { ':at': claimedAt.toISOString() },
        }),
      ),
    );
  }

  private update(key: { PK: string; SK: string }, expression: string, condition: string, values: Record<string, unknown>) {
    const names = { ...(expression.includes('#type') && { '#type': 'type' }), ...(expression.includes('#ttl') && { '#ttl': 'ttl' }) };
    return this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: key,
        UpdateExpression: expression,
        ConditionExpression: condition,
        ExpressionAttributeValues: values,
        ...(Object.keys(names).length > 0 && { ExpressionAttributeNames: names }),
      }),
    );
  }
}
