import { createWalletClient, defineChain, erc20Abi, http, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { NetworkSandbox, SandboxPayer } from '../network.ts';
import type { SliceSettings } from '#functions/settings/functions';
import { EVM_NETWORKS } from './networks.ts';
import type { EvmNetworkName, EvmNetworkSettings } from './settings.ts';

/**
 * The customer wallet of the local EVM nodes: anvil's third funded account of its public test
 * mnemonic ("test test … junk"). Everyone knows this key: it only ever holds the local runtime's
 * sandbox USDT, which local/evm-networks.ts mints to it when a node starts.
 */
export const SANDBOX_CUSTOMER_KEY = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
export const SANDBOX_CUSTOMER = privateKeyToAccount(SANDBOX_CUSTOMER_KEY).address;

/** A customer's USDT payment on a sandbox EVM node, as a wallet sends it: `amount` in USDT minor
 * units, scaled to the token's decimals on chain. */
export function evmSandboxPayer(name: EvmNetworkName, network: EvmNetworkSettings): SandboxPayer {
  const chain = defineChain({
    id: network.chainId,
    name,
    nativeCurrency: { name: EVM_NETWORKS[name].feeAsset.symbol, symbol: EVM_NETWORKS[name].feeAsset.symbol, decimals: 18 },
    rpcUrls: { default: { http: [network.rpcUrl!] } },
  });
  const wallet = createWalletClient({ account: privateKeyToAccount(SANDBOX_CUSTOMER_KEY), chain, transport: http(network.rpcUrl) });
  const scale = 10n ** BigInt(EVM_NETWORKS[name].tokenDecimals - 6);
  return {
    pay: async (address, amount) => ({
      txHash: await wallet.writeContract({ address: network.usdtContract as Address, abi: erc20Abi, functionName: 'transfer', args: [address as Address, amount * scale] }),
    }),
  };
}

/** The simulator's payer where the stage's node for the network is a sandbox (the local runtime's
 * anvil); null where it is a real network, where money moves only from a real wallet. */
export const evmSandbox = (name: EvmNetworkName): NetworkSandbox => ({
  payer: (_db, _tableName, settings: SliceSettings<'chain'>) => {
    const network = settings.EVM_NETWORKS[name];
    return network?.sandbox && network.rpcUrl ? evmSandboxPayer(name, network) : null;
  },
});
