import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { auditEntry, type RequestOrigin } from '../companies/audit-log.ts';
import { ApiError } from '../shared/errors.ts';
import type { Log } from '../shared/log.ts';
import { sleepUntil } from '../shared/retry.ts';
import { passwordResetMail, type Mailer } from '../mail/mail.ts';
import { countMail, uncountMail, type MailCounter, type MailCounts } from '../mail/mail-limits.ts';
import type { PersonAudit } from './memberships.ts';
import type { SignOuts } from './sign-outs.ts';
import { attemptKey, knownSource, withinSignInLimits, type SignInAttempts } from './sign-in-limits.ts';
import { checkEmail, type Membership } from './team.ts';

/**
 * `Forgot your password?` on the sign-in page: a link mailed to the account's address lets its
 * person choose a new password.
 *
 * - Asking answers the same whether or not an account uses the address, so the page tells nobody
 *   who has one; only the address's owner gets a mail.
 * - One link per person at a time, and at most one mail a minute: asking again within the minute
 *   sends nothing, and a newer link replaces the older one. A few mails a day in all (the limits
 *   below): asking past them sends nothing either, and the answer is the same.
 * - The link holds the person's id and a secret; the table keeps the secret's hash only. It works
 *   once, for an hour.
 * - A new password ends every session of the person (as signing out does,
 *   sign-outs.ts), so whoever knew the old one is out; each company the person belongs to logs it.
 * - Two-factor sign-in stays on: the next sign-in still asks for the app's code.
 */
export const PASSWORD_RESET_TTL_MS = 60 * 60_000;
export const PASSWORD_RESET_INTERVAL_MS = 60_000;
/** Asking takes at least this long either way: an unknown address would otherwise answer sooner
 * than one whose account is written to and mailed, and the time would tell. */
export const PASSWORD_RESET_ANSWER_MS = 800;
/**
 * Limits on reset mails, as on sign-up's (email-verification.ts): one a minute alone still lets one
 * script mail a person 1,440 resets a day, and every one of them counts against the stage's SES
 * reputation. Counted per address *and source address*, so strangers asking for someone's reset
 * leave the person's own, from their own address, untouched; per source, so that one source cannot
 * mail many addresses; and per address in all, the mailbox's last guard against many sources.
 */
export const PASSWORD_RESET_MAILS_PER_ADDRESS_PER_DAY = 5;
export const PASSWORD_RESET_MAILS_PER_SOURCE_PER_HOUR = 20;
export const PASSWORD_RESET_MAILS_TO_ADDRESS_PER_DAY = 10;
/** A reset's counts are its own (their key holds the kind): they do not spend an address's sign-up mails. */
const RESET_MAIL: MailCounter['kind'] = 'password-reset';

export interface PasswordReset {
  personId: string;
  email: string;
  tokenHash: string;
  createdAt: string;
  expiresAt: string;
}

export interface PasswordResetStore {
  /** Stores the person's reset in place of their previous one, unless that one was made after
   * `notBefore`: false then, and nothing is written. */
  putReset(reset: PasswordReset, notBefore: string): Promise<boolean>;
  getReset(personId: string): Promise<PasswordReset | null>;
  /** Deletes the person's reset if it is still this one; false when another request took it. */
  deleteReset(personId: string, tokenHash: string): Promise<boolean>;
  /** The counts of reset mails (mail-limits.ts), kept beside the resets. */
  mailCounts: MailCounts;
}

/** The user pool's side: who has an account, their password, their refresh tokens. */
export interface PasswordAccounts {
  /** The signed-in person's own change: VALIDATION_FAILED (`currentPassword`) when it is not their
   * password, (`newPassword`) when the policy refuses the new one; RATE_LIMITED after repeated misses. */
  changePassword(accessToken: string, currentPassword: string, newPassword: string): Promise<void>;
  /** The person whose account uses this address, or null. */
  findPerson(email: string): Promise<{ personId: string } | null>;
  /** VALIDATION_FAILED (`password`) when the pool's policy refuses it. */
  setPassword(email: string, password: string): Promise<void>;
  /** Revokes every refresh token of the account (Cognito's AdminUserGlobalSignOut). */
  revokeSessions(email: string): Promise<void>;
}

