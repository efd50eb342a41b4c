import { address, createSolanaRpc, type Instruction } from '@solana/kit';
import { getFreezeAccountInstruction, getThawAccountInstruction } from '@solana-program/token';
import type { SandboxIssuer } from '#functions/networks/sandbox-issuer';
import type { SolanaNetworkSettings } from '#functions/networks/solana/settings';
import { associatedTokenAccount } from '#functions/networks/solana/token-accounts';
import { signedTransaction, transactionMessage } from '#functions/networks/solana/transaction-message';
import { localSolanaWallet } from './solana-node.ts';

/** SPL Token has none of Tether's other controls on Solana: USDT there can only be frozen and thawed. */
export class SolanaControlMissing extends Error {
  constructor(control: string) {
    super(`Solana's USDT (an SPL Token mint) has no ${control}: its issuer can only freeze and thaw token accounts`);
    this.name = 'SolanaControlMissing';
  }
}

/**
 * The issuer's controls on the running runtime's Solana node, from another process (`npm run
 * sandbox:issuer -- freeze --network solana --address <wallet>`): transactions signed by the local
 * issuer, the mint's freeze authority (its key derived from its role's name, as the node derives
 * it), sent over the node's JSON-RPC. An address is a wallet: its USDT token account is frozen.
 */
export function solanaSandboxIssuer(network: Pick<SolanaNetworkSettings, 'rpcUrl' | 'usdtMint'>): SandboxIssuer {
  const rpc = createSolanaRpc(network.rpcUrl!);
  const mint = address(network.usdtMint);
  const asIssuer = async (instruction: (issuer: Awaited<ReturnType<typeof localSolanaWallet>>['signer'], account: Awaited<ReturnType<typeof associatedTokenAccount>>) => Instruction, owner: string) => {
    const issuer = await localSolanaWallet('issuer');
    const account = await associatedTokenAccount(owner, network.usdtMint);
    const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    const { wire } = await signedTransaction(transactionMessage(issuer.signer, lifetime, [instruction(issuer.signer, account)]));
    await rpc.sendTransaction(wire as never, { encoding: 'base64', preflightCommitment: 'confirmed' }).send();
  };
  return {
    freeze: (owner) => asIssuer((issuer, account) => getFreezeAccountInstruction({ account, mint, owner: issuer }), owner),
    unfreeze: (owner) => asIssuer((issuer, account) => getThawAccountInstruction({ account, mint, owner: issuer }), owner),
    pause: async () => {
      throw new SolanaControlMissing('pause');
    },
    unpause: async () => {
      throw new SolanaControlMissing('pause');
    },
    setFee: async () => {
      throw new SolanaControlMissing('transfer fee');
    },
    deprecate: async () => {
      throw new SolanaControlMissing('deprecation');
    },
  };
}
