import { auditEntry, type AuditAction, type AuditEntry, type AuditLogStore, type RequestOrigin } from '../companies/audit-log.ts';
import { getCompany, type Company, type CompanyStore } from '../companies/company.ts';
import type { Environment } from '../api-keys/api-keys.ts';
import { actorOf } from './caller.ts';
import type { Membership, Person, Role } from './team.ts';

/** A person's memberships: which companies they belong to, and in what role (team.ts). */
export interface MembershipStore {
  membershipsOf(personId: string): Promise<Membership[]>;
  /** Company, zero balances, the person, the Owner membership and the audit entry, all or nothing. */
  createCompanyWithOwner(company: Company, person: Person, membership: Membership, audit: AuditEntry): Promise<void>;
}

/** Where what a person does for themselves (a sign-in, two-factor on or off, a proven address) is
 * logged: the audit log of every company they belong to, so each one's Owners see it. */
export interface PersonAudit {
  memberships: Pick<MembershipStore, 'membershipsOf'>;
  auditLog: Pick<AuditLogStore, 'appendAudit'>;
}

/** The entry for each company the person belongs to. */
export async function auditOfPerson(memberships: PersonAudit['memberships'], personId: string, action: AuditAction, origin: RequestOrigin, now: Date): Promise<AuditEntry[]> {
  return (await memberships.membershipsOf(personId)).map((m) => auditEntry(m.companyId, action, actorOf(m), origin, now));
}

export async function auditPerson(deps: PersonAudit, personId: string, action: AuditAction, origin: RequestOrigin, now: Date): Promise<void> {
  await deps.auditLog.appendAudit(await auditOfPerson(deps.memberships, personId, action, origin, now));
}

export interface MeView {
  personId: string;
  email: string | null;
  companies: { id: string; name: string; environment: Environment; role: Role }[];
}

/** The signed-in person and the companies they belong to. */
export async function me(deps: { memberships: Pick<MembershipStore, 'membershipsOf'>; companies: CompanyStore }, personId: string): Promise<MeView> {
  const memberships = await deps.memberships.membershipsOf(personId);
  const companies = await Promise.all(
    memberships.map(async (m) => {
      const company = await getCompany(deps.companies, m.companyId);
      return { id: company.id, name: company.name, environment: company.environment, role: m.role };
    }),
  );
  return { personId, email: memberships[0]?.email ?? null, companies };
}