export interface PasswordResetDeps {
  accounts: PasswordAccounts;
  store: PasswordResetStore;
}

/** A new password's: the sessions it ends, and the audit logs of the person's companies, which log it. */
type NewPasswordDeps = PasswordResetDeps & PersonAudit & { signOuts: SignOuts };

const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** `attempts`: where a source the person signed in from is known (sign-in-limits.ts), so that
 * strangers' requests cannot spend the mails the person asks for from there. */
type ResetMailing = PasswordResetDeps & { mailer: Mailer; resetUrl: string; log: Log; attempts?: Pick<SignInAttempts, 'read'> };

/**
 * Mails the account's person a link to `resetUrl`, if an account uses the address and the limits on
 * reset mails allow it; answers nothing either way, in the same time. Without `origin` (a caller
 * that does not pass the request's) only the per-address limit applies: the source's cannot be told.
 */
export async function requestPasswordReset(deps: ResetMailing, input: { email: string }, origin?: Pick<RequestOrigin, 'sourceIp'>, now = new Date()): Promise<void> {
  const email = checkEmail(input.email);
  const answerAt = Date.now() + PASSWORD_RESET_ANSWER_MS;
  try {
    await mailResetLink(deps, email, origin?.sourceIp ?? null, now);
  } finally {
    await sleepUntil(answerAt);
  }
}

/**
 * The same reads and writes whether or not an account uses the address: every address's mails are
 * counted, and an address with no account gets a reset stored under a stand-in id (standInId), which
 * no link names and TTL removes, so only the mail differs, and the answer waits for
 * PASSWORD_RESET_ANSWER_MS either way.
 */
async function mailResetLink(deps: ResetMailing, email: string, source: string | null, now: Date): Promise<void> {
  const known = source !== null && deps.attempts !== undefined && knownSource((await deps.attempts.read(attemptKey(email, source))).source, now);
  const counters = resetMailCounters(email, source, known);
  const refused = await countMail(deps.store.mailCounts, counters, now);
  if (refused) {
    // No address in the log: which limit, so an operator can tell a flood from a person who lost their mails.
    deps.log.warn('password reset not mailed: limit reached', { of: Object.keys(refused.counter.of).join('+'), per: refused.counter.per, limit: refused.limit });
    return;
  }
  const person = await deps.accounts.findPerson(email);
  const secret = randomBytes(32).toString('base64url');
  const reset: PasswordReset = {
    personId: person?.personId ?? standInId(email),
    email,
    tokenHash: hashSecret(secret),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + PASSWORD_RESET_TTL_MS).toISOString(),
  };
  if (!(await deps.store.putReset(reset, new Date(now.getTime() - PASSWORD_RESET_INTERVAL_MS).toISOString()))) {
    // Within the minute nothing is mailed, so nothing is spent: else one script asking every second
    // would use up the person's day with a single mail sent.
    await uncountMail(deps.store.mailCounts, counters, now);
    return;
  }
  if (!person) return;
  try {
    await deps.mailer.send(passwordResetMail({ to: email, link: `${deps.resetUrl}?token=${person.personId}.${secret}`, expiresAt: reset.expiresAt }));
  } catch (error) {
    // The answer stays the same (it must not tell whether the account exists); the log says why no mail came.
    deps.log.warn('password reset not mailed', { error: (error as Error).name ?? 'Error', status: (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? null });
  }
}

/**
 * The counters a reset mail to `email` asked from `source` goes on; the source's only when it is
 * told. A source the person completed a sign-in from (`knownForAddress`) is held to its own counts
 * alone, not the address's total: strangers asking from two addresses would otherwise spend the
 * day's total and keep the person's own requests unmailed until midnight.
 */
function resetMailCounters(email: string, source: string | null, knownForAddress: boolean): { counter: MailCounter; limit: number }[] {
  const toAddress = { counter: { kind: RESET_MAIL, of: { email }, per: 'day' as const }, limit: PASSWORD_RESET_MAILS_TO_ADDRESS_PER_DAY };
  if (source === null) return [toAddress];
  return [
    { counter: { kind: RESET_MAIL, of: { email, source }, per: 'day' }, limit: PASSWORD_RESET_MAILS_PER_ADDRESS_PER_DAY },
    { counter: { kind: RESET_MAIL, of: { source }, per: 'hour' }, limit: PASSWORD_RESET_MAILS_PER_SOURCE_PER_HOUR },
    ...(knownForAddress ? [] : [toAddress]),
  ];
}

