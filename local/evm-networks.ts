import { privateKeyToAccount } from 'viem/accounts';
import { EVM_NETWORKS } from '#functions/networks/evm/networks';
import type { EvmNetworkName, EvmNetworkSettings } from '#functions/networks/evm/settings';
import type { HotWalletFloat } from '#functions/ledger/floats';
import { startAnvilWithContracts, type Anvil } from './anvil.ts';
import { anvilAccount, hotWalletFloatOf, localUsdtTokenOf } from './evm-contracts.ts';

/** A block a second, as the sandbox TRON chain's (config/stages.ts SANDBOX_BLOCK_INTERVAL_MS). */
const BLOCK_SECONDS = 1;
/** Three blocks deep is final on the local nodes: a deposit completes in a few seconds, well under 20. */
const LOCAL_CONFIRMATIONS = 3;

export interface LocalEvmNetworks {
  /** What the stage's EVM_NETWORKS setting says of each node started. */
  settings: Partial<Record<EvmNetworkName, EvmNetworkSettings>>;
  /** Each node's hot wallet float, as the runtime records it in the ledger. */
  floats: HotWalletFloat[];
  stop(): Promise<void>;
}

/**
 * One anvil per named network, its USDT (the network's mainnet token as contracts/usdt/ reproduces
 * it, with its decimals, owned by the local issuer account) and forwarder factory deployed, the
 * customer wallet and the hot wallet funded (./evm-contracts.ts).
 *
 * Each start is a fresh chain, even on a data folder kept across restarts: anvil's --state file
 * keeps every block, about 1.7 KB each, so at a block a second it would grow by ~140 MB a day per
 * network, rewritten whole at each dump. Nothing is lost by starting afresh: the contracts are
 * deployed by the same account from the same nonces, so their addresses, and with them every
 * deposit address handed out before (a CREATE2 address from the factory), are the same; the
 * runtime starts each network's scan at the new chain's head (local/runtime.ts). A payment made
 * before the restart is gone with its chain, as if a reorganisation had dropped it.
 */
export async function startEvmNetworks(names: readonly EvmNetworkName[], { hotWalletKey }: { hotWalletKey?: string } = {}): Promise<LocalEvmNetworks> {
  // Each node answers with its real network's chain id, so what a wallet signs there names it.
  // The stage's hot wallet key signs on every network (its address in each one's form): given ETH
  // for gas and USDT for withdrawals on each node, and owner of its forwarder factory.
  const hotWallet = hotWalletKey ? privateKeyToAccount(`0x${hotWalletKey}`) : undefined;
  const started = await Promise.allSettled(
    names.map((name) =>
      startAnvilWithContracts({
        chainId: EVM_NETWORKS[name].chainId,
        usdtDecimals: EVM_NETWORKS[name].tokenDecimals,
        usdtToken: localUsdtTokenOf(EVM_NETWORKS[name].tokenControls),
        blockTime: BLOCK_SECONDS,
        hotWallet,
      }),
    ),
  );
  const nodes = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const stop = async (): Promise<void> => {
    await Promise.all(nodes.map((node: Anvil) => node.stop()));
  };
  const failed = started.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  const settings: LocalEvmNetworks['settings'] = {};
  const floats = nodes.map((node, index) => hotWalletFloatOf(names[index]!, node));
  nodes.forEach((node, index) => {
    settings[names[index]!] = {
      chainId: node.chainId,
      rpcUrl: node.url,
      usdtContract: node.usdt,
      // TetherUsdt's controls, or none (Bep20Usdt on bsc): what the jobs read as frozen and paused.
      tokenControls: node.tokenControls,
      forwarderFactory: node.factory,
      forwarderImplementation: node.implementation,
      // anvil's `finalized` is its latest block: a depth is the rule here (functions/networks/evm/settings.ts).
      finalizedTag: false,
      confirmations: LOCAL_CONFIRMATIONS,
      maxBlockRange: 1_000,
      scanEveryMinutes: 1,
      sweepBatchSize: 100,
      sandbox: true,
    };
  });
  return { settings, floats, stop };
}

/** The start banner's line for each node: name, JSON-RPC URL, the USDT contract and its owner, the
 * local issuer account that `npm run sandbox:issuer` signs as (../shared/networks.md). */
export const evmNetworkLines = (settings: LocalEvmNetworks['settings']): string[] =>
  Object.entries(settings).map(([name, network]) => `  ${name.padEnd(16)}${network.rpcUrl}  USDT ${network.usdtContract}  issuer ${anvilAccount.issuer().address}`);
