import type { Page, PageRequest } from '#functions/shared/pagination';
import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord } from '#functions/api-keys/api-keys';
import type { AuditEntry } from '#functions/companies/audit-log';
import { zeroBalances, type Company } from '#functions/companies/company';
import type { DashboardStore, Invitation } from '#functions/people/dashboard';
import { notFound } from '#functions/shared/errors';
import type { Membership, MemberStanding, Person } from '#functions/people/team';
import type { TwoFactorRequirement, TwoFactorRequirementStore } from '#functions/people/two-factor';
import { DynamoCompanyStore } from './company-store.ts';
import { batchGetAll, gsi1ItemsUnder, readItem } from './queries.ts';
import { apiKeyItem, balanceItem, companyItem } from './items/company.ts';
import { auditEntryItem } from './items/audit-entry.ts';
import { invitationItem, membershipItem, personItem } from './items/team.ts';
import { twoFactorMarkItem, twoFactorRequirementItem } from './items/two-factor.ts';
import { MoneyTransaction } from './transaction.ts';

type Item = Record<string, unknown>;

/** People, memberships, invitations, the audit log and the dashboard's key changes. Keys are the
 * company store's records (apiKeyItem), so the authorizer and the dashboard read the same item. */
export class DynamoDashboardStore extends DynamoCompanyStore implements DashboardStore, TwoFactorRequirementStore {
  /** Every company call's one read (BatchGetItem, consistent): membership, the company's two-factor
   * rule and the person's two-factor mark. */
  async standingOf(companyId: string, personId: string): Promise<MemberStanding> {
    const items = await batchGetAll(this.db, this.tableName, [membershipItem.key(companyId, personId), twoFactorRequirementItem.key(companyId), twoFactorMarkItem.key(personId)], {
      consistent: true,
    });
    const ofType = (type: string) => items.find((item) => item.type === type);
    const membership = ofType(membershipItem.type);
    return {
      membership: membership ? membershipItem.fromItem(membership) : null,
      twoFactorRequired: twoFactorRequirementItem.fromItem(ofType(twoFactorRequirementItem.type)).required,
      twoFactorOn: ofType(twoFactorMarkItem.type) !== undefined,
    };
  }

  async markTwoFactorOn(personId: string, since: string): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: twoFactorMarkItem.toItem(personId, since) }));
  }

  async markTwoFactorOff(personId: string, audit: AuditEntry[]): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [{ Delete: { TableName: this.tableName, Key: twoFactorMarkItem.key(personId) } }, ...audit.map((entry) => this.put(auditEntryItem.toItem(entry)))],
      }),
    );
  }

  async isTwoFactorOn(personId: string): Promise<boolean> {
    return (await readItem(this.db, this.tableName, twoFactorMarkItem.key(personId))) !== null;
  }

  async setTwoFactorRequirement(companyId: string, requirement: TwoFactorRequirement, audit: AuditEntry): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [{ Put: { TableName: this.tableName, Item: twoFactorRequirementItem.toItem(companyId, requirement) } }, this.put(auditEntryItem.toItem(audit))],
      }),
    );
  }

  private put(Item: Item) {
    return { Put: { TableName: this.tableName, Item, ConditionExpression: 'attribute_not_exists(PK)' } };
  }

  private newCompanyItems(company: Company) {
    return [companyItem.toItem(company), ...zeroBalances(company.createdAt).map((row) => balanceItem.toItem(company.id, row))].map((item) => this.put(item));
  }

  async membershipsOf(personId: string): Promise<Membership[]> {
    return (await gsi1ItemsUnder(this.db, this.tableName, membershipItem.ofPerson(personId))).map(membershipItem.fromItem);
  }

  async createCompanyWithOwner(company: Company, person: Person, membership: Membership, audit: AuditEntry): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          ...this.newCompanyItems(company),
          // The person exists already when they sign up a second company with the same email.
          { Put: { TableName: this.tableName, Item: personItem.toItem(person) } },
          this.put(membershipItem.toItem(membership)),
          this.put(auditEntryItem.toItem(audit)),
        ],
      }),
    );
  }

  async createCompanyWithInvitation(company: Company, invitation: Invitation, audit: AuditEntry): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [...this.newCompanyItems(company), this.put(invitationItem.toItem(invitation)), this.put(auditEntryItem.toItem(audit))],
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
            this.put(membershipItem.toItem(membership)),
            this.put(auditEntryItem.toItem(audit)),
          ],
        }),
      );
    } catch (error) {
      if ((error as Error).name === 'TransactionCanceledException') throw notFound('Invitation');
      throw error;
    }
  }

  /** One conditional put per entry: a new id never overwrites an entry (the log is append-only). */
  async appendAudit(entries: AuditEntry[]): Promise<void> {
    await Promise.all(entries.map((entry) => this.db.send(new PutCommand(this.put(auditEntryItem.toItem(entry)).Put))));
  }

  async auditPage(companyId: string, page: PageRequest): Promise<Page<AuditEntry>> {
    return this.newestCompanyRecords(auditEntryItem, 'auditEntry', companyId, page);
  }

  async apiKeysOf(companyId: string): Promise<ApiKeyRecord[]> {
    return (await gsi1ItemsUnder(this.db, this.tableName, apiKeyItem.ofCompany(companyId))).map(apiKeyItem.fromItem);
  }

  async addApiKey(record: ApiKeyRecord, audit: AuditEntry): Promise<void> {
    await this.db.send(new TransactWriteCommand({ TransactItems: [this.put(apiKeyItem.toItem(record)), this.put(auditEntryItem.toItem(audit))] }));
  }

  async updateApiKey(before: ApiKeyRecord, after: ApiKeyRecord, audit: AuditEntry): Promise<void> {
    // An update, not a put: lastUsedAt belongs to the authorizer and must survive a roll.
    const set = {
      secretHash: after.secretHash,
      status: after.status,
      previousSecretHash: after.previousSecretHash,
      previousSecretExpiresAt: after.previousSecretExpiresAt,
      revokedAt: after.revokedAt,
      allowedIps: after.allowedIps,
    };
    const present = Object.entries(set).filter(([, value]) => value !== null);
    const absent = Object.entries(set).filter(([, value]) => value === null);
    const update = [`SET ${present.map(([name]) => `#${name} = :${name}`).join(', ')}`, absent.length ? `REMOVE ${absent.map(([name]) => `#${name}`).join(', ')}` : ''].join(' ');
    await new MoneyTransaction(this.tableName)
      .update(apiKeyItem.key(after.keyId), {
        expression: update,
        // A key stored before the dashboard has no status attribute: it is active.
        condition: 'secretHash = :beforeHash AND (attribute_not_exists(#status) OR #status = :active) AND companyId = :companyId',
        names: Object.fromEntries(Object.keys(set).map((name) => [`#${name}`, name])),
        values: {
          ...Object.fromEntries(present.map(([name, value]) => [`:${name}`, value])),
          ':beforeHash': before.secretHash,
          ':active': 'active',
          ':companyId': before.companyId,
        },
        onFailed: () => notFound('API key'),
      })
      .create(auditEntryItem.toItem(audit), () => new Error(`Audit entry ${audit.id} exists`))
      .commit(this.db);
  }
}
