import { auditEntry, type AuditActor, type AuditEntry, type RequestOrigin } from '../companies/audit-log.ts';
import { actorOf, commandLine, type Caller } from './caller.ts';
import { newInvitation, type Invitation } from './invitations.ts';
import { getCompany, type Company, type CompanyStore } from '../companies/company.ts';
import { ApiError, notFound, validationFailed } from '../shared/errors.ts';
import { invitationMail, type Mailer } from '../mail/mail.ts';
import { countMail, type MailCounts } from '../mail/mail-limits.ts';
import type { Log } from '../shared/log.ts';
import { checkEmail, raises, type Membership, type Role } from './team.ts';
import { confirmChange, type ChangeConfirmation } from './step-up.ts';

/**
 * The Team page's use cases (../shared/dashboard.md, Team): members invited, their roles changed,
 * members removed. The handler has checked `manageTeam` (Owner, Admin); on top of it, only an Owner
 * may make, demote or remove an Owner, so an Admin cannot take the company from its Owners. A
 * company always keeps one Owner: demoting or removing an Owner is written only if another
 * membership is still an Owner at that moment (a condition in the same transaction), so two
 * concurrent demotions of the last two Owners cannot both succeed.
 */
export interface TeamStore {
  membersOf(companyId: string): Promise<Membership[]>;
  /** The company's invitations not yet accepted (expired ones included until DynamoDB's TTL removes them). */
  invitationsOf(companyId: string): Promise<Invitation[]>;
  addInvitation(invitation: Invitation, audit: AuditEntry): Promise<void>;
  /** Deletes the invitation, so its link stops working; false if it is gone (accepted, revoked or lapsed). */
  deleteInvitation(invitation: Invitation, audit: AuditEntry): Promise<boolean>;
  /** `fresh` in place of `old`, whose link stops working, all or nothing; false if `old` is gone. */
  replaceInvitation(old: Invitation, fresh: Invitation, audit: AuditEntry): Promise<boolean>;
  /**
   * Sets `member`'s role to `role` (or deletes the membership when `role` is null), only if its
   * role is still `member.role` and, when `keptOwner` is given, that membership is still an Owner;
   * deletes `revoked` (the member's own pending invitations) with their audit entries, all or
   * nothing. False when a condition failed: the caller reads again.
   */
  changeMembership(member: Membership, role: Role | null, keptOwner: Membership | null, audit: AuditEntry, revoked: { invitation: Invitation; audit: AuditEntry }[]): Promise<boolean>;
  /** Whether the company requires two-factor sign-in, and which of these people have it on (their marks). */
  twoFactorOf(companyId: string, personIds: string[]): Promise<{ required: boolean; on: Set<string> }>;
}

export interface TeamView {
  /** `twoFactorOn`: the person has two-factor sign-in on (their mark), so an Owner sees who a
   * requirement would stop. */
  members: (Membership & { twoFactorOn: boolean })[];
  twoFactorRequired: boolean;
  /** `id` names it for `Revoke`: the hash of its token, never the token (only the link holds that). */
  invitations: { id: string; email: string; role: Role; createdAt: string; expiresAt: string }[];
}

export async function team(store: TeamStore, caller: Caller, now = new Date()): Promise<TeamView> {
  const [members, invitations] = await Promise.all([store.membersOf(caller.membership.companyId), store.invitationsOf(caller.membership.companyId)]);
  const twoFactor = await store.twoFactorOf(caller.membership.companyId, members.map((member) => member.personId));
  return {
    members: members.sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1)).map((member) => ({ ...member, twoFactorOn: twoFactor.on.has(member.personId) })),
    twoFactorRequired: twoFactor.required,
    invitations: invitations
      .filter((i) => i.expiresAt > now.toISOString())
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))
      .map(({ tokenHash, email, role, createdAt, expiresAt }) => ({ id: tokenHash, email, role, createdAt, expiresAt })),
  };
}

function requireOwnerFor(caller: Caller, role: Role, what: string): void {
  if (role === 'Owner' && caller.membership.role !== 'Owner') throw new ApiError('FORBIDDEN', `Only an Owner may ${what} an Owner`);
}

/**
 * How an invitation is mailed, where the stage mails (functions/adapters/mail/from-settings.ts):
 * the link opens `acceptUrl` with the token.
 */
export interface InvitationMailing {
  mailer: Mailer;
  acceptUrl: string;
  companies: CompanyStore;
  log: Log;
}

