import { auditEntry } from '../companies/audit-log.ts';
import type { CompanyStore } from '../companies/company.ts';
import { actorOf, type Caller } from '../people/caller.ts';
import { validationFailed } from '../shared/errors.ts';
import type { Log } from '../shared/log.ts';
import { withdrawalLimitMail, type Mailer } from '../mail/mail.ts';
import { AmountFormatError, formatAmount, parseAmount } from '../shared/money.ts';
import { mailMembersWho, type MemberLookup } from '../people/member-mail.ts';
import { requirePermission } from '../people/team.ts';
import { changeLimit, limitAt, limitDay, type LimitWriter } from './withdrawal-policy.ts';

/**
 * Integrations → `Daily withdrawal limit`: the page that sets the limit withdrawal-policy.ts
 * enforces. Lowering or setting a limit acts at once; raising or removing it waits the stage's
 * WITHDRAWAL_ADDRESS_DELAY_HOURS, mailed to Owners and Admins, as the allowlist's widening changes do.
 */

export interface LimitStore extends LimitWriter, CompanyStore {}

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
  const { narrows, details } = await changeLimit(deps.store, companyId, wanted, deps.delayMs, now, (change) =>
    auditEntry(companyId, 'withdrawal_limit.changed', actorOf(caller.membership), caller.origin, now, null, change),
  );
  if (!narrows) await tellManagers(deps, caller, details);
  return withdrawalLimit(deps, caller, now);
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
