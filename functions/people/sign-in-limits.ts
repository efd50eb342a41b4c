import { createHash } from 'node:crypto';
import { signInRefused } from '../shared/errors.ts';
import { sleep } from '../shared/retry.ts';
import { normaliseEmail } from './team.ts';

/**
 * Cambio's own limits on password sign-in (docs/dashboard-api.md, Limits on sign-in and password
 * reset), checked before the user pool is asked, under a hash of the normalised email: an address
 * with no account is counted and refused exactly as one with an account, whatever the pool itself
 * does about unknown users. Every way in with a password goes through them: POST /session, the
 * sign-up's and an invitation's links.
 *
 * - Per source and account: five failures within 15 minutes refuse that source (429) for the rest
 *   of the 15 minutes, right password or not. One address guessing stops there.
 * - Per account, from sources not known for it: STRANGER_FAILURES failures reach the pool, no more;
 *   then every such source is refused (429) before the pool is asked, until the account's count
 *   starts again (30 quiet minutes, or the person's complete sign-in). The pool locks a user out
 *   after its own fifth failure in a row (Cognito, and the local emulator), and that lockout
 *   refuses the person's right password too: strangers, however many addresses they use, must never
 *   bring it there, so they stop short of it, leaving the person room for a typo of their own.
 * - A source where the person signed in within 30 days is known for the account and is held only to
 *   its own five: someone flooding from elsewhere does not keep the person out from where they
 *   usually sign in. From a new place, after strangers' failures, the person waits for the 30 quiet
 *   minutes (a password reset does not shorten them), or signs in where they did before.
 *
 * Every attempt is counted as a failure before the pool is asked, in one transaction with the
 * checks, so concurrent guesses cannot slip past a count; a password the pool accepts takes its own
 * count back (it is no failure), and only a complete sign-in clears both and makes its source known
 * (signInSucceeded): the address proven and, where the account has one, the second factor answered.
 * Never the password alone: a squatter's own password on an account never proven
 * (email-verification.ts) is accepted by the pool and refused after, and would make each of their
 * sources known for the address for 30 days; once its owner replaced the account, those sources
 * would skip the strangers' limit and could drive the owner into the pool's lockout. So could a
 * thief's who has the password but not the second factor.
 */
export const SOURCE_FAILURES = 5;
export const SOURCE_WINDOW_MS = 15 * 60_000;
/** Failures from unknown sources the pool may see, per account: below its lockout's five, less one for the person's own typo. */
export const STRANGER_FAILURES = 3;
/** Longer than Cognito's 15 quiet minutes after which it forgets its own count. */
export const ACCOUNT_QUIET_MS = 30 * 60_000;
export const KNOWN_SOURCE_MS = 30 * 86_400_000;

/** Whose attempts are counted: hashes, so the table holds neither addresses nor IPs in the clear. */
export interface AttemptKey {
  account: string;
  source: string;
}

export interface AccountAttempts {
  failures: number;
  lastFailureAt: string;
  /** Bumped by every write: a write is made only over the version it read. */
  version: number;
}

export interface SourceAttempts {
  failures: number;
  windowEndsAt: string;
  /** Until when this source is known for the account (the person signed in from it); null if never. */
  knownUntil: string | null;
  version: number;
}

