import { getAddress, isAddress, type Address, type Hex, type LocalAccount } from 'viem';
import type { SandboxIssuer } from '#functions/networks/sandbox-issuer';
import { EVM_NETWORKS, evmTokenControlsOf } from '#functions/networks/evm/networks';
import type { EvmNetworkName, EvmNetworkSettings } from '#functions/networks/evm/settings';
import { BlockedListUsdt, TetherUsdt, UpgradedUsdt } from '#functions/networks/evm/usdt-contracts';
import { anvilAccount, localEvmChain, localPublicClient, localWalletClient } from './evm-contracts.ts';

/**
 * Tether's issuer on a local EVM node (../shared/networks.md, "The token as it is on mainnet"):
 * the transactions `npm run sandbox:issuer` and the tests send as the token's owner, the local
 * issuer account (anvilAccount.issuer) that local/evm-contracts.ts made the owner of each node's
 * TetherUsdt (contracts/usdt/TetherUsdt.sol). Each call waits for its transaction to be mined.
 *
 * Once the token is deprecated, freeze, pause and the fee act on the upgraded contract, where the
 * balances now are (contracts/usdt/UpgradedUsdt.sol); the old contract's own freeze list and pause
 * stay as they were.
 */

/** The network's token lacks the control asked for (BSC's BEP20USDT has none; Tether's newer
 * token no pause, fee or deprecation): there is nothing to drive. */
export class TokenWithoutControls extends Error {}

/** The address asked for, refused before anything is sent when it is not one. */
const evmAddress = (address: string): Address => {
  if (!isAddress(address)) throw new RangeError(`not an EVM address (0x and 40 hex digits, EIP-55 when mixed case): ${JSON.stringify(address)}`);
  return address;
};

/** TetherToken's `setParams` limits: basis points below 20, a maximum fee below 50 whole tokens. */
const FEE_BASIS_POINTS_BELOW = 20;
const MAX_FEE_TOKENS_BELOW = 50n;
/** USDT's 6 decimals outside, in which the maximum fee is given. */
const USDT_UNIT = 1_000_000n;

