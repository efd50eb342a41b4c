import type { Invitation } from '#functions/people/invitations';
import type { EmailVerification } from '#functions/people/email-verification';
import type { PasswordReset } from '#functions/people/password-reset';
import type { Membership, Person } from '#functions/people/team';
import { TABLE } from '../table-definition.ts';
import { companyListed, companyPartition, personPartition, personRecord, storedFields, type Item } from './item.ts';

/** The one owner of a dashboard user's stored `Person` (a Cognito user; `personId` is its `sub`). */
export const personItem = {
  ...personRecord('Person', 'PROFILE'),
  toItem: (person: Person): Item => ({ ...personItem.head(person.personId), ...person }),
  fromItem: (item: Item): Person => ({
    ...storedFields<Person>(item, ['personId', 'email', 'createdAt']),
    // Kept as stored: null (waiting for the link) and absent (counts as proven) differ.
    ...('emailVerifiedAt' in item && { emailVerifiedAt: item.emailVerifiedAt as string | null }),
  }),
};

/** A link mailed to a person, one live per person in their own partition, stored as its fields;
 * DynamoDB removes a lapsed one by itself. */
function mailedLinkRecord<Link extends EmailVerification | PasswordReset>(type: string, sk: string) {
  const record = personRecord(type, sk);
  return {
    ...record,
    toItem: (link: Link): Item => ({
      ...record.head(link.personId),
      ...link,
      [TABLE.ttlAttribute]: Math.ceil(Date.parse(link.expiresAt) / 1000),
    }),
    fromItem: (item: Item): Link => storedFields<Link>(item, ['personId', 'email', 'tokenHash', 'createdAt', 'expiresAt']),
  };
}

/** The one owner of a stored `EmailVerification`: the link a sign-up mails to prove the address. */
export const emailVerificationItem = mailedLinkRecord<EmailVerification>('EmailVerification', 'EMAIL_VERIFICATION');

/** The one owner of a stored `PasswordReset`: the person's link to choose a new password. */
export const passwordResetItem = mailedLinkRecord<PasswordReset>('PasswordReset', 'PASSWORD_RESET');

/** The one owner of a stored `Membership`: a person's role in a company, read by (company, person)
 * on every dashboard call, and by person (GSI1) at sign-in for the companies they belong to. */
export const membershipItem = {
  type: 'Membership',
  key: (companyId: string, personId: string) => ({ PK: companyPartition(companyId), SK: `MEMBER#${personId}` }),
  membersOf: (companyId: string) => ({ PK: companyPartition(companyId), skPrefix: 'MEMBER#' }),
  byPerson: (personId: string, companyId: string) => ({ GSI1PK: personPartition(personId), GSI1SK: `MEMBER#${companyId}` }),
  ofPerson: (personId: string) => ({ GSI1PK: personPartition(personId), skPrefix: 'MEMBER#' }),

  toItem: (m: Membership): Item => ({
    ...membershipItem.key(m.companyId, m.personId),
    ...membershipItem.byPerson(m.personId, m.companyId),
    type: membershipItem.type,
    ...m,
  }),
  fromItem: (item: Item): Membership => storedFields<Membership>(item, ['companyId', 'personId', 'email', 'role', 'createdAt']),
};

/** The one owner of a stored `Invitation`: found by the hash of the token in its link, deleted when
 * accepted, and listed by company (GSI1) for the Team page. */
export const invitationItem = {
  ...companyListed('Invitation', 'INVITATION'),

  toItem: (invitation: Invitation): Item => ({
    ...invitationItem.keys(invitation.companyId, invitation.tokenHash),
    ...invitation,
    // DynamoDB removes a lapsed invitation by itself; the expiry check does not wait for it.
    [TABLE.ttlAttribute]: Math.ceil(Date.parse(invitation.expiresAt) / 1000),
  }),
  fromItem: (item: Item): Invitation =>
    storedFields<Invitation>(item, ['tokenHash', 'companyId', 'email', 'role', 'expiresAt', 'createdAt', 'invitedBy']),
};
