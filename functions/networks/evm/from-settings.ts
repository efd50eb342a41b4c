import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { NetworkChains } from '../network.ts';
import type { SliceSettings } from '#functions/settings/functions';
import type { NetworkSources } from '#functions/ledger/reconciliation';
import { secretsManagerApiKey } from '../../adapters/provider-secret.ts';
import { parseGwei, type Address } from 'viem';
import { depositForwarderAddress, depositSalt } from './forwarder-address.ts';
import { EvmChain } from './evm-chain.ts';
import type { RpcEndpoints } from './rpc-transport.ts';
import { EvmPayoutNode, type EvmTransactionSigner } from './evm-payouts.ts';
import { EVM_NETWORKS, evmTokenControlsOf } from './networks.ts';
import { isEvmAddress } from './evm-address.ts';
import { DEFAULT_FINALITY_DEPTH, DEFAULT_MAX_FEE_PER_GAS_GWEI, DEFAULT_REPLACE_AFTER_SECONDS, type EvmNetworkName, type EvmNetworkSettings } from './settings.ts';

/** An EVM network's settings on the stage, or an error naming what is missing: a job is only
 * scheduled for a network the stage opens (lib/cambio-stack.ts), so reaching this is a mistake. */
export function evmSettingsOf(name: EvmNetworkName, settings: SliceSettings<'chain'>): EvmNetworkSettings {
  const network = settings.EVM_NETWORKS[name];
  if (!network) throw new Error(`EVM_NETWORKS has no "${name}": the network is not open on this stage`);
  return network;
}

/** The nodes' URLs, in the order they are tried: the secret's (a provider's URL carries its key, so
 * it is a secret; read once per five minutes, never logged; several comma-separated), then rpcUrl,
 * then rpcUrls. */
export function rpcUrlsOf(network: EvmNetworkSettings): RpcEndpoints {
  const plain = [...(network.rpcUrl === undefined ? [] : [network.rpcUrl]), ...(network.rpcUrls ?? [])];
  if (network.rpcUrlSecret === undefined) return plain;
  const secret = secretsManagerApiKey(network.rpcUrlSecret);
  return async () => [...(await secret()).split(',').filter((url) => url !== ''), ...plain];
}

/**
 * The scan cursor's name: one per chain, whatever its USDT contract, so a stage that changes
 * `usdtContract` (Tether deprecated it for an upgraded one) resumes where the scan stood rather than
 * at the chain's head, skipping the payments in between (../shared/networks.md, "Deprecation").
 */
export const evmScanCursorName = (name: EvmNetworkName, network: EvmNetworkSettings): string => `${name}:${network.chainId}`;

/** The name the cursor had while it was one per chain and token: a stage's first scan under the new
 * name starts where that one stood (DynamoScanCursor's `previousNames`). */
export const evmLegacyScanCursorName = (name: EvmNetworkName, network: EvmNetworkSettings): string => `${name}:${network.chainId}:${network.usdtContract}`;

/** The chain of an EVM network, from the stage's EVM_NETWORKS. Balances are read one call per
 * address (batched into one request), and every transfer needs its sender to hold the amount. */
export const evmChains = (name: EvmNetworkName): NetworkChains => ({
  connect: (_db: DynamoDBDocumentClient, _tableName: string, settings: SliceSettings<'chain'>) => {
    const network = evmSettingsOf(name, settings);
    return {
      chain: evmChainOf(name, settings),
      settings: {
        usdtContract: network.usdtContract,
        cursorName: evmScanCursorName(name, network),
        previousCursorNames: [evmLegacyScanCursorName(name, network)],
        enforcesBalances: true,
        readsAllBalancesAtOnce: false,
      },
    };
  },
  reconcileSources: (_db, _tableName, settings, hotWalletAddress) => ({ ...evmReconcileSources(name, settings, hotWalletAddress), readsAllBalancesAtOnce: false }),
});

