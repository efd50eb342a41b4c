import { auditEntry, type AuditEntry } from '../companies/audit-log.ts';
import type { CompanyStore } from '../companies/company.ts';
import { actorOf, type Caller } from '../people/caller.ts';
import { ApiError, validationFailed } from '../shared/errors.ts';
import type { Log } from '../shared/log.ts';
import { withdrawalLimitMail, type Mailer } from '../mail/mail.ts';
import { AmountFormatError, formatAmount, parseAmount } from '../shared/money.ts';
import { mailMembersWho, type MemberLookup } from '../people/member-mail.ts';
import { requirePermission } from '../people/team.ts';

/**
 * A company's daily withdrawal limit, as Circle sets one: the USDT its withdrawals (by API key or
 * from the dashboard) may take in a UTC day. With or without the allowlist, a leaked secret can then
 * take no more than a day's limit before someone notices. Lowering or setting a limit acts at once;
 * raising or removing it waits the stage's WITHDRAWAL_ADDRESS_DELAY_HOURS, mailed to Owners and
 * Admins, as the allowlist's widening changes do. What counts is each accepted withdrawal's amount
 * (not its fee) until it fails on chain, when it gives the amount back to the day that counted it
 * (withdrawal-sending.ts, fail); deposit split forwards do not count. Only withdrawals made
 * while a limit is in force are counted (a company without one pays nothing for it), so a limit set
 * during a day starts that day from zero.
 */

export interface WithdrawalLimit {
  /** USDT minor units a UTC day; null for no limit. */
  dailyLimit: bigint | null;
  /** A raise or a removal waiting for its time: the limit from `from` on (null: none). */
  pending: { dailyLimit: bigint | null; from: string } | null;
  /** Changed on every write, so a transaction can check the limit it decided on is still the one. */
  version: number;
}

export const NO_LIMIT: WithdrawalLimit = { dailyLimit: null, pending: null, version: 0 };

/** The limit in force at `now`. */
export function limitAt(limit: WithdrawalLimit, now: Date): bigint | null {
  return limit.pending && limit.pending.from <= now.toISOString() ? limit.pending.dailyLimit : limit.dailyLimit;
}

export const limitDay = (now: Date): string => now.toISOString().slice(0, 10);

export interface LimitReader {
  /** The limit and what was sent on `day`, read consistently. */
  limitFor(companyId: string, day: string): Promise<{ limit: WithdrawalLimit; sent: bigint }>;
}

/**
 * What a withdrawal's transaction checks of the limit, as the allowlist's guard does: first that no
 * limit is in force (a condition on the limit's item, no read); if that fails, the limit and the
 * day's total are read and the transaction adds the amount to the day's total only while it stays
 * within the limit as read (`maxBefore`), checking that limit is still the one (`version`).
 */
export type LimitGuard = { limited: false; at: string } | { limited: true; day: string; amount: bigint; maxBefore: bigint; version: number; dailyLimit: bigint };

/** A store's answer when the `limited: false` guard failed: a limit is in force. */
export class LimitApplies extends Error {}
/** A store's answer when the limit changed between its read and the transaction. */
export class LimitChanged extends Error {}

export function limitReached(dailyLimit: bigint, sent: bigint): ApiError {
  const remaining = dailyLimit > sent ? dailyLimit - sent : 0n;
  return new ApiError('LIMIT_REACHED', `This withdrawal would take the day's withdrawals past the company's daily limit of ${formatAmount(dailyLimit, 'USDT')} USDT`, {
    dailyLimit: formatAmount(dailyLimit, 'USDT'),
    sentToday: formatAmount(sent, 'USDT'),
    remaining: formatAmount(remaining, 'USDT'),
  });
}

/** Runs `write` (a withdrawal's transaction) within the company's daily limit, or refuses it with
 * 422 LIMIT_REACHED (details: dailyLimit, sentToday, remaining) and nothing written. */
export async function underLimit<T>(reader: LimitReader, companyId: string, amount: bigint, now: Date, write: (guard: LimitGuard) => Promise<T>): Promise<T> {
  const unlimited: LimitGuard = { limited: false, at: now.toISOString() };
  try {
    return await write(unlimited);
  } catch (error) {
    if (!(error instanceof LimitApplies)) throw error;
  }
  // Read, then write on what was read; a change in between is read again, a few times at most.
  for (let attempt = 1; ; attempt++) {
    const day = limitDay(now);
    const { limit, sent } = await reader.limitFor(companyId, day);
    const dailyLimit = limitAt(limit, now);
    if (dailyLimit === null) return write(unlimited);
    if (sent + amount > dailyLimit) throw limitReached(dailyLimit, sent);
    try {
      return await write({ limited: true, day, amount, maxBefore: dailyLimit - amount, version: limit.version, dailyLimit });
    } catch (error) {
      if (!(error instanceof LimitChanged) || attempt >= 3) throw error;
    }
  }
}