/** Where an address with no account keeps its reset: a hash, never a Cognito `sub` (a UUID), so it is
 * no person's, and the same for the same address, so it is limited to one a minute as a person's is. */
const standInId = (email: string): string => hashSecret(`password reset of an address with no account: ${email}`);

const invalidLink = () => new ApiError('NOT_FOUND', 'This password reset link is not valid: it was used, replaced by a newer one, or is more than an hour old. Ask for a new one.');

/** Sets the new password for the link's person, ends their sessions, and logs it in their companies. */
export async function resetPassword(deps: NewPasswordDeps, input: { token: string; password: string }, origin: RequestOrigin, now = new Date()): Promise<void> {
  const [personId = '', secret = ''] = input.token.split('.');
  const reset = personId && secret ? await deps.store.getReset(personId) : null;
  if (!reset || !sameHash(reset.tokenHash, hashSecret(secret)) || reset.expiresAt <= now.toISOString()) throw invalidLink();
  // Used once: of two uses of the same link at the same moment, only one finds it.
  if (!(await deps.store.deleteReset(reset.personId, reset.tokenHash))) throw invalidLink();
  try {
    await deps.accounts.setPassword(reset.email, input.password);
  } catch (error) {
    // A password the policy refuses: the link works again for a better one, unless a newer link replaced it meanwhile.
    await deps.store.putReset(reset, reset.createdAt);
    throw error;
  }
  await endSessionsAfterNewPassword(deps, { personId: reset.personId, email: reset.email }, 'password.reset', origin, now);
}

/**
 * Account → `Change password`: the person's own, with the current one. Like a reset, it ends every
 * session of theirs, this one too, so whoever knew the old password is out: they sign in again
 * with the new one.
 */
export async function changePassword(
  deps: NewPasswordDeps & { attempts: SignInAttempts },
  caller: { personId: string; accessToken: string },
  input: { currentPassword: string; newPassword: string },
  origin: RequestOrigin,
  now = new Date(),
): Promise<void> {
  const memberships = await deps.memberships.membershipsOf(caller.personId);
  const email = memberships[0]?.email ?? null;
  // A wrong current password counts toward the pool's lockout, as a wrong sign-in does: it goes
  // through Cambio's sign-in limits too, so a stolen cookie neither guesses on nor locks the person out.
  const change = () => deps.accounts.changePassword(caller.accessToken, input.currentPassword, input.newPassword);
  await (email === null ? change() : withinSignInLimits(deps.attempts, attemptKey(email, origin.sourceIp), now, change));
  await endSessionsAfterNewPassword(deps, { personId: caller.personId, email }, 'password.changed', origin, now, memberships);
}

/**
 * Session tokens carry whole seconds, and this is no one session's sign-out (sign-outs.ts): every
 * token of the person issued up to the end of this second is refused, and the answer waits for that
 * second to pass, so the sign-in with the new password that follows is not. Each company of the
 * person logs the change.
 */
async function endSessionsAfterNewPassword(
  deps: NewPasswordDeps,
  person: { personId: string; email: string | null },
  action: 'password.reset' | 'password.changed',
  origin: RequestOrigin,
  now: Date,
  memberships?: Membership[],
): Promise<void> {
  const cutoff = new Date(Math.ceil((now.getTime() + 1) / 1000) * 1000);
  await deps.signOuts.record({ personId: person.personId, at: cutoff.toISOString(), originJti: null });
  if (person.email) await deps.accounts.revokeSessions(person.email);
  const companies = memberships ?? (await deps.memberships.membershipsOf(person.personId));
  await deps.auditLog.appendAudit(companies.map((membership) => auditEntry(membership.companyId, action, person, origin, now)));
  await sleepUntil(cutoff.getTime());
}

function sameHash(stored: string, presented: string): boolean {
  return stored.length === presented.length && timingSafeEqual(Buffer.from(stored), Buffer.from(presented));
}
