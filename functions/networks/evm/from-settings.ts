import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { NetworkChains } from '../network.ts';
import type { SliceSettings } from '#functions/settings/functions';
import { secretsManagerApiKey } from '../../adapters/provider-secret.ts';
import { EvmChain } from './evm-chain.ts';
import { EVM_NETWORKS } from './networks.ts';
import type { EvmNetworkName, EvmNetworkSettings } from './settings.ts';

/** An EVM network's settings on the stage, or an error naming what is missing: a job is only
 * scheduled for a network the stage opens (lib/cambio-stack.ts), so reaching this is a mistake. */
export function evmSettingsOf(name: EvmNetworkName, settings: SliceSettings<'chain'>): EvmNetworkSettings {
  const network = settings.EVM_NETWORKS[name];
  if (!network) throw new Error(`EVM_NETWORKS has no "${name}": the network is not open on this stage`);
  return network;
}

/** The node's URL: as set, or read from Secrets Manager (a provider's URL carries its key, so it
 * is a secret; read once per five minutes, never logged). */
const rpcUrlOf = (network: EvmNetworkSettings): string | (() => Promise<string>) =>
  network.rpcUrl ?? secretsManagerApiKey(network.rpcUrlSecret!);

/** The scan cursor's name: one per chain and token, so a stage that changes either starts afresh. */
export const evmScanCursorName = (name: EvmNetworkName, network: EvmNetworkSettings): string => `${name}:${network.chainId}:${network.usdtContract}`;

/** The chain of an EVM network, from the stage's EVM_NETWORKS. Balances are read one call per
 * address (batched into one request), and every transfer needs its sender to hold the amount. */
export const evmChains = (name: EvmNetworkName): NetworkChains => ({
  connect: (_db: DynamoDBDocumentClient, _tableName: string, settings: SliceSettings<'chain'>) => {
    const network = evmSettingsOf(name, settings);
    const chain = new EvmChain({
      rpcUrl: rpcUrlOf(network),
      finalizedTag: network.finalizedTag,
      confirmations: network.confirmations,
      maxBlockRange: network.maxBlockRange,
      tokenDecimals: EVM_NETWORKS[name].tokenDecimals,
    });
    return {
      chain,
      settings: { usdtContract: network.usdtContract, cursorName: evmScanCursorName(name, network), enforcesBalances: true, readsAllBalancesAtOnce: false },
    };
  },
});
