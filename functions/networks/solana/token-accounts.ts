import { address, type Address } from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';

/** USDT's decimals on Solana, as `transferChecked` asserts them against the mint. */
export const USDT_DECIMALS = 6;

/**
 * An owner's associated token account of a mint (the legacy Token program: USDT's), derived here,
 * never taken from a node's answer: where wallets send an owner's USDT, where a payout pays into and
 * a sweep takes from.
 */
export async function associatedTokenAccount(owner: string, mint: string): Promise<Address> {
  const [account] = await findAssociatedTokenPda({ owner: address(owner), mint: address(mint), tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return account;
}
