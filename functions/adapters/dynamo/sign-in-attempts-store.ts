import { DeleteCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { AccountAttempts, AttemptKey, SignInAttempts, SourceAttempts } from '#functions/people/sign-in-limits';
import { signInAccountItem, signInSourceItem } from './items/sign-in-attempts.ts';
import { readItem } from './queries.ts';
import { TableStore } from './table-store.ts';

/** Both values are what a write over a read version is guarded by: absent, or the version read. */
const unchangedSince = (version: number | undefined) =>
  version === undefined
    ? { ConditionExpression: 'attribute_not_exists(PK)' }
    : { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': version } };

/** The sign-in counts (items/sign-in-attempts.ts), each write guarded by the version it was decided on. */
export class DynamoSignInAttempts extends TableStore implements SignInAttempts {
  async read(key: AttemptKey): Promise<{ account: AccountAttempts | null; source: SourceAttempts | null }> {
    const [account, source] = await Promise.all([
      readItem(this.db, this.tableName, signInAccountItem.key(key.account)),
      readItem(this.db, this.tableName, signInSourceItem.key(key.account, key.source)),
    ]);
    return { account: account ? signInAccountItem.fromItem(account) : null, source: source ? signInSourceItem.fromItem(source) : null };
  }

  async charge(
    key: AttemptKey,
    before: { account: AccountAttempts | null; source: SourceAttempts | null },
    after: { account: AccountAttempts; source: SourceAttempts },
  ): Promise<boolean> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: this.tableName, Item: signInAccountItem.toItem(key.account, after.account), ...unchangedSince(before.account?.version) } },
            { Put: { TableName: this.tableName, Item: signInSourceItem.toItem(key.account, key.source, after.source), ...unchangedSince(before.source?.version) } },
          ],
        }),
      );
      return true;
    } catch (error) {
      // A changed count, or another attempt's transaction on the same items at the same moment.
      if (error instanceof TransactionCanceledException) return false;
      throw error;
    }
  }

  async clear(key: AttemptKey, knownUntil: string): Promise<void> {
    const now = new Date().toISOString();
    await Promise.all([
      this.db.send(new DeleteCommand({ TableName: this.tableName, Key: signInAccountItem.key(key.account) })),
      // The version goes on rising, so an attempt decided on the count before this clear is refused its write.
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: signInSourceItem.key(key.account, key.source),
          UpdateExpression: 'SET #type = :type, failures = :zero, windowEndsAt = :now, knownUntil = :knownUntil, #ttl = :ttl ADD version :one',
          ExpressionAttributeNames: { '#type': 'type', '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':type': signInSourceItem.type, ':zero': 0, ':now': now, ':knownUntil': knownUntil, ':ttl': signInSourceItem.ttlOf(knownUntil), ':one': 1 },
        }),
      ),
    ]);
  }
}
