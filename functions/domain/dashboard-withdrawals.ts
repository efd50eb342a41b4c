import { auditEntry } from './audit-log.ts';
import { actorOf, type Caller } from './dashboard.ts';
import { formatAmount } from './money.ts';
import { requirePermission } from './team.ts';
import { requestWithdrawal, withdrawalView, type NewWithdrawal, type WithdrawalRules, type WithdrawalStore } from './withdrawals.ts';

/**
 * Activity → Withdrawals → `New withdrawal`: a company's Owner or Admin sends USDT from the page,
 * through the same use case as POST /v1/withdrawals (minimum, fee, hold, the withdrawal allowlist),
 * its audit entry written in the withdrawal's own transaction. The page makes the reference when
 * the dialog opens, so a second click of the same form is DUPLICATE_REFERENCE, never a second payout.
 */
export async function sendWithdrawal(deps: { store: WithdrawalStore; rules: WithdrawalRules }, caller: Caller, input: NewWithdrawal, now = new Date()) {
  requirePermission(caller.membership, 'sendWithdrawals');
  const withdrawal = await requestWithdrawal(deps.store, deps.rules, caller.membership.companyId, input, now, (made) =>
    auditEntry(made.companyId, 'withdrawal.sent', actorOf(caller.membership), caller.origin, now, made.id, {
      amount: formatAmount(made.amount, 'USDT'),
      address: made.address,
      reference: made.reference,
    }),
  );
  return withdrawalView(withdrawal);
}
