import { ApiError, validationFailed, WrongCodeError } from '../shared/errors.ts';
import { normaliseEmail } from './team.ts';

/**
 * Limits on authenticator codes, kept in Cambio's own table so they hold whatever the identity
 * provider does (docs/dashboard-api.md, Limits on codes). Six digits are a million guesses, and the
 * app's code of the step before and after is accepted too: without a limit, someone who has the
 * password gets through in hours. So, per person (their sign-in email, what every place a code is
 * checked knows before the code is), across the sign-in's second step, `Confirm it's you`,
 * `New withdrawal` and two-factor set-up:
 *
 * - CODE_FAILURE_LIMIT wrong codes, each within CODE_LOCK_SECONDS of the one before, lock codes for
 *   CODE_LOCK_SECONDS after the last: every answer is 429, the right code too. A right password
 *   never clears the count (it is what the guesser has); a right code does, as only the person
 *   with the app gives one, and a slip or two of theirs should not add up to a lock days later.
 * - An attempt is counted BEFORE the code is checked, atomically, so parallel guesses cannot
 *   outrun the count; an attempt the provider did not judge (an expired sign-in, a session or
 *   email that do not belong together) is given back, so nobody can lock another person out by
 *   sending their email with made-up codes.
 * - A code is used once per person: it is claimed, atomically, before it is checked, so of two
 *   requests with the same code one goes on and the other is refused; a code the provider refuses
 *   is released. Cognito, not Cambio, holds the secret, so the claim is on the digits for as long
 *   as an app's code can still be accepted.
 */
export const CODE_FAILURE_LIMIT = 5;
export const CODE_LOCK_SECONDS = 15 * 60;
/** A code is accepted in its 30 s step and the one either side, 90 s at most; a minute more
 * allows for the provider's clock and ours not to agree. */
export const USED_CODE_SECONDS = 150;

/** A counted attempt, or the time of the last counted one when CODE_FAILURE_LIMIT already were. */
export type CountedAttempt = { counted: true } | { counted: false; lastAt: Date };

/** Keyed by the normalised email. */
export interface CodeAttemptStore {
  /** One more attempt, atomically, unless `limit` are counted with the last at or after `since`; a
   * count whose last attempt is before `since` starts again at one. */
  countAttempt(email: string, limit: number, since: Date, now: Date): Promise<CountedAttempt>;
  /** One counted attempt taken back (never below zero). */
  uncountAttempt(email: string): Promise<void>;
  clearAttempts(email: string): Promise<void>;
  /** The code claimed as used now; false when it was claimed at or after `since`. */
  claimCode(email: string, code: string, since: Date, now: Date): Promise<boolean>;
  /** The claim made at `claimedAt` removed (not a later one). */
  releaseCode(email: string, code: string, claimedAt: Date): Promise<void>;
}

export function checkCode(code: string, field = 'code'): string {
  const digits = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(digits)) throw validationFailed([{ path: field, message: 'must be the 6 digits your authenticator app shows' }]);
  return digits;
}

/**
 * `check` (the provider's answer to the person's code) run under the limits above: its result, or
 * 429 RATE_LIMITED while codes are locked, 400 on `field` for a code already used, or `check`'s
 * own refusal.
 */
export async function checkedCode<T>(codes: CodeAttemptStore, email: string, rawCode: string, check: (code: string) => Promise<T>, field = 'code', now = new Date()): Promise<T> {
  const code = checkCode(rawCode, field);
  const person = normaliseEmail(email);
  const attempt = await codes.countAttempt(person, CODE_FAILURE_LIMIT, secondsBefore(now, CODE_LOCK_SECONDS), now);
  if (!attempt.counted) throw codesLocked(new Date(attempt.lastAt.getTime() + CODE_LOCK_SECONDS * 1000), now);
  if (!(await codes.claimCode(person, code, secondsBefore(now, USED_CODE_SECONDS), now))) {
    // A replayed code says nothing about the secret: not a guess.
    await codes.uncountAttempt(person);
    throw validationFailed([{ path: field, message: 'was used already: enter the next code your authenticator app shows' }]);
  }
  let result: T;
  try {
    result = await check(code);
  } catch (error) {
    await codes.releaseCode(person, code, now);
    if (!(error instanceof WrongCodeError)) await codes.uncountAttempt(person);
    throw error;
  }
  await codes.clearAttempts(person);
  return result;
}

function codesLocked(until: Date, now: Date): ApiError {
  const at = until.toISOString();
  return new ApiError('RATE_LIMITED', `Too many wrong authentication codes: try again after ${at.slice(11, 16)} UTC`, {
    reason: 'CODE_ATTEMPTS',
    lockedUntil: at,
    retryAfterSeconds: Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)),
  });
}

const secondsBefore = (now: Date, seconds: number) => new Date(now.getTime() - seconds * 1000);
