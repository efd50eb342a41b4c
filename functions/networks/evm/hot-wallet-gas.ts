import { formatUnits, parseUnits } from 'viem';
import type { Log } from '../../shared/log.ts';
import type { EvmNetworkName } from '../names.ts';
import { EVM_NETWORKS } from './networks.ts';
import { DEFAULT_HOT_WALLET_GAS_MINIMUM, type EvmNetworkSettings } from './settings.ts';

/**
 * The hot wallet's gas token on an EVM network, read by the withdrawal sender and the sweeper each
 * run: every payout and sweep is paid from it (no top-up per address, unlike TRON's sweeps), and a
 * wallet without gas stops them all. Below the stage's minimum for the network it logs `hot wallet
 * gas low`, and the run counts HotWalletGasLow 1 (jobs.ts; the run's metrics carry the Network
 * dimension), which the stack alarms on per network (lib/chain-alarms.ts).
 */
export async function checkHotWalletGas(
  network: EvmNetworkName,
  settings: EvmNetworkSettings,
  chain: { feeBalance(address: string): Promise<bigint> },
  wallet: string,
  log: Pick<Log, 'warn'>,
): Promise<{ gas: bigint; low: boolean }> {
  const { symbol, decimals } = EVM_NETWORKS[network].feeAsset;
  const minimum = parseUnits(settings.hotWalletGasMinimum ?? DEFAULT_HOT_WALLET_GAS_MINIMUM[network], decimals);
  const gas = await chain.feeBalance(wallet);
  const low = gas < minimum;
  if (low) log.warn('hot wallet gas low', { network, wallet, gas: `${formatUnits(gas, decimals)} ${symbol}`, minimum: `${formatUnits(minimum, decimals)} ${symbol}` });
  return { gas, low };
}
