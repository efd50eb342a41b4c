import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SignOut, SignOuts } from '#functions/people/sign-outs';
import { signOutItem } from './items/sign-out.ts';
import { heldCondition, readItem } from './queries.ts';
import { TableStore } from './table-store.ts';

/** Records and reads sign-outs (items/sign-out.ts); a later sign-out is never overwritten by an earlier one. */
export class DynamoSignOuts extends TableStore implements SignOuts {
  async record(signOut: SignOut): Promise<void> {
    // Refused when a later sign-out is already recorded: it ends at least as much as this one.
    await heldCondition(
      this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: signOutItem.toItem(signOut),
          ConditionExpression: 'attribute_not_exists(PK) OR signedOutAt < :at',
          ExpressionAttributeValues: { ':at': signOut.at },
        }),
      ),
    );
  }

  async lastOf(personId: string): Promise<SignOut | null> {
    const item = await readItem(this.db, this.tableName, signOutItem.key(personId));
    return item ? signOutItem.fromItem(item) : null;
  }
}
