import type { LocalAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { EVM_NETWORKS } from '#functions/networks/evm/networks';
import { toChecksumAddress } from '#functions/networks/evm/evm-address';
import type { EvmNetworkName, EvmNetworkSettings } from '#functions/networks/evm/settings';
import type { HotWalletFloat } from '#functions/ledger/floats';
import { startAnvil, startAnvilWithContracts, type Anvil } from './anvil.ts';
import { chainDirOf, expectContractsOn, keepChainSaved, saveChainState, saveContracts, savedChainIn, SavedChainUnusable, type SavedContracts } from './evm-chain-state.ts';
import { anvilAccount, hotWalletFloatOf, localUsdtTokenOf, type NetworkContracts } from './evm-contracts.ts';

/** A block a second, as the sandbox TRON chain's (config/stages.ts SANDBOX_BLOCK_INTERVAL_MS). */
const BLOCK_SECONDS = 1;
/** Three blocks deep is final on the local nodes: a deposit completes in a few seconds, well under 20. */
const LOCAL_CONFIRMATIONS = 3;

/** How often a node's state is saved while a block mined since the last save holds a transaction
 * (./evm-chain-state.ts): what a kill -9 of `npm start` may lose of it. */
export const CHAIN_SAVE_EVERY_MS = 2_000;

export interface LocalEvmNetworks {
  /** What the stage's EVM_NETWORKS setting says of each node started. */
  settings: Partial<Record<EvmNetworkName, EvmNetworkSettings>>;
  /** Each node's hot wallet float, as the runtime records it in the ledger. */
  floats: HotWalletFloat[];
  /** The networks whose chain went on from the data folder's; the others began at this start. */
  restored: EvmNetworkName[];
  /** Saves every node's state now (after a change no block shows, as the nonce resume's). */
  save(): Promise<void>;
  /** Saves each node's state a last time (with a data folder), then stops it. */
  stop(): Promise<void>;
}

interface StartedNode {
  url: string;
  contracts: SavedContracts;
  restored: boolean;
  save(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * One anvil per named network, its USDT (the network's mainnet token as contracts/usdt/ reproduces
 * it, with its decimals, owned by the local issuer account) and forwarder factory deployed, the
 * customer wallet and the hot wallet funded (./evm-contracts.ts).
 *
 * With a data folder (`npm start`: .data/), each chain is kept there (./evm-chain-state.ts): a
 * start goes on from the chain saved by the last, its contracts, balances, nonces, blocks and head,
 * and deploys nothing; with none saved, the chain begins afresh and is kept from then on. Without
 * one (most tests), each start is a fresh chain. A fresh chain's contracts are deployed by the same
 * account from the same nonces, so their addresses, and with them every deposit address handed out
 * before (a CREATE2 address from the factory), are the same on every chain.
 */
export async function startEvmNetworks(
  names: readonly EvmNetworkName[],
  { hotWalletKey, dataDir = null, saveEveryMs = CHAIN_SAVE_EVERY_MS }: { hotWalletKey?: string; dataDir?: string | null; saveEveryMs?: number } = {},
): Promise<LocalEvmNetworks> {
  // Each node answers with its real network's chain id, so what a wallet signs there names it.
  // The stage's hot wallet key signs on every network (its address in each one's form): given ETH
  // for gas and USDT for withdrawals on each node, and owner of its forwarder factory.
  const hotWallet = hotWalletKey ? privateKeyToAccount(`0x${hotWalletKey.replace(/^0x/, '')}`) : undefined;
  const started = await Promise.allSettled(names.map((name) => startNode(name, { hotWallet, dataDir, saveEveryMs })));
  const nodes = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const stop = async (): Promise<void> => {
    await Promise.all(nodes.map((node) => node.stop()));
  };
  const failed = started.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  const settings: LocalEvmNetworks['settings'] = {};
  const floats = nodes.map((node, index) => hotWalletFloatOf(names[index]!, node.contracts));
  nodes.forEach((node, index) => {
    settings[names[index]!] = {
      chainId: node.contracts.chainId,
      rpcUrl: node.url,
      usdtContract: node.contracts.usdt,
      // TetherUsdt's controls, or none (Bep20Usdt on bsc): what the jobs read as frozen and paused.
      tokenControls: node.contracts.tokenControls,
      forwarderFactory: node.contracts.factory,
      forwarderImplementation: node.contracts.implementation,
      // anvil's `finalized` is its latest block: a depth is the rule here (functions/networks/evm/settings.ts).
      finalizedTag: false,
      confirmations: LOCAL_CONFIRMATIONS,
      maxBlockRange: 1_000,
      scanEveryMinutes: 1,
      sweepBatchSize: 100,
      sandbox: true,
    };
  });
  return {
    settings,
    floats,
    restored: names.filter((_, index) => nodes[index]!.restored),
    save: async () => {
      await Promise.all(nodes.map((node) => node.save()));
    },
    stop,
  };
}

/** One network's node: its saved chain loaded, or a fresh one deployed (and saved, with a data folder). */
async function startNode(
  name: EvmNetworkName,
  { hotWallet, dataDir, saveEveryMs }: { hotWallet?: LocalAccount; dataDir: string | null; saveEveryMs: number },
): Promise<StartedNode> {
  const { chainId, tokenDecimals, tokenControls } = EVM_NETWORKS[name];
  if (!dataDir) {
    const node = await startAnvilWithContracts({ chainId, usdtDecimals: tokenDecimals, usdtToken: localUsdtTokenOf(tokenControls), blockTime: BLOCK_SECONDS, hotWallet });
    return { url: node.url, contracts: contractsOf(node), restored: false, save: async () => undefined, stop: node.stop };
  }
  const dir = chainDirOf(dataDir, name);
  const saved = savedChainIn(name, dir, { chainId, hotWallet: (hotWallet ?? anvilAccount.hotWallet()).address });
  let node: Anvil;
  let contracts: SavedContracts;
  let savedHead: number;
  if (saved) {
    // Out of the terminal's process group: Ctrl-C stops `npm start`, which saves the chain, then stops the node.
    try {
      node = await startAnvil({ chainId, blockTime: BLOCK_SECONDS, loadState: saved.stateFile, ownProcessGroup: true });
    } catch (error) {
      const message = (error as Error).message;
      // anvil stops at once on a state it cannot load, and says so (--load-state); a port taken
      // meanwhile, or a start slower than the wait on a busy machine, is no fault of the chain.
      if (/^anvil exited/.test(message) && /state/i.test(message)) throw new SavedChainUnusable(name, dir, `anvil did not start on it (${message})`);
      throw new Error(`The ${name} node did not start on the chain saved in ${dir}/ (${message}); the chain is kept as it was: start again`, { cause: error });
    }
    contracts = saved.contracts;
    savedHead = saved.head;
    try {
      await expectContractsOn(node.url, name, dir, contracts);
    } catch (error) {
      await node.stop();
      throw error;
    }
  } else {
    const fresh = await startAnvilWithContracts({ chainId, usdtDecimals: tokenDecimals, usdtToken: localUsdtTokenOf(tokenControls), blockTime: BLOCK_SECONDS, hotWallet, ownProcessGroup: true });
    node = fresh;
    contracts = contractsOf(fresh);
    try {
      // The state first: contracts.json is what says a chain is saved (evm-chain-state.ts savedChainIn).
      savedHead = await saveChainState(fresh.url, dir);
      saveContracts(dir, contracts);
    } catch (error) {
      await fresh.stop();
      throw error;
    }
  }
  const keeper = keepChainSaved(node.url, dir, { everyMs: saveEveryMs, savedHead });
  return {
    url: node.url,
    contracts,
    restored: saved !== null,
    save: keeper.save,
    stop: async () => {
      await keeper.stop();
      await node.stop();
    },
  };
}

const contractsOf = (node: Anvil & NetworkContracts): SavedContracts => ({
  chainId: node.chainId,
  usdt: node.usdt,
  usdtDecimals: node.usdtDecimals,
  usdtToken: node.usdtToken,
  tokenControls: node.tokenControls,
  factory: node.factory,
  implementation: node.implementation,
  hotWallet: node.hotWallet.address,
  floatTxHash: node.floatTxHash,
});

/** The start banner's line for each node: name, JSON-RPC URL, the USDT contract and its owner, the
 * local issuer account that `npm run sandbox:issuer` signs as (../shared/networks.md). */
export const evmNetworkLines = (settings: LocalEvmNetworks['settings']): string[] =>
  // EIP-55, as networks.md writes an EVM address (the deploy receipt's is lower case).
  Object.entries(settings).map(([name, network]) => `  ${name.padEnd(16)}${network.rpcUrl}  USDT ${toChecksumAddress(network.usdtContract)}  issuer ${anvilAccount.issuer().address}`);
