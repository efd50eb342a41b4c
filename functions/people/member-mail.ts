import { getCompany, type CompanyStore } from '../companies/company.ts';
import type { Mail, Mailer } from '../mail/mail.ts';
import { may, type Membership, type Permission } from './team.ts';

export interface MemberLookup {
  membersOf(companyId: string): Promise<Membership[]>;
}

/**
 * Mails every member of the company whose role grants `permission` (or whom `who` picks), each a
 * mail made for them in the company's name: webhook alerts go to those who manage webhooks, the
 * withdrawal allowlist's and daily limit's widening changes to those who manage them, a two-factor
 * rule to those it stops. Throws what the reads or the mailer throw; each caller says what a failed
 * mail means to it.
 */
export async function mailMembersWho(
  who: Permission | ((members: Membership[]) => Promise<Membership[]>),
  deps: { companies: CompanyStore; members: MemberLookup; mailer: Mailer },
  companyId: string,
  mailFor: (to: string, companyName: string) => Mail,
): Promise<void> {
  const [company, members] = await Promise.all([getCompany(deps.companies, companyId), deps.members.membersOf(companyId)]);
  const picked = typeof who === 'function' ? await who(members) : members.filter((m) => may(m.role, who));
  for (const member of picked) await deps.mailer.send(mailFor(member.email, company.name));
}
