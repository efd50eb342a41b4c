import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../shared/errors.ts';
import type { Log } from '../shared/log.ts';
import { countMail, type MailCounts } from '../mail/mail-limits.ts';
import { emailVerificationMail, type Mailer } from '../mail/mail.ts';
import type { Person } from './team.ts';

/**
 * Sandbox sign-up proves the address before the account is usable (docs/dashboard-api.md, Email
 * verification). Until its person follows the mailed link, an account cannot sign in, so it cannot
 * turn on two-factor sign-in or hold anything; and whoever proves the address later, by a sign-up
 * of their own or by accepting an invitation, replaces it: the unproven account is deleted with its
 * password, factors and sessions (its sandbox company is left with nobody who can reach it).
 */
export const EMAIL_VERIFICATION_TTL_MS = 24 * 3_600_000;
/**
 * Limits on sign-up mails (a link, a notice to the holder, a link sent again), so the sign-up page
 * can flood no one's mailbox, and strangers cannot use up an address's mails before its owner signs
 * up (#43): counted per address *and source address*, so that five strangers' sign-ups for
 * `someone@…` leave its owner's own, from their own address, untouched; per source, so that one
 * source cannot mail many addresses; and per address in all, far above one person's need, as the
 * last guard of the mailbox against many sources at once.
 */
export const SIGN_UP_MAILS_PER_ADDRESS_PER_DAY = 5;
export const SIGN_UP_MAILS_PER_SOURCE_PER_HOUR = 30;
export const SIGN_UP_MAILS_TO_ADDRESS_PER_DAY = 50;
/** Why a sign-in with the right password is refused: the address was never proven. */
export const EMAIL_NOT_VERIFIED = 'EMAIL_NOT_VERIFIED';

export interface EmailVerification {
  personId: string;
  email: string;
  tokenHash: string;
  createdAt: string;
  expiresAt: string;
}

export interface EmailVerificationStore {
  getPerson(personId: string): Promise<Person | null>;
  /** Stores the person's link in place of any earlier one. */
  putVerification(link: EmailVerification): Promise<void>;
  getVerification(personId: string): Promise<EmailVerification | null>;
  /** Deletes the person's link if it is still this one; false when another request took it. */
  deleteVerification(personId: string, tokenHash: string): Promise<boolean>;
  markEmailVerified(personId: string, at: string): Promise<void>;
}

/** The user pool's side: who has an account for an address, and deleting one that never proved it. */
export interface UnverifiedAccounts {
  findPerson(email: string): Promise<{ personId: string } | null>;
  deleteUser(email: string): Promise<void>;
}

export interface LinkMailing {
  store: EmailVerificationStore;
  mailer: Mailer;
  /** The dashboard's verify-email page (DASHBOARD_ORIGIN/dashboard/verify-email). */
  verifyUrl: string;
  log: Log;
}

/** Verified: proven by a link (a sign-up's or an invitation's), or stored with no `emailVerifiedAt` at all.
 * An account with no Person at all is a sign-up that failed halfway: never proven. */
export const isVerified = (person: Person | null): boolean => person !== null && person.emailVerifiedAt !== null;

/** The account that holds the address, if any, and whether its person proved it. */
export async function holderOf(accounts: UnverifiedAccounts, store: EmailVerificationStore, email: string): Promise<{ personId: string; verified: boolean } | null> {
  const account = await accounts.findPerson(email);
  if (!account) return null;
  return { personId: account.personId, verified: isVerified(await store.getPerson(account.personId)) };
}

/** Deletes the account holding the address when its person never proved it; true when a proven one holds it. */
export async function releaseUnverifiedAddress(accounts: UnverifiedAccounts, store: EmailVerificationStore, email: string): Promise<boolean> {
  const holder = await holderOf(accounts, store, email);
  if (holder && !holder.verified) await accounts.deleteUser(email);
  return holder?.verified ?? false;
}

