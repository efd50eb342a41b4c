import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '#functions/companies/audit-log';
import type { Company } from '#functions/companies/company';
import type { MembershipStore } from '#functions/people/memberships';
import type { Membership, MemberStanding, Person } from '#functions/people/team';
import { newCompanyItems } from './company-store.ts';
import { auditEntryItem } from './items/audit-entry.ts';
import { membershipItem, personItem } from './items/team.ts';
import { twoFactorMarkItem, twoFactorRequirementItem } from './items/two-factor.ts';
import { batchGetAll, gsi1ItemsUnder } from './queries.ts';
import { TableStore } from './table-store.ts';

/** People's memberships (items/team.ts membershipItem), and what every company call of the
 * dashboard checks of one (functions/http/dashboard-route.ts MembershipLookup). */
export class DynamoMembershipStore extends TableStore implements MembershipStore {
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

  async membershipsOf(personId: string): Promise<Membership[]> {
    return (await gsi1ItemsUnder(this.db, this.tableName, membershipItem.ofPerson(personId))).map(membershipItem.fromItem);
  }

  async createCompanyWithOwner(company: Company, person: Person, membership: Membership, audit: AuditEntry): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          ...newCompanyItems(company).map((item) => this.putNew(item)),
          // The person exists already when they sign up a second company with the same email.
          { Put: { TableName: this.tableName, Item: personItem.toItem(person) } },
          this.putNew(membershipItem.toItem(membership)),
          this.putNew(auditEntryItem.toItem(audit)),
        ],
      }),
    );
  }
}