/** What Invite member and Resend answer: never the token, which only the invited person's mail holds. */
export interface InvitationSent {
  email: string;
  role: Role;
  expiresAt: string;
  /** False when the mail could not go: the invitation stands, and `Resend` tries again. */
  emailed: boolean;
}

/**
 * The token goes to the invited person's mailbox and nowhere else (../shared/dashboard.md,
 * Security): following the mailed link is what proves the address, so the inviter must not hold it,
 * or anyone could invite someone else's address and claim it. The table keeps its hash. A stage that
 * does not mail cannot invite from the dashboard (an operator can: npm run company:invite).
 */
export async function inviteMember(
  store: TeamStore,
  counts: MailCounts,
  caller: Caller,
  input: { email: string; role: Role },
  mailing: InvitationMailing | null,
  confirmation: ChangeConfirmation,
  now = new Date(),
): Promise<InvitationSent> {
  const email = checkEmail(input.email);
  const mail = requireMailing(mailing);
  requireOwnerFor(caller, input.role, 'invite');
  const companyId = caller.membership.companyId;
  const pending = (await store.invitationsOf(companyId)).filter((i) => i.expiresAt > now.toISOString()).length;
  if (pending >= INVITATION_LIMITS.pendingPerCompany) {
    throw new ApiError('LIMIT_REACHED', `A company can have at most ${INVITATION_LIMITS.pendingPerCompany} pending invitations: revoke some, or wait for them to be accepted or to lapse`, {
      limit: INVITATION_LIMITS.pendingPerCompany,
    });
  }
  const by = { actor: actorOf(caller.membership), origin: caller.origin };
  // Once the person is known not to be a member (a password and a single-use code are not spent on an
  // invitation refused for that), the proof; then counted, once the invitation is known to be made: a
  // refused one sends no mail, so it spends none of the address's daily invitations.
  const { invitation, token } = await addNewInvitation(store, companyId, email, input.role, by, now, async () => {
    await confirmChange(caller, confirmation, moneyReachOf(null, input.role), now);
    await countInvitation(counts, companyId, email, now);
  });
  const emailed = await mailInvitation(mail, invitation, token, caller.membership.email);
  return { email, role: input.role, expiresAt: invitation.expiresAt, emailed };
}

/**
 * A member who can send withdrawals, or issue the API keys that send them, is one more way to move
 * the company's money: inviting one, or raising a member, asks the person's password and code
 * (step-up.ts confirmChange), or a session cookie copied within their minutes could invite its holder
 * in as an Admin who pays out with a password of their own. A Viewer's invitation, and a lowered
 * role, ask the recent sign-in.
 */
function moneyReachOf(from: Role | null, to: Role): string | null {
  if (!raises(from, to)) return null;
  return to === 'Developer' ? 'a Developer can issue API keys that send withdrawals' : `an ${to} can send withdrawals`;
}

/** Where the stage sends no mail, an invitation could reach its person only through the inviter. */
function requireMailing(mailing: InvitationMailing | null): InvitationMailing {
  if (mailing) return mailing;
  throw new ApiError('FORBIDDEN', 'This stage sends no mail, so an invitation could not reach its person: ask your Cambio operator to invite them (npm run company:invite)');
}

/**
 * How many invitations a company may make: pending at once, and (with `Resend`) in an hour; how
 * many one company may send one address in a day; and how many one address may be sent in a day
 * from every company together. Each makes a mail to an address the inviter chose, and a sandbox
 * company is free to make (docs/dashboard-api.md, Limits on invitations). The address's own count
 * is the larger one, so that no one company can spend it: a company that floods an address stops
 * at its own 3 and leaves the address's other inviters room, while many companies together still
 * cannot flood it. The pending cap is read, not counted: the hourly count bounds what a race adds.
 */
export const INVITATION_LIMITS = { pendingPerCompany: 50, perCompanyPerHour: 20, perCompanyPerAddressPerDay: 3, perAddressPerDay: 10 } as const;

