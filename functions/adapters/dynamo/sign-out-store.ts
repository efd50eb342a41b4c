import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { LONGEST_ACCESS_TOKEN_SECONDS, type SignOut, type SignOuts } from '#domain/sign-outs';
import { readItem } from './queries.ts';
import { TableStore } from './table-store.ts';

/**
 * The `SignOut` record (docs/data-model.md): a person's latest sign-out, in their own partition,
 * read by the session authorizer on each of its cache misses. It matters only while access tokens
 * from before it could still be alive, so TTL removes it after the longest validity.
 */
const key = (personId: string) => ({ PK: `PERSON#${personId}`, SK: 'SIGNED_OUT' });

export function signOutItem(signOut: SignOut) {
  return {
    ...key(signOut.personId),
    type: 'SignOut',
    personId: signOut.personId,
    signedOutAt: signOut.at,
    originJti: signOut.originJti,
    ttl: Math.floor(Date.parse(signOut.at) / 1000) + LONGEST_ACCESS_TOKEN_SECONDS + 60 * 60,
  };
}

export function signOutFromItem(item: Record<string, unknown>): SignOut {
  return { personId: item.personId as string, at: item.signedOutAt as string, originJti: (item.originJti as string | null) ?? null };
}

export class DynamoSignOuts extends TableStore implements SignOuts {
  async record(signOut: SignOut): Promise<void> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: signOutItem(signOut),
          ConditionExpression: 'attribute_not_exists(PK) OR signedOutAt < :at',
          ExpressionAttributeValues: { ':at': signOut.at },
        }),
      );
    } catch (error) {
      // A later sign-out is already recorded: it ends at least as much as this one.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async lastOf(personId: string): Promise<SignOut | null> {
    const item = await readItem(this.db, this.tableName, key(personId));
    return item ? signOutFromItem(item) : null;
  }
}
