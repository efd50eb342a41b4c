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

/** The one owner of a stored `EmailVerification`: the link a sign-up mails to prove the address,
 * one live per person, in their own partition; DynamoDB removes a lapsed one by itself. */
export const emailVerificationItem = {
  ...personRecord('EmailVerification', 'EMAIL_VERIFICATION'),
  toItem: (link: EmailVerification): Item => ({
    ...emailVerificationItem.head(link.personId),
    ...link,
    [TABLE.ttlAttribute]: Math.ceil(Date.parse(link.expiresAt) / 1000),
  }),
  fromItem: (item: Item): EmailVerification => storedFields<EmailVerification>(item, ['personId', 'email', 'tokenHash', 'createdAt', 'expiresAt']),
};

/** The one owner of a stored `PasswordReset`: the person's one live link to choose a new password,
 * in their own partition; DynamoDB removes a lapsed one by itself. */
export const passwordResetItem = {
  ...personRecord('PasswordReset', 'PASSWORD_RESET'),
  toItem: (reset: PasswordReset): Item => ({
    ...passwordResetItem.head(reset.personId),
    ...reset,
    [TABLE.ttlAttribute]: Math.ceil(Date.parse(reset.expiresAt) / 1000),
  }),
  fromItem: (item: Item): PasswordReset => storedFields<PasswordReset>(item, ['personId', 'email', 'tokenHash', 'createdAt', 'expiresAt']),
};

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
    storedFields<Invitation>(item, ['tokenHash', 'companyId', 'email', 'role', 'expiresAt', 'createdAt']),
};
