import { createClient, encodeFunctionData, erc20Abi, http, type Address, type Hash } from 'viem';
import type { NetworkSandbox, SandboxPayer } from '../network.ts';
import type { SliceSettings } from '#functions/settings/functions';
import { EVM_NETWORKS } from './networks.ts';
import type { EvmNetworkName, EvmNetworkSettings } from './settings.ts';

/**
 * The customer wallet of the local EVM nodes: anvil's third funded account of its public test
 * mnemonic ("test test … junk"), which local/evm-contracts.ts gives USDT when a node starts. anvil
 * keeps its default accounts unlocked, so the node signs the payment itself (eth_sendTransaction):
 * the dashboard API, which carries this payer, bundles no transaction signing.
 */
export const SANDBOX_CUSTOMER: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

/** A customer's USDT payment on a sandbox EVM node, as a wallet sends it: `amount` in USDT minor
 * units, scaled to the token's decimals on chain. */
export function evmSandboxPayer(name: EvmNetworkName, network: EvmNetworkSettings): SandboxPayer {
  const client = createClient({ transport: http(network.rpcUrl) });
  const scale = 10n ** BigInt(EVM_NETWORKS[name].tokenDecimals - 6);
  return {
    pay: async (address, amount) => {
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [address as Address, amount * scale] });
      const txHash: Hash = await client.request({ method: 'eth_sendTransaction', params: [{ from: SANDBOX_CUSTOMER, to: network.usdtContract as Address, data }] });
      return { txHash };
    },
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
