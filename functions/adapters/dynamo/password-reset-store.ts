import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { PasswordReset, PasswordResetStore } from '#functions/people/password-reset';
import { TableStore } from './table-store.ts';
import { passwordResetItem } from './items/team.ts';
import { heldCondition, readItem } from './queries.ts';

/** A person's password reset link (items/team.ts passwordResetItem). */
export class DynamoPasswordResetStore extends TableStore implements PasswordResetStore {
  async putReset(reset: PasswordReset, notBefore: string): Promise<boolean> {
    // One conditional put is the minute's limit: of two requests at once, one writes and mails.
    return heldCondition(
      this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: passwordResetItem.toItem(reset),
          ConditionExpression: 'attribute_not_exists(PK) OR createdAt < :notBefore',
          ExpressionAttributeValues: { ':notBefore': notBefore },
        }),
      ),
    );
  }

  async getReset(personId: string): Promise<PasswordReset | null> {
    const item = await readItem(this.db, this.tableName, passwordResetItem.key(personId));
    return item ? passwordResetItem.fromItem(item) : null;
  }

  async deleteReset(personId: string, tokenHash: string): Promise<boolean> {
    return heldCondition(
      this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: passwordResetItem.key(personId),
          ConditionExpression: 'tokenHash = :tokenHash',
          ExpressionAttributeValues: { ':tokenHash': tokenHash },
        }),
      ),
    );
  }
}
