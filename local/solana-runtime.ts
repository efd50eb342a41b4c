import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import type { Address } from '@solana/kit';
import * as v from 'valibot';
import { solanaNetworkSettings, type SolanaNetworkSettings } from '#functions/networks/solana/settings';
import type { HotWalletFloat } from '#functions/ledger/floats';
import { startSolanaNode, type SolanaNode } from './solana-node.ts';

/**
 * Solana in the local runtime (`npm start`): the local node (./solana-node.ts, a slot every 400 ms,
 * its chain kept in .data/solana/chain.json), the stage's SOLANA setting that names it, and the
 * hot wallet's SOL and USDT on a new chain. Apart from ./runtime.ts so that `npm run sandbox:pay`
 * reads what the running runtime wrote without loading it.
 */

/** The local hot wallet's key, as the other local keys are made (config/stages.ts: sha256 of a
 * name): its 32-byte Ed25519 secret then its public key, as hex (SOLANA.localHotWalletKey). */
const HOT_WALLET_SECRET = createHash('sha256').update('cambio local solana hot wallet').digest();
export const LOCAL_SOLANA_HOT_WALLET_KEY = Buffer.concat([HOT_WALLET_SECRET, ed25519.getPublicKey(HOT_WALLET_SECRET)]).toString('hex');
/** Its address. */
export const LOCAL_SOLANA_HOT_WALLET = base58.encode(ed25519.getPublicKey(HOT_WALLET_SECRET)) as Address;
/** The local deposit seed (sha256 of a name; sandbox money only): the deposit addresses are the
 * same on every local chain. */
export const LOCAL_SOLANA_DEPOSIT_SEED = createHash('sha256').update('cambio local solana deposit seed').digest('hex');

/** A block is final 32 slots deep, as on mainnet: a local deposit completes some 13 s after its payment. */
const LOCAL_CONFIRMATIONS = 32;
/** What the hot wallet is given on a new chain: SOL for fees and the rent of payees' token
 * accounts, USDT (minor units) as the float withdrawals are paid from, as on the EVM nodes. */
const HOT_WALLET_LAMPORTS = 100n * 1_000_000_000n;
const HOT_WALLET_USDT = 1_000_000n * 1_000_000n;

export const solanaChainFileOf = (dataDir: string): string => join(dataDir, 'solana', 'chain.json');

export interface LocalSolana {
  node: SolanaNode;
  /** The stage's SOLANA for this node. */
  settings: SolanaNetworkSettings;
  hotWallet: Address;
  /** The float a new chain gave the hot wallet, for the ledger; null on a restored chain, whose float
   * was recorded at the start that made it. */
  float: HotWalletFloat | null;
  stop(): Promise<void>;
}

/**
 * Starts the local Solana node: on the data folder's chain when one is saved there, else on a new
 * one, whose hot wallet is then given its SOL and USDT. Without a data folder (tests) the chain is
 * new and kept nowhere.
 */
export async function startLocalSolana({ dataDir = null, slotIntervalMs }: { dataDir?: string | null; slotIntervalMs?: number | null } = {}): Promise<LocalSolana> {
  const node = await startSolanaNode({ stateFile: dataDir ? solanaChainFileOf(dataDir) : null, ...(slotIntervalMs !== undefined && { slotIntervalMs }) });
  try {
    let float: HotWalletFloat | null = null;
    if (!node.restored) {
      await node.airdrop(LOCAL_SOLANA_HOT_WALLET, HOT_WALLET_LAMPORTS);
      const txHash = await node.issuer.mintTo(LOCAL_SOLANA_HOT_WALLET, HOT_WALLET_USDT);
      float = { network: 'solana', txHash, amount: HOT_WALLET_USDT };
      node.save();
    }
    const settings = v.parse(solanaNetworkSettings, {
      rpcUrl: node.url,
      usdtMint: node.mint,
      confirmations: LOCAL_CONFIRMATIONS,
      localHotWalletKey: LOCAL_SOLANA_HOT_WALLET_KEY,
      localDepositSeed: LOCAL_SOLANA_DEPOSIT_SEED,
      sandbox: true,
    });
    return { node, settings, hotWallet: LOCAL_SOLANA_HOT_WALLET, float, stop: () => node.close() };
  } catch (error) {
    await node.close();
    throw error;
  }
}

/** The start banner's line for the node, in the spec's form (../shared/networks.md): its JSON-RPC
 * URL and USDT's mint. */
export const solanaNetworkLine = (settings: Pick<SolanaNetworkSettings, 'rpcUrl' | 'usdtMint'>): string => `  ${'solana'.padEnd(16)}${settings.rpcUrl}  USDT ${settings.usdtMint}`;