/** A person whose address is unproven may not sign in: 403 with `reason: EMAIL_NOT_VERIFIED`. */
export async function requireVerified(store: Pick<EmailVerificationStore, 'getPerson'>, personId: string, email: string): Promise<void> {
  if (isVerified(await store.getPerson(personId))) return;
  throw new ApiError('FORBIDDEN', `Confirm your email first: follow the link we mailed to ${email}, or ask for it to be sent again`, { reason: EMAIL_NOT_VERIFIED });
}

/** One more sign-up mail asked from `source` for the address, or 429 RATE_LIMITED. Counted before
 * the address's account is looked up, so the answer is the same whoever holds it. */
export async function countSignUpMail(counts: MailCounts, email: string, source: string, now: Date): Promise<void> {
  const refused = await countMail(
    counts,
    [
      { counter: { kind: 'sign-up', of: { email, source }, per: 'day' }, limit: SIGN_UP_MAILS_PER_ADDRESS_PER_DAY },
      { counter: { kind: 'sign-up', of: { source }, per: 'hour' }, limit: SIGN_UP_MAILS_PER_SOURCE_PER_HOUR },
      { counter: { kind: 'sign-up', of: { email }, per: 'day' }, limit: SIGN_UP_MAILS_TO_ADDRESS_PER_DAY },
    ],
    now,
  );
  if (!refused) return;
  const retryAt = refused.retryAt.toISOString();
  const of = refused.counter.of;
  const message =
    'source' in of && 'email' in of
      ? `${email} has been sent ${refused.limit} sign-up mails asked from your address today, the most one address may be`
      : 'source' in of
        ? `Your address has asked for ${refused.limit} sign-up mails in the last hour, the most one may`
        : `${email} has been sent ${refused.limit} sign-up mails today, the most one address may be`;
  throw new ApiError('RATE_LIMITED', `${message}: try again after ${retryAt}`, { limit: refused.limit, retryAt });
}

/** A new link for the person (replacing any earlier one), mailed; a refused mail is logged, not thrown:
 * the answer must not differ from an address whose holder was sent nothing. */
export async function mailVerificationLink(deps: LinkMailing, person: { personId: string; email: string }, now: Date): Promise<void> {
  const secret = randomBytes(32).toString('base64url');
  const link: EmailVerification = { ...person, tokenHash: hashSecret(secret), createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + EMAIL_VERIFICATION_TTL_MS).toISOString() };
  await deps.store.putVerification(link);
  await sendQuietly(deps, emailVerificationMail({ to: person.email, link: `${deps.verifyUrl}?token=${person.personId}.${secret}`, expiresAt: link.expiresAt }));
}

export async function sendQuietly(deps: Pick<LinkMailing, 'mailer' | 'log'>, mail: Parameters<Mailer['send']>[0]): Promise<void> {
  try {
    await deps.mailer.send(mail);
  } catch (error) {
    deps.log.warn('sign-up mail not sent', { error: (error as Error).name ?? 'Error', status: (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? null });
  }
}

export const linkUsedOrLapsed = () => new ApiError('NOT_FOUND', 'This link has been used or has lapsed: sign in, or sign up again for a new one');

/** The live link the token names, or 404; it is not used up yet (useVerificationLink does that). */
export async function findVerificationLink(store: EmailVerificationStore, token: string, now: Date): Promise<EmailVerification> {
  const [personId = '', secret = ''] = token.split('.');
  const link = personId && secret ? await store.getVerification(personId) : null;
  if (!link || !sameHash(link.tokenHash, hashSecret(secret)) || link.expiresAt <= now.toISOString()) throw linkUsedOrLapsed();
  return link;
}

/** Uses the link up (once: of two uses at the same moment, one finds it) and marks the person verified. */
export async function useVerificationLink(store: EmailVerificationStore, link: EmailVerification, now: Date): Promise<void> {
  if (!(await store.deleteVerification(link.personId, link.tokenHash))) throw linkUsedOrLapsed();
  await store.markEmailVerified(link.personId, now.toISOString());
}

const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

function sameHash(stored: string, presented: string): boolean {
  return stored.length === presented.length && timingSafeEqual(Buffer.from(stored), Buffer.from(presented));
}
