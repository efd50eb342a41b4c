import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { CodeAttemptStore, CountedAttempt } from '#functions/people/code-attempts';
import { codeAttemptsItem, usedCodeItem } from './items/code-attempt.ts';
import { readItem } from './queries.ts';
import { TableStore } from './table-store.ts';

/** The limits on a person's authenticator codes (items/code-attempt.ts), each change one conditional write. */
export class DynamoCodeAttempts extends TableStore implements CodeAttemptStore {
  async countAttempt(email: string, limit: number, since: Date, now: Date): Promise<CountedAttempt> {
    const key = codeAttemptsItem.key(email);
    const values = { ':now': now.toISOString(), ':since': since.toISOString(), ':ttl': codeAttemptsItem.ttl(now), ':one': 1 };
    // Two guarded writes and a read can race a count that starts again in between; a few rounds settle it.
    for (let round = 0; round < 3; round += 1) {
      const restarted = await this.updateIf(key, 'SET #type = :type, attempts = :one, lastAttemptAt = :now, #ttl = :ttl', 'attribute_not_exists(PK) OR lastAttemptAt < :since', {
        values: { ...values, ':type': codeAttemptsItem.type },
        names: { '#type': 'type', '#ttl': 'ttl' },
      });
      if (restarted) return { counted: true };
      const added = await this.updateIf(key, 'ADD attempts :one SET lastAttemptAt = :now, #ttl = :ttl', 'attempts < :limit AND lastAttemptAt >= :since', {
        values: { ...values, ':limit': limit },
        names: { '#ttl': 'ttl' },
      });
      if (added) return { counted: true };
      const lastAt = codeAttemptsItem.lastAttemptAt(await readItem(this.db, this.tableName, key));
      if (lastAt && lastAt >= since) return { counted: false, lastAt };
    }
    return { counted: false, lastAt: now };
  }

  async uncountAttempt(email: string): Promise<void> {
    await this.updateIf(codeAttemptsItem.key(email), 'ADD attempts :minusOne', 'attempts > :zero', { values: { ':minusOne': -1, ':zero': 0 } });
  }

  async clearAttempts(email: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: codeAttemptsItem.key(email) }));
  }

  claimCode(email: string, code: string, since: Date, now: Date): Promise<boolean> {
    return this.putIf(usedCodeItem.toItem(email, code, now), 'attribute_not_exists(PK) OR usedAt < :since', { values: { ':since': since.toISOString() } });
  }

  async releaseCode(email: string, code: string, claimedAt: Date): Promise<void> {
    await this.deleteIf(usedCodeItem.key(email, code), 'usedAt = :at', { values: { ':at': claimedAt.toISOString() } });
  }
}
