import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '#functions/companies/audit-log';
import type { Company } from '#functions/companies/company';
import type { Invitation, InvitationStore } from '#functions/people/invitations';
import type { Membership, Person } from '#functions/people/team';
import { notFound } from '#functions/shared/errors';
import { newCompanyItems } from './company-store.ts';
import { auditEntryItem } from './items/audit-entry.ts';
import { invitationItem, membershipItem, personItem } from './items/team.ts';
import { readItem } from './queries.ts';
import { TableStore } from './table-store.ts';

/** Invitations (items/team.ts invitationItem): a company made with its first Owner's, and a link followed. */
export class DynamoInvitationStore extends TableStore implements InvitationStore {
  async createCompanyWithInvitation(company: Company, invitation: Invitation, audit: AuditEntry): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [...newCompanyItems(company), invitationItem.toItem(invitation), auditEntryItem.toItem(audit)].map((item) => this.putNew(item)),
      }),
    );
  }

  async findInvitation(tokenHash: string): Promise<Invitation | null> {
    const item = await readItem(this.db, this.tableName, invitationItem.key(tokenHash));
    return item ? invitationItem.fromItem(item) : null;
  }

  async acceptInvitation(invitation: Invitation, person: Person, membership: Membership, audit: AuditEntry): Promise<void> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: this.tableName, Key: invitationItem.key(invitation.tokenHash), ConditionExpression: 'attribute_exists(PK)' } },
            { Put: { TableName: this.tableName, Item: personItem.toItem(person) } },
            this.putNew(membershipItem.toItem(membership)),
            this.putNew(auditEntryItem.toItem(audit)),
          ],
        }),
      );
    } catch (error) {
      if ((error as Error).name === 'TransactionCanceledException') throw notFound('Invitation');
      throw error;
    }
  }
}