/** One more invitation on the company's hourly count and the address's daily ones, or 429 RATE_LIMITED. */
async function countInvitation(counts: MailCounts, companyId: string, email: string, now: Date): Promise<void> {
  const refused = await countMail(
    counts,
    [
      { counter: { kind: 'invitation', of: { companyId }, per: 'hour' }, limit: INVITATION_LIMITS.perCompanyPerHour },
      { counter: { kind: 'invitation', of: { companyId, email }, per: 'day' }, limit: INVITATION_LIMITS.perCompanyPerAddressPerDay },
      { counter: { kind: 'invitation', of: { email }, per: 'day' }, limit: INVITATION_LIMITS.perAddressPerDay },
    ],
    now,
  );
  if (!refused) return;
  const retryAt = refused.retryAt.toISOString();
  const of = refused.counter.of;
  const message =
    'companyId' in of
      ? 'email' in of
        ? `This company has sent ${email} ${refused.limit} invitations today, the most it may send one address: try again after ${retryAt}, or send the link you already have`
        : `This company has made ${refused.limit} invitations this hour, the most it may: try again after ${retryAt}`
      : `${email} has been sent ${refused.limit} invitations today, the most one address may be sent from every company together: try again after ${retryAt}`;
  throw new ApiError('RATE_LIMITED', message, { limit: refused.limit, retryAt });
}

/** A new invitation to the company for someone not yet its member, stored with its audit entry;
 * `beforeWrite` (the proof, the mail limits) runs once the person is known not to be a member. */
async function addNewInvitation(
  store: TeamStore,
  companyId: string,
  email: string,
  role: Role,
  by: { actor: AuditActor; origin: RequestOrigin },
  now: Date,
  beforeWrite: () => Promise<void> = async () => {},
): Promise<{ invitation: Invitation; token: string }> {
  if ((await store.membersOf(companyId)).some((m) => m.email === email)) throw validationFailed([{ path: 'email', message: 'is already a member of this company' }]);
  await beforeWrite();
  const created = newInvitation(companyId, email, role, now, by.actor.personId);
  await store.addInvitation(created.invitation, auditEntry(companyId, 'invitation.created', by.actor, by.origin, now, email, { role }));
  return created;
}

/**
 * `npm run company:invite`: an operator invites a person to an existing company, whatever its
 * people may do: a new Owner where every Owner has left or lost their sign-in, which no one in the
 * dashboard could then do. Audited as the command line, as `company:create`'s first Owner is.
 */
export async function inviteByOperator(
  store: TeamStore,
  companies: CompanyStore,
  companyId: string,
  input: { email: string; role: Role },
  now = new Date(),
  operator: string | null = null,
): Promise<{ company: Company; invitation: Invitation; token: string }> {
  const email = checkEmail(input.email);
  const company = await getCompany(companies, companyId);
  return { company, ...(await addNewInvitation(store, companyId, email, input.role, commandLine(operator), now)) };
}

async function mailInvitation(mailing: InvitationMailing, invitation: Invitation, token: string, invitedBy: string): Promise<boolean> {
  try {
    const companyName = (await getCompany(mailing.companies, invitation.companyId)).name;
    const link = `${mailing.acceptUrl}?token=${token}`;
    await mailing.mailer.send(invitationMail({ to: invitation.email, companyName, role: invitation.role, invitedBy, link, expiresAt: invitation.expiresAt }));
    return true;
  } catch (error) {
    // The name and status only: a mail service's message may quote the address, and never the token.
    const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    mailing.log.warn('invitation not mailed; it stands, and Resend mails a new link', { companyId: invitation.companyId, error: name ?? 'Error', status: $metadata?.httpStatusCode ?? null });
    return false;
  }
}

/** `Revoke` on a pending invitation: its link stops working. Only an Owner revokes an Owner's invitation. */
export async function revokeInvitation(store: TeamStore, caller: Caller, invitationId: string, now = new Date()): Promise<void> {
  const invitation = await pendingInvitation(store, caller, invitationId, 'revoke the invitation of', now);
  const audit = auditEntry(invitation.companyId, 'invitation.revoked', actorOf(caller.membership), caller.origin, now, invitation.email, { role: invitation.role });
  // Accepted or revoked meanwhile: gone either way.
  if (!(await store.deleteInvitation(invitation, audit))) throw notFound('Invitation');
}

/**
 * `Resend` on a pending invitation: a new link for the same person and role, for 7 more days, mailed
 * to them (and only to them, as an invitation is); the old link stops working, so a lost or leaked
 * one is dealt with too.
 */
