import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { windowOf, type MailCounter, type MailCounts } from '#functions/mail/mail-limits';
import { mailCountItem } from './items/mail-count.ts';
import { TableStore } from './table-store.ts';

/** The mail counters (items/mail-count.ts): each count one atomic, conditional UpdateItem. */
export class DynamoMailCounts extends TableStore implements MailCounts {
  async countOne(counter: MailCounter, limit: number, now: Date): Promise<boolean> {
    const { key, expiresAtSeconds } = windowOf(counter, now);
    try {
      await this.db.send(new UpdateCommand({ TableName: this.tableName, Key: mailCountItem.key(counter, key), ...mailCountItem.countOne(limit, expiresAtSeconds) }));
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException || (error as Error).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }

  async uncountOne(counter: MailCounter, now: Date): Promise<void> {
    try {
      await this.db.send(new UpdateCommand({ TableName: this.tableName, Key: mailCountItem.key(counter, windowOf(counter, now).key), ...mailCountItem.uncountOne() }));
    } catch (error) {
      // Its window ended meanwhile and TTL took it: nothing to take back.
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    }
  }
}
