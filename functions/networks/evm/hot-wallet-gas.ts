import { formatUnits, parseUnits } from 'viem';
import type { EvmNetworkName } from '#functions/networks/names';
import { EVM_NETWORKS } from '#functions/networks/evm/networks';
import { DEFAULT_HOT_WALLET_GAS_MINIMUM, type EvmNetworkSettings } from '#functions/networks/evm/settings';
import { MetricUnit, type JobRun } from './observability.ts';

/**
 * The hot wallet's gas token on an EVM network, read by the withdrawal sender and the sweeper each
 * run: every payout and sweep is paid from it (no top-up per address, unlike TRON's sweeps), and a
 * wallet without gas stops them all. Below the stage's minimum for the network it logs `hot wallet
 * gas low` and counts HotWalletGasLow 1 (the run's metrics carry the Network dimension), which the
 * stack alarms on per network (lib/observability.ts).
 */
export async function reportHotWalletGas(
  network: EvmNetworkName,
  settings: EvmNetworkSettings,
  chain: { feeBalance(address: string): Promise<bigint> },
  wallet: string,
  { log, metrics }: JobRun,
): Promise<{ gas: bigint; low: boolean }> {
  const { symbol, decimals } = EVM_NETWORKS[network].feeAsset;
  const minimum = parseUnits(settings.hotWalletGasMinimum ?? DEFAULT_HOT_WALLET_GAS_MINIMUM[network], decimals);
  const gas = await chain.feeBalance(wallet);
  const low = gas < minimum;
  metrics.addMetric('HotWalletGasLow', MetricUnit.Count, low ? 1 : 0);
  if (low) log.warn('hot wallet gas low', { network, wallet, gas: `${formatUnits(gas, decimals)} ${symbol}`, minimum: `${formatUnits(minimum, decimals)} ${symbol}` });
  return { gas, low };
}