export function evmSandboxIssuer(name: EvmNetworkName, network: EvmNetworkSettings, { issuer = anvilAccount.issuer() }: { issuer?: LocalAccount } = {}): SandboxIssuer {
  if (evmTokenControlsOf(name, network) === 'none') {
    throw new TokenWithoutControls(`${EVM_NETWORKS[name].title}'s USDT (BEP20USDT) has no issuer controls: it cannot be frozen, paused, charged a fee or deprecated`);
  }
  if (!network.sandbox || !network.rpcUrl) throw new Error(`${name}'s node is not a local sandbox node: only the local runtime's anvil has a local issuer`);
  const chain = localEvmChain(network.rpcUrl, network.chainId);
  const reader = localPublicClient(chain);
  const wallet = localWalletClient(chain, issuer);
  const legacy = network.usdtContract as Address;
  const mined = async (hash: Hex): Promise<void> => {
    const receipt = await reader.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`the issuer's transaction ${hash} reverted`);
  };
  if (evmTokenControlsOf(name, network) === 'blocked-list') return blockedListIssuer(legacy, wallet, mined);

  /** The contract that holds the balances: the stage's, or the one it was deprecated for. */
  const current = async (): Promise<Address> =>
    (await reader.readContract({ address: legacy, abi: TetherUsdt.abi, functionName: 'deprecated' }))
      ? reader.readContract({ address: legacy, abi: TetherUsdt.abi, functionName: 'upgradedAddress' })
      : legacy;
  // pause, unpause, addBlackList, removeBlackList and setParams are the same calls on TetherUsdt
  // and UpgradedUsdt.
  const send = async (functionName: 'addBlackList' | 'removeBlackList', address: string): Promise<void> => {
    const target = evmAddress(address);
    await mined(await wallet.writeContract({ address: await current(), abi: TetherUsdt.abi, functionName, args: [target] }));
  };
  /** Tether's pause() and unpause() revert when the token is already so: asked twice, the second does nothing. */
  const setPaused = async (paused: boolean): Promise<void> => {
    const token = await current();
    if ((await reader.readContract({ address: token, abi: TetherUsdt.abi, functionName: 'paused' })) === paused) return;
    await mined(await wallet.writeContract({ address: token, abi: TetherUsdt.abi, functionName: paused ? 'pause' : 'unpause' }));
  };

  return {
    freeze: (address) => send('addBlackList', address),
    unfreeze: (address) => send('removeBlackList', address),
    pause: () => setPaused(true),
    unpause: () => setPaused(false),
    setFee: async (basisPoints, maxFee) => {
      if (!Number.isInteger(basisPoints) || basisPoints < 0 || basisPoints >= FEE_BASIS_POINTS_BELOW) {
        throw new RangeError(`basis points must be a whole number from 0 to ${FEE_BASIS_POINTS_BELOW - 1}: TetherToken's setParams takes below ${FEE_BASIS_POINTS_BELOW}, got ${String(basisPoints)}`);
      }
      if (typeof maxFee !== 'bigint' || maxFee < 0n || maxFee % USDT_UNIT !== 0n || maxFee / USDT_UNIT >= MAX_FEE_TOKENS_BELOW) {
        throw new RangeError(`the maximum fee must be whole USDT from 0 to ${MAX_FEE_TOKENS_BELOW - 1n}: TetherToken's setParams takes whole tokens below ${MAX_FEE_TOKENS_BELOW}, got ${String(maxFee)} minor units`);
      }
      await mined(await wallet.writeContract({ address: await current(), abi: TetherUsdt.abi, functionName: 'setParams', args: [BigInt(basisPoints), maxFee / USDT_UNIT] }));
    },
    /** Deploys UpgradedUsdt over the stage's contract and points that one at it; once deprecated,
     * again answers the contract it was deprecated for. */
    deprecate: async () => {
      if (await reader.readContract({ address: legacy, abi: TetherUsdt.abi, functionName: 'deprecated' })) {
        return { upgradedContract: await reader.readContract({ address: legacy, abi: TetherUsdt.abi, functionName: 'upgradedAddress' }) };
      }
      const [tokenName, symbol, decimals] = await Promise.all([
        reader.readContract({ address: legacy, abi: TetherUsdt.abi, functionName: 'name' }),
        reader.readContract({ address: legacy, abi: TetherUsdt.abi, functionName: 'symbol' }),
        reader.readContract({ address: legacy, abi: TetherUsdt.abi, functionName: 'decimals' }),
      ]);
      const deployment = await wallet.deployContract({ abi: UpgradedUsdt.abi, bytecode: UpgradedUsdt.bytecode, args: [legacy, tokenName, symbol, decimals] });
      const { contractAddress, status } = await reader.waitForTransactionReceipt({ hash: deployment });
      if (status !== 'success' || !contractAddress) throw new Error(`the upgraded contract's deployment ${deployment} failed`);
      await mined(await wallet.writeContract({ address: legacy, abi: TetherUsdt.abi, functionName: 'deprecate', args: [contractAddress] }));
      // EIP-55, the form settings and records hold an address in (a receipt's is lower case).
      return { upgradedContract: getAddress(contractAddress) };
    },
  };
}

/**
 * The issuer of Tether's newer token (contracts/usdt/BlockedListUsdt.sol, settings' `blocked-list`):
 * its blocked list is the freeze; it has no pause, no fee and no deprecation, which are refused
 * before anything is sent.
 */
function blockedListIssuer(token: Address, wallet: ReturnType<typeof localWalletClient>, mined: (hash: Hex) => Promise<void>): SandboxIssuer {
  const send = async (functionName: 'addToBlockedList' | 'removeFromBlockedList', address: string): Promise<void> => {
    const target = evmAddress(address);
    await mined(await wallet.writeContract({ address: token, abi: BlockedListUsdt.abi, functionName, args: [target] }));
  };
  const lacks = (what: string) => async (): Promise<never> => {
    throw new TokenWithoutControls(`this USDT is Tether's newer token (tokenControls 'blocked-list'): its issuer blocks and unblocks addresses, and it has no ${what}`);
  };
  return {
    freeze: (address) => send('addToBlockedList', address),
    unfreeze: (address) => send('removeFromBlockedList', address),
    pause: lacks('pause'),
    unpause: lacks('pause'),
    setFee: lacks('transfer fee'),
    deprecate: lacks('deprecation: it is upgraded behind its proxy, at the same address'),
  };
}
