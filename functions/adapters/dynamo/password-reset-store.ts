import type { PasswordReset, PasswordResetStore } from '#functions/people/password-reset';
import type { MailCounts } from '#functions/mail/mail-limits';
import { TableStore } from './table-store.ts';
import { passwordResetItem } from './items/team.ts';
import { DynamoMailCounts } from './mail-count-store.ts';
import { readItem } from './queries.ts';

/** A person's password reset link (items/team.ts passwordResetItem), and the counts of reset mails. */
export class DynamoPasswordResetStore extends TableStore implements PasswordResetStore {
  /** The same counters as sign-up's and invitations' (items/mail-count.ts), under the reset's kind. */
  readonly mailCounts: MailCounts = new DynamoMailCounts(this.db, this.tableName);

  async putReset(reset: PasswordReset, notBefore: string): Promise<boolean> {
    // One conditional put is the minute's limit: of two requests at once, one writes and mails.
    return this.putIf(passwordResetItem.toItem(reset), 'attribute_not_exists(PK) OR createdAt < :notBefore', { values: { ':notBefore': notBefore } });
  }

  async getReset(personId: string): Promise<PasswordReset | null> {
    const item = await readItem(this.db, this.tableName, passwordResetItem.key(personId));
    return item ? passwordResetItem.fromItem(item) : null;
  }

  async deleteReset(personId: string, tokenHash: string): Promise<boolean> {
    return this.deleteIf(passwordResetItem.key(personId), 'tokenHash = :tokenHash', { values: { ':tokenHash': tokenHash } });
  }
}