/** The chain of an EVM network as its reader and broadcaster (EvmChain). */
export function evmChainOf(name: EvmNetworkName, settings: SliceSettings<'chain'>): EvmChain {
  const network = evmSettingsOf(name, settings);
  return new EvmChain({
    rpcUrl: rpcUrlsOf(network),
    rpcTimeoutMs: network.rpcTimeoutMs,
    finalizedTag: network.finalizedTag,
    confirmations: network.confirmations,
    finalityDepth: network.finalityDepth ?? DEFAULT_FINALITY_DEPTH[name],
    maxBlockRange: network.maxBlockRange,
    tokenDecimals: EVM_NETWORKS[name].tokenDecimals,
    tokenControls: evmTokenControlsOf(name, network),
    feeAsset: EVM_NETWORKS[name].feeAsset,
  });
}

/** The hot wallet's payouts on an EVM network: signed by `signer`, sent through `chain`, fees in the
 * network's fee market under its cap (EVM_NETWORKS feeMarket, maxFeePerGasGwei). */
export function evmPayoutsOf(name: EvmNetworkName, settings: SliceSettings<'chain'>, signer: EvmTransactionSigner, chain: EvmChain): EvmPayoutNode {
  const network = evmSettingsOf(name, settings);
  return new EvmPayoutNode({
    chainId: network.chainId,
    rpcUrl: rpcUrlsOf(network),
    rpcTimeoutMs: network.rpcTimeoutMs,
    usdtContract: network.usdtContract,
    currentUsdtContract: (contract) => chain.currentUsdtContract(contract),
    forwarderFactory: network.forwarderFactory,
    tokenDecimals: EVM_NETWORKS[name].tokenDecimals,
    maxFeePerGas: parseGwei(String(network.maxFeePerGasGwei ?? DEFAULT_MAX_FEE_PER_GAS_GWEI)),
    feeMarket: network.feeMarket ?? 'eip1559',
    signer,
    broadcaster: chain,
  });
}

/** Whether `address` is where the network's factory deploys `depositId`'s forwarder (an EVM deposit
 * address issued on another network is the same 20 bytes on this one, and is that network's
 * factory's forwarder, not necessarily this one's). */
export function isForwarderOf(network: EvmNetworkSettings, address: string, depositId: string): boolean {
  const forwarder = depositForwarderAddress({ factory: network.forwarderFactory as Address, implementation: network.forwarderImplementation as Address, salt: depositSalt(depositId) });
  return forwarder.toLowerCase() === address.toLowerCase();
}

/** How long a payout on the network may wait unmined before it is replaced at a higher fee. */
export const evmReplaceAfterMs = (name: EvmNetworkName, settings: SliceSettings<'chain'>): number =>
  (evmSettingsOf(name, settings).replaceAfterSeconds ?? DEFAULT_REPLACE_AFTER_SECONDS) * 1000;

/** What reconciliation reads of an EVM network (functions/ledger/reconciliation.ts): USDT in 6
 * decimals, receipts, the hot wallet's gas token and deposit addresses' native coin in wei, and
 * what lies below 1e-6 USDT on a token with more decimals. */
export function evmReconcileSources(name: EvmNetworkName, settings: SliceSettings<'chain'>, hotWalletAddress: () => Promise<string>): { network: EvmNetworkName } & NetworkSources {
  const chain = evmChainOf(name, settings);
  const { usdtContract, forwarderFactory } = evmSettingsOf(name, settings);
  return {
    network: name,
    usdtBalances: (addresses) => chain.usdtBalances(usdtContract, addresses),
    receipt: (txHash) => chain.receipt(txHash),
    hotWalletAddress,
    // Every EVM deposit address, whatever its deposit's network (the same 20 bytes on each EVM
    // chain): reconcile reads them a page a run in turn (EVERY_ADDRESS_PAGE), not all every run.
    readsEveryDepositAddressOf: isEvmAddress,
    gasBalance: (address) => chain.feeBalance(address),
    nativeBalances: (addresses) => chain.nativeBalances(forwarderFactory, addresses),
    // BSC's 18 decimals leave dust below 1e-6 USDT (functions/deposits/dust.ts); a 6-decimal token none.
    ...(EVM_NETWORKS[name].tokenDecimals > 6 && {
      tokenDecimals: EVM_NETWORKS[name].tokenDecimals,
      usdtBelowMicro: async (addresses: string[]) => {
        const unit = 10n ** BigInt(EVM_NETWORKS[name].tokenDecimals - 6);
        return new Map([...(await chain.tokenBalances(usdtContract, addresses))].map(([address, held]) => [address, held % unit]));
      },
    }),
  };
}
