import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '#functions/companies/audit-log';
import type { Invitation } from '#functions/people/invitations';
import type { TeamStore } from '#functions/people/team-members';
import type { Membership, Role } from '#functions/people/team';
import { auditEntryItem } from './items/audit-entry.ts';
import { invitationItem, membershipItem } from './items/team.ts';
import { batchGetAll, gsi1ItemsUnder, itemsUnder } from './queries.ts';
import { twoFactorMarkItem, twoFactorRequirementItem } from './items/two-factor.ts';
import { TableStore } from './table-store.ts';

/** The Team page's reads and writes of memberships, invitations and two-factor marks
 * (membershipItem, invitationItem and auditEntryItem own their formats). */
export class DynamoTeamStore extends TableStore implements TeamStore {
  async membersOf(companyId: string): Promise<Membership[]> {
    return (await itemsUnder(this.db, this.tableName, membershipItem.membersOf(companyId))).map(membershipItem.fromItem);
  }

  async twoFactorOf(companyId: string, personIds: string[]): Promise<{ required: boolean; on: Set<string> }> {
    const items = await batchGetAll(this.db, this.tableName, [twoFactorRequirementItem.key(companyId), ...personIds.map(twoFactorMarkItem.key)]);
    return {
      required: twoFactorRequirementItem.fromItem(items.find((item) => item.type === twoFactorRequirementItem.type)).required,
      on: new Set(items.filter((item) => item.type === twoFactorMarkItem.type).map((item) => item.personId as string)),
    };
  }

  async invitationsOf(companyId: string): Promise<Invitation[]> {
    return (await gsi1ItemsUnder(this.db, this.tableName, invitationItem.ofCompany(companyId))).map(invitationItem.fromItem);
  }

  async addInvitation(invitation: Invitation, audit: AuditEntry): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [invitationItem.toItem(invitation), auditEntryItem.toItem(audit)].map((Item) => ({
          Put: { TableName: this.tableName, Item, ConditionExpression: 'attribute_not_exists(PK)' },
        })),
      }),
    );
  }

  async deleteInvitation(invitation: Invitation, audit: AuditEntry): Promise<boolean> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: this.tableName, Key: invitationItem.key(invitation.tokenHash), ConditionExpression: 'attribute_exists(PK)' } },
            { Put: { TableName: this.tableName, Item: auditEntryItem.toItem(audit), ConditionExpression: 'attribute_not_exists(PK)' } },
          ],
        }),
      );
      return true;
    } catch (error) {
      if ((error as Error).name === 'TransactionCanceledException') return false;
      throw error;
    }
  }

  async replaceInvitation(old: Invitation, fresh: Invitation, audit: AuditEntry): Promise<boolean> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: this.tableName, Key: invitationItem.key(old.tokenHash), ConditionExpression: 'attribute_exists(PK)' } },
            ...[invitationItem.toItem(fresh), auditEntryItem.toItem(audit)].map((Item) => ({ Put: { TableName: this.tableName, Item, ConditionExpression: 'attribute_not_exists(PK)' } })),
          ],
        }),
      );
      return true;
    } catch (error) {
      if ((error as Error).name === 'TransactionCanceledException') return false;
      throw error;
    }
  }

  async changeMembership(member: Membership, role: Role | null, keptOwner: Membership | null, audit: AuditEntry, revoked: { invitation: Invitation; audit: AuditEntry }[]): Promise<boolean> {
    const Key = membershipItem.key(member.companyId, member.personId);
    const stillSame = { ConditionExpression: '#role = :before', ExpressionAttributeNames: { '#role': 'role' } };
    const change =
      role === null
        ? { Delete: { TableName: this.tableName, Key, ...stillSame, ExpressionAttributeValues: { ':before': member.role } } }
        : { Update: { TableName: this.tableName, Key, UpdateExpression: 'SET #role = :role', ...stillSame, ExpressionAttributeValues: { ':before': member.role, ':role': role } } };
    // The Owner the company keeps must still be one when this is written, not only when it was read.
    const ownerKept = keptOwner && {
      ConditionCheck: {
        TableName: this.tableName,
        Key: membershipItem.key(keptOwner.companyId, keptOwner.personId),
        ConditionExpression: '#role = :owner',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':owner': 'Owner' },
      },
    };
    const audited = (entry: AuditEntry) => ({ Put: { TableName: this.tableName, Item: auditEntryItem.toItem(entry), ConditionExpression: 'attribute_not_exists(PK)' } });
    // Unconditional: an invitation accepted or lapsed meanwhile is gone either way.
    const revokedInvitations = revoked.flatMap((r) => [{ Delete: { TableName: this.tableName, Key: invitationItem.key(r.invitation.tokenHash) } }, audited(r.audit)]);
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: [change, ...(ownerKept ? [ownerKept] : []), audited(audit), ...revokedInvitations] }));
      return true;
    } catch (error) {
      if ((error as Error).name === 'TransactionCanceledException') return false;
      throw error;
    }
  }
}
