import type { WithdrawalRules } from '#functions/withdrawals/withdrawals';
import type { SliceSettings } from '#functions/settings/functions';
import type { DepositSettings } from '#functions/deposits/deposits';
import { keysOf } from '#functions/networks/key-registry';
import { NETWORK_NAMES } from '#functions/networks/names';

/** Withdrawal fee and minimum per stage (config/stages.ts), already parsed by the settings schema. */
export function withdrawalRulesFrom(settings: SliceSettings<'withdrawalRules'>): WithdrawalRules {
  return { fee: settings.WITHDRAWAL_FEE_USDT, minimum: settings.WITHDRAWAL_MINIMUM_USDT };
}

/** Each network's deposit terms on the stage, by the network's keys (functions/networks/network.ts). */
export function depositSettingsFrom(settings: SliceSettings<'deposits'>): DepositSettings {
  return {
    termsOn: (network, deposit) => keysOf(network).depositTerms(deposit, settings),
    openNetworks: () => NETWORK_NAMES.filter((network) => network === 'tron' || settings.EVM_NETWORKS[network] !== undefined),
  };
}
