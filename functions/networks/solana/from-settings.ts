import type { NetworkChains } from '../network.ts';
import type { SliceSettings } from '#functions/settings/functions';
import { solanaRpcUrlOf } from './rpc-url.ts';
import { SolanaRpcChain } from './rpc-chain.ts';
import type { SolanaNetworkSettings } from './settings.ts';
import { isSolanaWallet } from './address.ts';

/**
 * Solana's chain on a stage, from its SOLANA setting: one JSON-RPC endpoint (a provider on deployed
 * stages, whose URL carries its key and so is read from Secrets Manager; the local runtime's node
 * locally), read and written through SolanaRpcChain. Built once at cold start.
 */

/** The stage's SOLANA, or an error: a job is only scheduled for a network the stage opens
 * (lib/cambio-stack.ts), so reaching this without it is a mistake. */
export function solanaSettingsOf(settings: Pick<SliceSettings<'chain'>, 'SOLANA'>): SolanaNetworkSettings {
  const network = settings.SOLANA;
  if (!network) throw new Error('SOLANA is not set: Solana is not open on this stage');
  return network;
}

/** Solana's chain as the jobs read and send on it (SolanaRpcChain). */
export function solanaChainOf(settings: Pick<SliceSettings<'chain'>, 'SOLANA'>): SolanaRpcChain {
  const network = solanaSettingsOf(settings);
  return new SolanaRpcChain({ rpcUrl: solanaRpcUrlOf(network), rpcTimeoutMs: network.rpcTimeoutMs });
}

/** The scan cursor's one name, whatever the mint: a stage that changes `usdtMint` resumes where the
 * scan stood. */
export const SOLANA_CURSOR_NAME = 'solana';

/**
 * Solana's chain for the port. Every transfer needs its sender's token account to hold the amount
 * (enforcesBalances); each owner's balance is a read of its associated token account (100 to a
 * request), so reconcile reads only the deposit addresses that may hold USDT.
 */
export const solanaChains: NetworkChains = {
  connect: (_db, _tableName, settings) => {
    const network = solanaSettingsOf(settings);
    return {
      chain: solanaChainOf(settings),
      settings: { usdtContract: network.usdtMint, cursorName: SOLANA_CURSOR_NAME, enforcesBalances: true, readsAllBalancesAtOnce: false },
    };
  },
  reconcileSources: (_db, _tableName, settings, hotWalletAddress) => {
    const chain = solanaChainOf(settings);
    const { usdtMint } = solanaSettingsOf(settings);
    return {
      network: 'solana',
      // An owner's USDT is its associated token account's, 6 decimals as USDT's minor units.
      usdtBalances: (owners) => chain.tokenBalances(usdtMint, owners),
      receipt: (txHash) => chain.receipt(txHash),
      hotWalletAddress,
      // SOL in lamports: it pays every fee and the rent of the token accounts payouts create.
      gasBalance: (owner) => chain.feeBalance(owner),
      // Every Solana deposit address Cambio made, not only those the ledger lists as possibly holding
      // USDT: a payment the deposits never recorded (one made after its address was swept, a record
      // the confirmer dropped) is reported unexplained (../shared/networks.md: reconcile reports USDT
      // at any Cambio address the ledger lacks), within one turn: reconcile reads them a page a run
      // (EVERY_ADDRESS_PAGE), 100 accounts a getMultipleAccounts call, as EVM's balanceOf reads are
      // batched. A deposit address is a wallet: TRON's and EVM's never decode to a point of Ed25519.
      readsEveryDepositAddressOf: isSolanaWallet,
      readsAllBalancesAtOnce: false,
    };
  },
};