export async function resendInvitation(
  store: TeamStore,
  counts: MailCounts,
  caller: Caller,
  invitationId: string,
  mailing: InvitationMailing | null,
  now = new Date(),
): Promise<InvitationSent> {
  const mail = requireMailing(mailing);
  const old = await pendingInvitation(store, caller, invitationId, 'resend the invitation of', now);
  await countInvitation(counts, old.companyId, old.email, now);
  const { invitation, token } = newInvitation(old.companyId, old.email, old.role, now, caller.membership.personId);
  const audit = auditEntry(old.companyId, 'invitation.resent', actorOf(caller.membership), caller.origin, now, old.email, { role: old.role });
  if (!(await store.replaceInvitation(old, invitation, audit))) throw notFound('Invitation');
  const emailed = await mailInvitation(mail, invitation, token, caller.membership.email);
  return { email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt, emailed };
}

/** One of the company's own live invitations by id, so another company's id is a 404 like a made-up
 * one; only an Owner acts on an Owner's. */
async function pendingInvitation(store: TeamStore, caller: Caller, invitationId: string, what: string, now: Date): Promise<Invitation> {
  const invitation = /^[0-9a-f]{64}$/.test(invitationId) ? (await store.invitationsOf(caller.membership.companyId)).find((i) => i.tokenHash === invitationId) : undefined;
  if (!invitation || invitation.expiresAt <= now.toISOString()) throw notFound('Invitation');
  requireOwnerFor(caller, invitation.role, what);
  return invitation;
}

export const changeRole = (store: TeamStore, caller: Caller, personId: string, role: Role, confirmation: ChangeConfirmation, now = new Date()) =>
  changeMember(store, caller, personId, role, now, (from) => confirmChange(caller, confirmation, moneyReachOf(from, role), now));
export const removeMember = (store: TeamStore, caller: Caller, personId: string, now = new Date()) => changeMember(store, caller, personId, null, now);

const ATTEMPTS = 3;

/** `confirm`: asked of the member's role as read, before anything is written, until the person's proof
 * has been checked, which covers a role changed meanwhile too (a removal asks nothing). */
async function changeMember(
  store: TeamStore,
  caller: Caller,
  personId: string,
  role: Role | null,
  now: Date,
  confirm?: (from: Role) => Promise<'proof' | 'recentSignIn'>,
): Promise<Membership | null> {
  const companyId = caller.membership.companyId;
  let proven = false;
  for (let attempt = 1; ; attempt++) {
    const members = await store.membersOf(companyId);
    const member = members.find((m) => m.personId === personId);
    if (!member) throw notFound('Member');
    if (role !== null) requireOwnerFor(caller, role, 'make');
    requireOwnerFor(caller, member.role, role === null ? 'remove' : 'demote');
    if (member.role === role) return member;
    if (confirm && !proven) proven = (await confirm(member.role)) === 'proof';
    // Whom the change leaves as an Owner: any other Owner will do, as long as it is still one when written.
    const keptOwner = member.role === 'Owner' ? (members.find((m) => m.role === 'Owner' && m.personId !== personId) ?? null) : null;
    if (member.role === 'Owner' && !keptOwner) throw lastOwner(role === null);
    const audit = auditEntry(companyId, role === null ? 'member.removed' : 'member.role_changed', actorOf(caller.membership), caller.origin, now, member.email, role === null ? { role: member.role } : { from: member.role, to: role });
    // Invitations the member still has pending (made before they joined by another) go too: a
    // removed member must not come back through one, nor a re-roled one take its older role. So do
    // those the member made: a removed Admin must not come back through an invitation of their own
    // to another address, nor one re-roled leave behind what only their old role could give.
    const revoked = (await store.invitationsOf(companyId))
      .filter((invitation) => invitation.email === member.email || invitation.invitedBy === member.personId)
      .map((invitation) => ({ invitation, audit: auditEntry(companyId, 'invitation.revoked', actorOf(caller.membership), caller.origin, now, invitation.email, { role: invitation.role }) }));
    if (await store.changeMembership(member, role, keptOwner, audit, revoked)) return role === null ? null : { ...member, role };
    // Someone changed the team meanwhile: read it again and decide again.
    if (attempt === ATTEMPTS) throw lastOwner(role === null);
  }
}

const lastOwner = (removal: boolean): ApiError =>
  new ApiError('VALIDATION_FAILED', `The last Owner cannot be ${removal ? 'removed' : 'demoted'}: a company keeps at least one Owner`, [
    { path: removal ? 'personId' : 'role', message: 'would leave the company without an Owner' },
  ]);
