import type { Chain } from '../network.ts';

/**
 * What Solana's jobs read and send beyond the port's Chain (../network.ts), implemented over standard
 * JSON-RPC by ./rpc-chain.ts (the same code against a provider and the local node). Addresses are
 * base58; a wallet's USDT is its associated token account's (the port's `tokenBalance(mint, owner)`
 * and `frozenAmong(mint, owners)` take owners and read their associated token accounts). A Solana
 * "block" in the port is a slot; a transaction's id (txHash) is its first signature, in base58.
 * A signed transaction as the port's Broadcaster takes it: `{ wire: <base64 wire transaction> }`.
 */
export interface SolanaChain extends Chain {
  /** A blockhash to build a transaction on, at `confirmed`, and the last block height at which a
   * transaction built on it can still land. */
  latestBlockhash(): Promise<{ blockhash: string; lastValidBlockHeight: bigint }>;
  /** The block height at a commitment: a transaction whose lastValidBlockHeight is below the
   * `finalized` height and which no node knows can never land. */
  blockHeight(commitment: 'confirmed' | 'finalized'): Promise<bigint>;
  /** Each signature's status (at most 256 a call; more are asked in pages), searching the whole
   * history: null where no node knows it. */
  signatureStatuses(signatures: string[]): Promise<(SignatureStatus | null)[]>;
  /** Each owner's associated token account of `mint`: its address and, where it exists, its
   * balance (token base units), whether it is frozen, and its lamports (its rent). */
  tokenAccounts(mint: string, owners: string[]): Promise<Map<string, TokenAccountState>>;
  /** The owner now of each of `accounts` that is a token account (of the Token program), by
   * account: the wallet whose USDT it holds, which the legacy Token program lets its owner hand to
   * another. One not a token account (closed, never made) is absent. */
  tokenAccountOwners(accounts: string[]): Promise<Map<string, string>>;
  /** The lamports an account of `size` bytes needs to be exempt from rent (a token account: 165). */
  rentExemptMinimum(size: number): Promise<bigint>;
  /** The recent priority fee, micro-lamports per compute unit, of transactions writing `accounts`
   * (the median of getRecentPrioritizationFees' non-zero answers); 0n where the node gives none. */
  recentPriorityFee(accounts: string[]): Promise<bigint>;
}

export interface SignatureStatus {
  slot: number;
  /** The transaction's error as the RPC gives it (JSON), or null when it succeeded. */
  err: unknown;
  confirmationStatus: 'processed' | 'confirmed' | 'finalized' | null;
}

export interface TokenAccountState {
  /** The owner's associated token account of the mint. */
  address: string;
  exists: boolean;
  /** Token base units; 0n where it does not exist. */
  amount: bigint;
  frozen: boolean;
  lamports: bigint;
  /** Who may move its USDT besides its owner (Approve), and how much: the hot wallet, on a deposit
   * account Cambio opened (./deposit-accounts.ts); else null and 0n. */
  delegate: string | null;
  delegatedAmount: bigint;
  /** Who may close it besides its owner (SetAuthority CloseAccount): the hot wallet, on a deposit
   * account Cambio opened; else null. */
  closeAuthority: string | null;
}

/** Solana's transaction size limit, bytes: what a sweep's batch must fit in. */
export const SOLANA_TRANSACTION_BYTES = 1232;
/** A token account's size, bytes (its rent-exempt minimum is asked for this many). */
export const TOKEN_ACCOUNT_BYTES = 165;
