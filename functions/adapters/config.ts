import type { WithdrawalRules } from '#functions/withdrawals/withdrawals';
import type { SliceSettings } from '#functions/settings/functions';

/** Withdrawal fee and minimum per stage (config/stages.ts), already parsed by the settings schema. */
export function withdrawalRulesFrom(settings: SliceSettings<'withdrawalRules'>): WithdrawalRules {
  return { fee: settings.WITHDRAWAL_FEE_USDT, minimum: settings.WITHDRAWAL_MINIMUM_USDT };
}
