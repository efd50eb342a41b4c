import type { WithdrawalRules } from '#functions/withdrawals/withdrawals';
import type { SliceSettings } from '#functions/settings/functions';
import { parseAmount } from '#functions/shared/money';

/** Withdrawal fee and minimum per stage (config/stages.ts), already parsed by the settings schema,
 * and the EVM networks it sends on, each with its own fee where EVM_NETWORKS gives one. */
export function withdrawalRulesFrom(settings: SliceSettings<'withdrawalRules'>): WithdrawalRules {
  const evmNetworks: NonNullable<WithdrawalRules['evmNetworks']> = {};
  for (const [name, network] of Object.entries(settings.EVM_NETWORKS) as [keyof typeof evmNetworks, { withdrawalFeeUsdt?: string }][]) {
    const fee = network.withdrawalFeeUsdt;
    evmNetworks[name] = fee === undefined ? {} : { fee: /^0(\.0+)?$/.test(fee) ? 0n : parseAmount(fee, 'USDT') };
  }
  return { fee: settings.WITHDRAWAL_FEE_USDT, minimum: settings.WITHDRAWAL_MINIMUM_USDT, evmNetworks };
}