export interface SignInAttempts {
  /** Both counts, read consistently; null where there is none. */
  read(key: AttemptKey): Promise<{ account: AccountAttempts | null; source: SourceAttempts | null }>;
  /** Writes both in one transaction if neither changed since `before` was read; false otherwise. */
  charge(key: AttemptKey, before: { account: AccountAttempts | null; source: SourceAttempts | null }, after: { account: AccountAttempts; source: SourceAttempts }): Promise<boolean>;
  /** A complete sign-in: the account's count is gone, and the source's is cleared and known until `knownUntil`. */
  clear(key: AttemptKey, knownUntil: string): Promise<void>;
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export const attemptKey = (email: string, sourceIp: string): AttemptKey => ({ account: sha256(normaliseEmail(email)), source: sha256(sourceIp) });

/** Of attempts racing on the same counts, each retries after the other's write; a flood that keeps
 * them racing is refused, as a limit would refuse it. */
const CHARGE_ATTEMPTS = 5;

/** One attempt's charge: both counts as it found them, and as it wrote them. */
export interface Charge {
  before: { account: AccountAttempts | null; source: SourceAttempts | null };
  after: { account: AccountAttempts; source: SourceAttempts };
}

/** Counts the attempt as a failure, or refuses it (429) while the source or, for a source not known for it, the account must wait. */
export async function admitSignIn(attempts: SignInAttempts, key: AttemptKey, now: Date): Promise<Charge> {
  for (let round = 0; round < CHARGE_ATTEMPTS; round += 1) {
    const before = await attempts.read(key);
    const after = { source: chargedSource(before.source, now), account: chargedAccount(before.account, now, isKnown(before.source, now)) };
    if (await attempts.charge(key, before, after)) return { before, after };
    await sleep(10 + Math.random() * 40);
  }
  throw signInRefused.lockedOut();
}

/** A complete sign-in (the address proven, the second factor answered where the account has one):
 * the source is known for the account from now on, and both counts start again. Called by whoever
 * knows the sign-in is complete, once it is, never for the password alone. */
export const signInSucceeded = (attempts: SignInAttempts, key: AttemptKey, now: Date): Promise<void> =>
  attempts.clear(key, new Date(now.getTime() + KNOWN_SOURCE_MS).toISOString());

/** A password the pool accepted: the failure admitSignIn counted for it (`charge`) is taken back,
 * and nothing else changes (the other failures stand; the source is no better known). Where nothing
 * was counted since, the counts go back to what they were, the time of the last failure among them:
 * kept as this attempt's, a right password every half hour would keep the account's 30 quiet
 * minutes from ever passing, and strangers' failures from ever being forgotten. A count a moment's
 * race keeps from being taken back stays: one failure too many errs on the limits' side. */
export async function uncountSignIn(attempts: SignInAttempts, key: AttemptKey, charge: Charge): Promise<void> {
  for (let round = 0; round < CHARGE_ATTEMPTS; round += 1) {
    const current = await attempts.read(key);
    // Cleared meanwhile by a complete sign-in: nothing of this attempt's is left.
    if (!current.account || !current.source) return;
    const untouched = current.account.version === charge.after.account.version && current.source.version === charge.after.source.version;
    const after = untouched
      ? {
          account: { ...(charge.before.account ?? { failures: 0, lastFailureAt: new Date(0).toISOString() }), version: current.account.version + 1 },
          source: { ...(charge.before.source ?? { failures: 0, windowEndsAt: new Date(0).toISOString(), knownUntil: current.source.knownUntil }), version: current.source.version + 1 },
        }
      : {
          account: { ...current.account, failures: Math.max(0, current.account.failures - 1), version: current.account.version + 1 },
          source: { ...current.source, failures: Math.max(0, current.source.failures - 1), version: current.source.version + 1 },
        };
    if (await attempts.charge(key, current, after)) return;
    await sleep(10 + Math.random() * 40);
  }
}

/** `check`, a password the user pool judges (a sign-in, a step-up, a change of password), within
 * the limits: counted as a failure before the pool sees it, and that count taken back once it
 * passes. The sign-in it may be part of is complete only later (signInSucceeded). */
export async function withinSignInLimits<T>(attempts: SignInAttempts, key: AttemptKey, now: Date, check: () => Promise<T>): Promise<T> {
  const charge = await admitSignIn(attempts, key, now);
  const outcome = await check();
  await uncountSignIn(attempts, key, charge);
  return outcome;
}

/** Whether the person completed a sign-in from this source within KNOWN_SOURCE_MS. */
export const knownSource = (source: SourceAttempts | null, now: Date): boolean => source?.knownUntil != null && source.knownUntil > now.toISOString();
const isKnown = knownSource;

function chargedSource(source: SourceAttempts | null, now: Date): SourceAttempts {
  const knownUntil = source?.knownUntil ?? null;
  const version = (source?.version ?? 0) + 1;
  if (!source || source.windowEndsAt <= now.toISOString()) {
    return { failures: 1, windowEndsAt: new Date(now.getTime() + SOURCE_WINDOW_MS).toISOString(), knownUntil, version };
  }
  if (source.failures >= SOURCE_FAILURES) throw signInRefused.lockedOut();
  return { ...source, failures: source.failures + 1, version };
}

function chargedAccount(account: AccountAttempts | null, now: Date, known: boolean): AccountAttempts {
  const version = (account?.version ?? 0) + 1;
  const at = now.toISOString();
  const lastFailure = account ? Date.parse(account.lastFailureAt) : 0;
  if (!account || now.getTime() - lastFailure >= ACCOUNT_QUIET_MS) return { failures: 1, lastFailureAt: at, version };
  if (!known && account.failures >= STRANGER_FAILURES) throw signInRefused.lockedOut();
  return { failures: account.failures + 1, lastFailureAt: at, version };
}
