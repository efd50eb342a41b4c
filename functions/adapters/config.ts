import type { WithdrawalRules } from '#functions/withdrawals/withdrawals';
import type { SliceSettings } from '#functions/settings/functions';
import { parseAmount, parseFeeAmount } from '#functions/shared/money';
import type { StageContracts } from '#functions/withdrawals/refused-destinations';
import { ownWithdrawalFeeOn, ownWithdrawalMinimumOn, stageContractsOn } from '#functions/networks/settings-registry';
import { networksOpenIn } from '#functions/networks/open-networks';
import { destinationChecksOf } from '#functions/networks/destination-registry';

/** Withdrawal fee and minimum per stage (config/stages.ts), already parsed by the settings schema,
 * and the networks it sends on, each with its own fee and minimum where its settings give them (an
 * EVM network's `withdrawalFeeUsdt` and `withdrawalMinimumUsdt` in EVM_NETWORKS, Solana's in SOLANA). */
export function withdrawalRulesFrom(settings: SliceSettings<'withdrawalRules' | 'contracts'>): WithdrawalRules {
  const networks: WithdrawalRules['networks'] = {};
  for (const network of networksOpenIn(settings)) {
    const fee = ownWithdrawalFeeOn(network, settings);
    const minimum = ownWithdrawalMinimumOn(network, settings);
    networks[network] = { ...(fee !== undefined && { fee: parseFeeAmount(fee) }), ...(minimum !== undefined && { minimum: parseAmount(minimum, 'USDT') }) };
  }
  return { fee: settings.WITHDRAWAL_FEE_USDT, minimum: settings.WITHDRAWAL_MINIMUM_USDT, networks, contracts: stageContractsOf(settings), destinations: destinationChecksOf(settings) };
}

/** The contracts the stage's settings name on each network (USDT_CONTRACT, EVM_NETWORKS), never a destination. */
export function stageContractsOf(settings: SliceSettings<'contracts'>): StageContracts {
  return (network) => stageContractsOn(network, settings);
}
