import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EmailVerification, EmailVerificationStore } from '#functions/people/email-verification';
import type { Person } from '#functions/people/team';
import { TableStore } from './table-store.ts';
import { emailVerificationItem, personItem } from './items/team.ts';
import { heldCondition, readItem } from './queries.ts';

/** What proving an address reads and writes: the person's `Person` (whether their address is
 * proven) and their one live link (items/team.ts emailVerificationItem). */
export class DynamoEmailVerificationStore extends TableStore implements EmailVerificationStore {
  async getPerson(personId: string): Promise<Person | null> {
    const item = await readItem(this.db, this.tableName, personItem.key(personId));
    return item ? personItem.fromItem(item) : null;
  }

  async putVerification(link: EmailVerification): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: emailVerificationItem.toItem(link) }));
  }

  async getVerification(personId: string): Promise<EmailVerification | null> {
    const item = await readItem(this.db, this.tableName, emailVerificationItem.key(personId));
    return item ? emailVerificationItem.fromItem(item) : null;
  }

  async deleteVerification(personId: string, tokenHash: string): Promise<boolean> {
    const condition = { ConditionExpression: 'tokenHash = :tokenHash', ExpressionAttributeValues: { ':tokenHash': tokenHash } };
    return heldCondition(this.db.send(new DeleteCommand({ TableName: this.tableName, Key: emailVerificationItem.key(personId), ...condition })));
  }

  async markEmailVerified(personId: string, at: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: personItem.key(personId),
        UpdateExpression: 'SET emailVerifiedAt = :at',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':at': at },
      }),
    );
  }
}
