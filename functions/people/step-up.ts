import type { RequestOrigin } from '../companies/audit-log.ts';
import type { IdentityProvider, SessionTokens, TwoFactorProvider } from './identity.ts';
import type { PersonAudit } from './memberships.ts';
import { auditSignIn, checkedPassword, followPoolTwoFactorOff, signInCompleted, type SignInDeps } from './sign-in.ts';
import type { SignInAttempts } from './sign-in-limits.ts';
import { checkedCode, type CodeAttemptStore } from './code-attempts.ts';
import { ApiError, validationFailed } from '../shared/errors.ts';
import type { Caller } from './caller.ts';
import type { Membership } from './team.ts';

/**
 * Asking a signed-in person to prove it is them again before the dashboard moves money for them
 * (`New withdrawal`), as exchanges do: their password, and their authenticator app's code when
 * they sign in with one. A session cookie stolen from a browser then cannot pay out on its own.
 *
 * Cognito has no "step-up" call for a session it issued, so the proof is a fresh sign-in of the
 * same person (InitiateAuth, then RespondToAuthChallenge for the code) whose tokens are dropped at
 * once: wrong passwords count toward the pool's lockout exactly as at the sign-in page, and codes go
 * through Cambio's own limits on codes (code-attempts.ts) as at the sign-in's second step.
 */
export interface Reauthentication {
  identity: Pick<IdentityProvider, 'signIn'> & Pick<TwoFactorProvider, 'answerChallenge'>;
  codes: CodeAttemptStore;
  /** Cambio's limits on failed sign-ins (sign-in-limits.ts), which a password asked again goes
   * through as at the sign-in page: a session's holder cannot guess at Cognito's pace, nor drive
   * the person into Cognito's lockout. */
  attempts: SignInAttempts;
}

export interface Proof {
  password: string;
  /** The authenticator app's 6 digits; needed only by someone with two-factor sign-in on. */
  code?: string;
}

/**
 * The other kind of step-up, as GitHub's sudo mode: what issues lasting access (an API key, a new
 * secret, where a key may be used from; a member invited or re-roled; a webhook signing secret shown,
 * with which events could be forged to the company's servers) needs a sign-in of the last
 * DASHBOARD_RECENT_SIGN_IN_SECONDS (15 minutes by default), told by the session token's
 * `auth_time`, which a refresh keeps. A session cookie copied from a browser then cannot mint its
 * holder a key of their own once the person's own sign-in is that old; the page asks for the
 * password (`Confirm it's you`), and POST /session/confirm signs the person in afresh.
 */
export const SIGN_IN_AGAIN = 'SIGN_IN_AGAIN';

export function requireRecentSignIn(authTimeSeconds: number, withinSeconds: number, now = new Date()): void {
  if (authTimeSeconds > 0 && now.getTime() / 1000 - authTimeSeconds <= withinSeconds) return;
  throw new ApiError('FORBIDDEN', 'Confirm it is you: this needs your password again', { reason: SIGN_IN_AGAIN, withinSeconds });
}

/** `Confirm it's you` (POST /session/confirm): a session signed in now, which the routes that ask for
 * a recent sign-in accept; audited as a sign-in in each of the person's companies. As at the sign-in
 * page, the user pool's word on two-factor wins: a person it let in on the password alone has it off
 * there (an operator turned it off), and the mark follows, so a company that requires it refuses them. */
export async function confirmSession(
  deps: Reauthentication & PersonAudit & { marks: SignInDeps['marks'] },
  personId: string,
  proof: Proof,
  origin: RequestOrigin,
  now = new Date(),
): Promise<SessionTokens> {
  const [membership] = await deps.memberships.membershipsOf(personId);
  if (!membership) throw new ApiError('FORBIDDEN', 'Only a member of a company confirms a session');
  const { session, withCode } = await signInAgain(deps, membership, proof, { origin, now });
  if (!withCode) await followPoolTwoFactorOff(deps.marks, personId);
  await auditSignIn(deps, personId, origin, now);
  return session;
}

/**
 * The person signed in again with `proof`: their new session (a withdrawal drops it at once), and
 * whether the user pool asked for their code (two-factor on there). Else
 * VALIDATION_FAILED on `password` or `codeField` (not 401, which would end the page's session), or
 * RATE_LIMITED while the pool locks the person out or their codes are locked.
 */
export async function signInAgain(
  { identity, codes, attempts }: Reauthentication,
  membership: Pick<Membership, 'personId' | 'email'>,
  proof: Proof,
  { origin, now = new Date() }: { origin: RequestOrigin; now?: Date },
  codeField = 'code',
): Promise<{ session: SessionTokens; withCode: boolean }> {
  const refusedAs = (path: string, message: string) => (error: unknown) => {
    if (error instanceof ApiError && error.code === 'AUTH_FAILED') throw validationFailed([{ path, message }]);
    throw error;
  };
  let outcome = await checkedPassword(identity, attempts, { email: membership.email, password: proof.password }, origin, now).catch(refusedAs('password', 'is wrong'));
  const withCode = 'twoFactor' in outcome;
  if ('twoFactor' in outcome) {
    const { twoFactor } = outcome;
    if (!proof.code) throw validationFailed([{ path: codeField, message: 'is needed: the 6 digits your authenticator app shows' }]);
    outcome = await checkedCode(codes, membership.email, proof.code, (code) => identity.answerChallenge(twoFactor, code), codeField).catch(
      refusedAs(codeField, 'does not match: enter the one your authenticator app shows now'),
    );
  }
  // The membership's email signs in as the member; anything else is a fault, never a pass.
  if (outcome.personId !== membership.personId) throw new ApiError('FORBIDDEN', 'The password given is not the signed-in person’s');
  // Complete: the password and, where the pool asked for it, the code.
  await signInCompleted(attempts, membership.email, origin, now);
  return { session: outcome, withCode };
}

/**
 * How a change that issues lasting access is confirmed: the proof (`New withdrawal`'s password and
 * code, sent with the request) where the change hands someone a way to move the company's money,
 * else the recent sign-in (`requireRecentSignIn`, the route's, functions/http/dashboard-route.ts).
 */
export interface ChangeConfirmation {
  reauthentication: Reauthentication;
  proof: Partial<Proof>;
  requireRecentSignIn: () => void;
}

/**
 * A full-access API key pays out through POST /v1/withdrawals, and a member who can send withdrawals
 * or issue such keys pays out with a password of their own: issuing either on a recent sign-in alone
 * would let a session cookie copied within the person's minutes mint itself, or its holder, a way to
 * move the company's money. `moneyReach` says why the change reaches money (shown when the password
 * is missing), or is null for one that does not, which the recent sign-in covers. Says which was
 * checked: a proof covers any change, a recent sign-in only one that reaches no money.
 */
export async function confirmChange(caller: Caller, { reauthentication, proof, requireRecentSignIn }: ChangeConfirmation, moneyReach: string | null, now = new Date()): Promise<'proof' | 'recentSignIn'> {
  if (moneyReach === null) {
    requireRecentSignIn();
    return 'recentSignIn';
  }
  if (!proof.password) throw validationFailed([{ path: 'password', message: `is needed: ${moneyReach}` }]);
  // Proof only: the new session's tokens are dropped.
  await signInAgain(reauthentication, caller.membership, { password: proof.password, ...(proof.code && { code: proof.code }) }, { origin: caller.origin, now });
  return 'proof';
}
