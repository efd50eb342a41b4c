import * as v from 'valibot';
import type { IKey, Key } from 'aws-cdk-lib/aws-kms';
import { Stack } from 'aws-cdk-lib';
import { EVM_NETWORKS, evmTokenControlsOf, KNOWN_USDT_CONTROLS } from '../../functions/networks/evm/networks.ts';
import { EVM_NETWORK_NAMES, EVM_STAGE_SETTINGS, type EvmNetworkName, type TokenControlsKind } from '../../functions/networks/evm/settings.ts';
import { forwarderImplementationAddress } from '../../functions/networks/evm/forwarder-address.ts';
import { evmSweepItem } from '../../functions/networks/evm/sweep-record.ts';
import type { Address } from 'viem';
import type { StageConfig } from '../../config/stages.ts';
import type { Binder } from '../api-function.ts';
import { secretsNamedIn } from '../binders.ts';
import { FREEZE_ONLY, hotWalletKey, idSuffixOf, NO_CONTROLS, TETHER_CONTROLS, type IssuerControls, type NetworkFamilyStack } from './network-stack.ts';

/** Which alarms each kind of token's controls can fire (settings.ts TOKEN_CONTROLS). */
const ISSUER_CONTROLS_OF: Record<TokenControlsKind, IssuerControls> = { tether: TETHER_CONTROLS, 'blocked-list': FREEZE_ONLY, none: NO_CONTROLS };

/**
 * The EVM networks on the stage: each open where its EVM_NETWORKS figure names it, polled at its
 * own rate (`scanEveryMinutes`), its payouts replaced at a higher fee up to the network's cap. Each
 * has a hot wallet key of its own, and reads its node's URL from a secret where the figure names one.
 */
export const evmStack: NetworkFamilyStack = {
  destinationReads: () => [],
  onStage(stack, config) {
    const open = openEvmNetworks(config);
    const keys = hotWalletKeyPerNetwork(stack, config);
    const openKeys = Object.fromEntries(Object.keys(open).map((name) => [name, keys[name as EvmNetworkName]]));
    const entries = Object.entries(open) as [EvmNetworkName, NonNullable<(typeof open)[EvmNetworkName]>][];
    return {
      open: entries.map(([name, network]) => ({
        name,
        title: EVM_NETWORKS[name].title,
        pollEveryMinutes: network.scanEveryMinutes,
        blockMs: EVM_NETWORKS[name].blockMs,
        gasLow: { feeSymbol: EVM_NETWORKS[name].feeAsset.symbol, minimumSetting: `EVM_NETWORKS.${name}.hotWalletGasMinimum` },
        feeCap: { figure: 'maxFeePerGasGwei', setting: 'EVM_NETWORKS' },
        stuckBecause: 'unmined under the fee cap, behind a nonce that will not fill, or mined an hour ago and still not final (the chain\'s finality or the node\'s view of it stalled),',
        issuerControls: ISSUER_CONTROLS_OF[evmTokenControlsOf(name, network)],
      })),
      nodes: [secretsNamedIn('EVM_NETWORKS', entries.flatMap(([, network]) => (network.rpcUrlSecret ? [network.rpcUrlSecret] : [])))],
      signing: [hotWalletKeys(openKeys, 'kms:Sign', 'kms:GetPublicKey')],
      depositAddressKeys: [],
      hotWalletAddresses: [hotWalletKeys(openKeys, 'kms:GetPublicKey')],
      sweepRecordPartitions: entries.map(([name]) => evmSweepItem.open(name, '').PK),
      hotWalletKeys: Object.values(keys),
    };
  },
};

/**
 * The EVM networks the stage opens (its EVM_NETWORKS figure, checked by the settings schema), each
 * `forwarderImplementation` checked against its factory: the factory deploys its implementation with
 * its first CREATE (contracts/DepositForwarderFactory.sol), so the figure can only be that address.
 * Deposit addresses are computed from the figure, and a mistyped one would hand out addresses no
 * sweep can ever empty: refused here, at synth, before any is handed out.
 */
function openEvmNetworks(config: StageConfig) {
  const open = v.parse(EVM_STAGE_SETTINGS.EVM_NETWORKS, config.functionEnvironment.EVM_NETWORKS);
  for (const [name, network] of Object.entries(open)) {
    const deployed = forwarderImplementationAddress(network.forwarderFactory as Address);
    if (deployed.toLowerCase() !== network.forwarderImplementation.toLowerCase()) {
      throw new Error(
        `Stage ${config.stage}: EVM_NETWORKS.${name}.forwarderImplementation is ${network.forwarderImplementation}, but the factory ` +
          `${network.forwarderFactory} deploys its implementation at ${deployed}: a deposit address computed from the figure could never be swept. ` +
          'Set it to the factory\'s implementation() (npm run evm:deploy-factory prints both).',
      );
    }
    // A contract read with another token's controls reverts every freeze read: no deposit would be credited.
    const known = KNOWN_USDT_CONTROLS[network.usdtContract.toLowerCase()];
    const named = evmTokenControlsOf(name as EvmNetworkName, network);
    if (known && known !== named) {
      throw new Error(
        `Stage ${config.stage}: EVM_NETWORKS.${name}.usdtContract ${network.usdtContract} has the issuer controls '${known}', but the stage reads it as '${named}'` +
          `${network.tokenControls ? '' : ` (${name}'s default)`}: every freeze read would revert and no deposit would be credited. Set EVM_NETWORKS.${name}.tokenControls to '${known}' (docs/evm-networks.md).`,
      );
    }
  }
  return open;
}

/**
 * The hot wallet of each EVM network: a secp256k1 key of its own (its address the keccak of the
 * public key), so a key's loss or grant touches one chain. Made for every EVM network, open or
 * not: a network's forwarder factory must be deployed owned by its hot wallet's address before
 * the stage can open it (EVM_NETWORKS names the factory), so the key has to exist first
 * (npm run evm:deploy-factory, docs/evm-networks.md). Only an open network's key is granted.
 */
function hotWalletKeyPerNetwork(stack: Stack, config: StageConfig): Record<EvmNetworkName, Key> {
  return Object.fromEntries(
    EVM_NETWORK_NAMES.map((network) => [
      network,
      hotWalletKey(stack, `HotWalletKey${idSuffixOf(network)}`, `Cambio ${config.stage} hot wallet (${network}, secp256k1)`, `alias/cambio-${config.stage}-hot-wallet-${network}`),
    ]),
  ) as Record<EvmNetworkName, Key>;
}

/**
 * The open EVM networks' hot wallet keys, with `actions` on each (the withdrawal sender signs:
 * kms:Sign and kms:GetPublicKey), as EVM_SIGNER_KMS_KEY_IDS; nothing when the stage opens none.
 */
const hotWalletKeys = (keys: Partial<Record<EvmNetworkName, IKey>>, ...actions: string[]): Binder => (fn) => {
  const entries = Object.entries(keys);
  if (entries.length === 0) return {};
  for (const [, key] of entries) key.grant(fn, ...actions);
  return { EVM_SIGNER_KMS_KEY_IDS: Stack.of(fn).toJsonString(Object.fromEntries(entries.map(([network, key]) => [network, key.keyId]))) };
};
