import { createHash } from 'node:crypto';
import { signInRefused } from '../shared/errors.ts';
import { sleep } from '../shared/retry.ts';
import { normaliseEmail } from './team.ts';

/**
 * Cambio's own limits on password sign-in (docs/dashboard-api.md, Limits on sign-in and password
 * reset), checked before the user pool is asked, under a hash of the normalised email: an address
 * with no account is counted, delayed and refused exactly as one with an account, whatever the
 * pool itself does about unknown users.
 *
 * - Per source and account: five failures within 15 minutes refuse that source (429) for the rest
 *   of the 15 minutes, right password or not. One address guessing stops there.
 * - Per account, from every source: from the fifth failure on, the next attempt waits 2^(n-4)
 *   seconds after the n-th (2 s, 4 s, …, at most 16 minutes), and the count starts again after 30
 *   quiet minutes. Each of those waits is longer than the lockout Cognito itself sets after the
 *   same failures (2^(n-5) s, at most about 15 minutes), so what the pool sees from strangers
 *   arrives after its own lockout has ended: its "Password attempts exceeded", which it gives only
 *   for existing users, is never the first refusal a stranger meets.
 * - A source where the person signed in within 30 days is known for the account and skips the
 *   account's waits (not its own five): someone flooding from elsewhere does not keep the person
 *   out from where they usually sign in.
 *
 * Every attempt is counted as a failure before the pool is asked, in one transaction with the
 * checks, so concurrent guesses cannot slip past a count; a right password then clears both.
 */
export const SOURCE_FAILURES = 5;
export const SOURCE_WINDOW_MS = 15 * 60_000;
export const ACCOUNT_FREE_FAILURES = 5;
export const ACCOUNT_QUIET_MS = 30 * 60_000;
export const ACCOUNT_LONGEST_WAIT_MS = 16 * 60_000;
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
  /** A right password: the account's count is gone, and the source's is cleared and known until `knownUntil`. */
  clear(key: AttemptKey, knownUntil: string): Promise<void>;
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export const attemptKey = (email: string, sourceIp: string): AttemptKey => ({ account: sha256(normaliseEmail(email)), source: sha256(sourceIp) });

/** How long after the n-th failure of the account the next attempt must wait (0 while free). */
export function accountWaitMs(failures: number): number {
  if (failures < ACCOUNT_FREE_FAILURES) return 0;
  return Math.min(ACCOUNT_LONGEST_WAIT_MS, 1000 * 2 ** (failures - ACCOUNT_FREE_FAILURES + 1));
}

/** Of attempts racing on the same counts, each retries after the other's write; a flood that keeps
 * them racing is refused, as a limit would refuse it. */
const CHARGE_ATTEMPTS = 5;

/** Counts the attempt as a failure, or refuses it (429) while the source or the account must wait. */
export async function admitSignIn(attempts: SignInAttempts, key: AttemptKey, now: Date): Promise<void> {
  for (let round = 0; round < CHARGE_ATTEMPTS; round += 1) {
    const before = await attempts.read(key);
    const after = { source: chargedSource(before.source, now), account: chargedAccount(before.account, now, isKnown(before.source, now)) };
    if (await attempts.charge(key, before, after)) return;
    await sleep(10 + Math.random() * 40);
  }
  throw signInRefused.lockedOut();
}

/** The right password: the source is known for the account from now on, and both counts start again. */
export const signInSucceeded = (attempts: SignInAttempts, key: AttemptKey, now: Date): Promise<void> =>
  attempts.clear(key, new Date(now.getTime() + KNOWN_SOURCE_MS).toISOString());

const isKnown = (source: SourceAttempts | null, now: Date): boolean => source?.knownUntil != null && source.knownUntil > now.toISOString();

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
  if (!known && now.getTime() < lastFailure + accountWaitMs(account.failures)) throw signInRefused.lockedOut();
  return { failures: account.failures + 1, lastFailureAt: at, version };
}