export interface LimitStore extends LimitReader, CompanyStore {
  /** Writes the limit (its version one more than `expectedVersion`, else LimitChanged) with its audit entry. */
  setLimit(companyId: string, limit: Omit<WithdrawalLimit, 'version'>, expectedVersion: number, audit: AuditEntry): Promise<void>;
}

export interface LimitDeps {
  store: LimitStore;
  /** WITHDRAWAL_ADDRESS_DELAY_HOURS, in milliseconds. */
  delayMs: number;
  /** Whom a raise or a removal is mailed to: the company's Owners and Admins. */
  members: MemberLookup;
  mailer: Mailer | null;
  log: Log;
}

/** Integrations → `Daily withdrawal limit`. */
export async function withdrawalLimit(deps: Pick<LimitDeps, 'store' | 'delayMs'>, caller: Caller, now = new Date()) {
  const { limit, sent } = await deps.store.limitFor(caller.membership.companyId, limitDay(now));
  const dailyLimit = limitAt(limit, now);
  const pending = limit.pending && limit.pending.from > now.toISOString() ? limit.pending : null;
  const usdt = (value: bigint | null) => (value === null ? null : formatAmount(value, 'USDT'));
  return {
    dailyLimit: usdt(dailyLimit),
    pending: pending && { dailyLimit: usdt(pending.dailyLimit), from: pending.from },
    /** Counted toward the limit today; null without one (withdrawals are counted only under a limit). */
    sentToday: dailyLimit === null ? null : formatAmount(sent, 'USDT'),
    delayHours: deps.delayMs / 3_600_000,
  };
}

/** `Save limit` (a decimal string) or `Remove limit` (null): a lower limit, or one where there was
 * none, at once; a higher one, or none, after the waiting period. */
export async function changeWithdrawalLimit(deps: LimitDeps, caller: Caller, input: { dailyLimit: string | null }, now = new Date()) {
  requirePermission(caller.membership, 'manageAddresses');
  const companyId = caller.membership.companyId;
  let wanted: bigint | null = null;
  if (input.dailyLimit !== null) {
    try {
      wanted = parseAmount(input.dailyLimit, 'USDT');
    } catch (error) {
      if (error instanceof AmountFormatError) throw validationFailed([{ path: 'dailyLimit', message: error.message }]);
      throw error;
    }
  }
  // Decided on the limit as read and written only if it is still that one; a change in between is read again.
  for (let attempt = 1; ; attempt++) {
    const { limit } = await deps.store.limitFor(companyId, limitDay(now));
    const current = limitAt(limit, now);
    const narrows = wanted !== null && (current === null || wanted <= current);
    const from = new Date(now.getTime() + deps.delayMs).toISOString();
    const waits = !narrows && deps.delayMs > 0;
    const next: Omit<WithdrawalLimit, 'version'> = waits ? { dailyLimit: current, pending: { dailyLimit: wanted, from } } : { dailyLimit: wanted, pending: null };
    const details = { dailyLimit: wanted === null ? 'none' : formatAmount(wanted, 'USDT'), from: waits ? from : now.toISOString() };
    try {
      await deps.store.setLimit(companyId, next, limit.version, auditEntry(companyId, 'withdrawal_limit.changed', actorOf(caller.membership), caller.origin, now, null, details));
    } catch (error) {
      if (error instanceof LimitChanged && attempt < 3) continue;
      throw error;
    }
    if (!narrows) await tellManagers(deps, caller, details);
    return withdrawalLimit(deps, caller, now);
  }
}

/** A raise or a removal is mailed to Owners and Admins; a failed mail is logged, the change stands. */
async function tellManagers(deps: LimitDeps, caller: Caller, change: { dailyLimit: string; from: string }): Promise<void> {
  if (!deps.mailer) return;
  try {
    await mailMembersWho('manageAddresses', { companies: deps.store, members: deps.members, mailer: deps.mailer }, caller.membership.companyId, (to, companyName) =>
      withdrawalLimitMail({ to, companyName, by: caller.membership.email, ...change }),
    );
  } catch (error) {
    deps.log.warn('withdrawal limit change not mailed', { companyId: caller.membership.companyId, error: (error as Error).name ?? 'Error' });
  }
}
