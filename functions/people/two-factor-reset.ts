import { ApiError } from '../shared/errors.ts';
import { sleepUntil } from '../shared/retry.ts';
import { auditEntry, type RequestOrigin } from '../companies/audit-log.ts';
import { twoFactorResetMail, type Mailer } from '../mail/mail.ts';
import type { MembershipStore } from './memberships.ts';
import type { SignOuts } from './sign-outs.ts';
import type { TwoFactorMarks } from './two-factor.ts';

/**
 * `npm run person:reset-two-factor`: a person who lost their authenticator app (a phone lost, wiped
 * or replaced) cannot sign in at all, in any of their companies, and nobody in a company can help:
 * the second factor is the person's, at the user pool. Cambio's support, having checked who asks
 * out of band, turns it off for them.
 *
 * What someone who talked support into it would get is a sign-in on the password alone: so every
 * session of the person ends (whoever holds one is out), the person is mailed at their address
 * (the one place an impostor does not read), and each of their companies' audit logs shows the
 * reset, by whom and why. A company that requires two-factor sign-in shows the person only their
 * Account until they set up an app again (team.ts requireStanding).
 */

/** The user pool's side, by the person's address (an operator has no session of theirs). */
export interface TwoFactorAdministration {
  /** The person whose account uses this address, and whether a sign-in asks them for a code. */
  twoFactorOfAccount(email: string): Promise<{ personId: string; enabled: boolean } | null>;
  /** Sign-in asks for the password alone (Cognito's AdminSetUserMFAPreference). */
  turnOffTwoFactorOf(email: string): Promise<void>;
  /** Revokes every refresh token of the account (Cognito's AdminUserGlobalSignOut). */
  revokeSessions(email: string): Promise<void>;
}

export interface TwoFactorResetDeps {
  accounts: TwoFactorAdministration;
  marks: Pick<TwoFactorMarks, 'markTwoFactorOff'>;
  memberships: Pick<MembershipStore, 'membershipsOf'>;
  signOuts: SignOuts;
  /** Null where the stage mails nothing: the operator tells the person. */
  mailer: Mailer | null;
}

export interface TwoFactorReset {
  personId: string;
  /** The companies whose audit logs show it. */
  companyIds: string[];
  /** Whether two-factor sign-in was on: off already, nothing is written or mailed. */
  wasOn: boolean;
  mailed: boolean;
  /** Why a mail that was tried did not go; null when none was tried or it went. */
  mailError: string | null;
}

/** A reason short enough for an audit line and long enough to name the check made (a ticket, a call). */
export const RESET_REASON_LENGTH = { min: 10, max: 300 } as const;

export async function resetTwoFactorByOperator(
  deps: TwoFactorResetDeps,
  input: { email: string; reason: string },
  operator: string,
  now = new Date(),
): Promise<TwoFactorReset> {
  const account = await deps.accounts.twoFactorOfAccount(input.email);
  if (!account) throw new ApiError('NOT_FOUND', `No person signs in with ${input.email}`);
  if (!account.enabled) return { personId: account.personId, companyIds: [], wasOn: false, mailed: false, mailError: null };

  // Sessions end first, at the end of this second (as a new password's do, password-reset.ts): if
  // the pool fails next, no session opened before the reset outlives it, and a re-run finishes it.
  const cutoff = new Date(Math.ceil((now.getTime() + 1) / 1000) * 1000);
  await deps.signOuts.record({ personId: account.personId, at: cutoff.toISOString(), originJti: null });
  await deps.accounts.turnOffTwoFactorOf(input.email);
  await deps.accounts.revokeSessions(input.email);

  const memberships = await deps.memberships.membershipsOf(account.personId);
  const origin: RequestOrigin = { sourceIp: 'command line', userAgent: operator };
  const audit = memberships.map((membership) =>
    auditEntry(membership.companyId, 'two_factor.reset', { personId: null, email: null }, origin, now, input.email, { reason: input.reason }),
  );
  await deps.marks.markTwoFactorOff(account.personId, audit);
  // Done only once the second has passed: a sign-in the person makes at once is not refused as before it.
  await sleepUntil(cutoff.getTime());

  let mailed = false;
  let mailError: string | null = null;
  if (deps.mailer) {
    // The reset stands whatever the mail does: the operator is told to reach the person another way.
    try {
      await deps.mailer.send(twoFactorResetMail({ to: input.email, at: now.toISOString() }));
      mailed = true;
    } catch (error) {
      mailError = `${(error as Error).name}: ${(error as Error).message}`;
    }
  }
  return { personId: account.personId, companyIds: memberships.map((membership) => membership.companyId), wasOn: true, mailed, mailError };
}
