import type { WithdrawalRules } from '#functions/withdrawals/withdrawals';
import type { SliceSettings } from '#functions/settings/functions';
import { parseAmount } from '#functions/shared/money';
import type { StageContracts } from '#functions/withdrawals/refused-destinations';
import { stageContractsOn } from '#functions/networks/settings-registry';

/** Withdrawal fee and minimum per stage (config/stages.ts), already parsed by the settings schema,
 * and the EVM networks it sends on, each with its own fee where EVM_NETWORKS gives one. */
export function withdrawalRulesFrom(settings: SliceSettings<'withdrawalRules' | 'contracts'>): WithdrawalRules {
  const evmNetworks: NonNullable<WithdrawalRules['evmNetworks']> = {};
  for (const [name, network] of Object.entries(settings.EVM_NETWORKS) as [keyof typeof evmNetworks, { withdrawalFeeUsdt?: string }][]) {
    const fee = network.withdrawalFeeUsdt;
    evmNetworks[name] = fee === undefined ? {} : { fee: /^0(\.0+)?$/.test(fee) ? 0n : parseAmount(fee, 'USDT') };
  }
  return { fee: settings.WITHDRAWAL_FEE_USDT, minimum: settings.WITHDRAWAL_MINIMUM_USDT, evmNetworks, contracts: stageContractsOf(settings) };
}

/** The contracts the stage's settings name on each network (USDT_CONTRACT, EVM_NETWORKS), never a destination. */
export function stageContractsOf(settings: SliceSettings<'contracts'>): StageContracts {
  return (network) => stageContractsOn(network, settings);
}
