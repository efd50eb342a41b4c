import { auditEntry } from '../companies/audit-log.ts';
import { actorOf, type Caller } from '../people/caller.ts';
import { formatAmount } from '../shared/money.ts';
import { signInAgain, type Proof, type Reauthentication } from '../people/step-up.ts';
import { requirePermission } from '../people/team.ts';
import { requestWithdrawal, withdrawalView, type NewWithdrawal, type WithdrawalRules, type WithdrawalStore } from './withdrawals.ts';

/**
 * Activity → Withdrawals → `New withdrawal`: a company's Owner or Admin sends USDT from the page, on
 * the network the page names (its address checked for that network by the body's schema), through the
 * same use case as POST /v1/withdrawals (minimum, fee, hold, and withdrawal-policy.ts's refused
 * destinations, screening, allowlist and daily limit), its audit entry written in the withdrawal's own transaction, after the
 * person has given their password (and authenticator code) again (functions/people/step-up.ts). The page makes the
 * reference when the dialog opens, so a second click of the same form is DUPLICATE_REFERENCE, never a
 * second payout.
 */
export async function sendWithdrawal(
  deps: Reauthentication & { store: WithdrawalStore; rules: WithdrawalRules },
  caller: Caller,
  input: NewWithdrawal & Required<Pick<NewWithdrawal, 'network'>> & Proof,
  now = new Date(),
) {
  requirePermission(caller.membership, 'sendWithdrawals');
  // Proof only: the new session's tokens are dropped.
  await signInAgain(deps, caller.membership, input, { origin: caller.origin });
  const withdrawal = await requestWithdrawal(deps.store, deps.rules, caller.membership.companyId, { reference: input.reference, network: input.network, address: input.address, amount: input.amount }, now, {
    audit: (made) =>
      auditEntry(made.companyId, 'withdrawal.sent', actorOf(caller.membership), caller.origin, now, made.id, {
        amount: formatAmount(made.amount, 'USDT'),
        network: made.network,
        address: made.address,
        reference: made.reference,
      }),
  });
  return withdrawalView(withdrawal);
}
