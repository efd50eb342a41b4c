import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes } from '@noble/hashes/utils.js';
import type { AddressFormat } from '../network.ts';
import { SOLANA_ADDRESS_PATTERN } from './address-pattern.ts';

/**
 * A Solana address is 32 bytes written in base58 (no checksum: a typo is caught only when it no
 * longer decodes to 32 bytes, or, for a wallet, no longer names a point of Ed25519). Money is sent
 * to a wallet: its USDT lives in the wallet's associated token account, which the payout creates
 * when missing. An address off the curve is a program's account: a token account, or anything else
 * a program owns. The form cannot tell which, so such an address is taken only once the chain shows
 * it is USDT's associated token account of a known owner (./destinations.ts, readsChainToAccept):
 * USDT is then paid into it as it is. Any other is refused: USDT sent to the associated token
 * account of a token account (what a wallet-minded sender does with it) is lost.
 */
const isSolanaAddress = (value: unknown): value is string => typeof value === 'string' && SOLANA_ADDRESS_PATTERN.test(value) && bytesOf(value) !== null;

/** Whether a Solana address is a wallet: a point of Ed25519, whose key can sign. */
export const isSolanaWallet = (value: string): boolean => isOnCurve(bytesOf(value));

/** The 32 bytes base58 spells, or null. (Not @solana/kit's checks: its error messages alone would
 * double what every API function that checks an address bundles.) */
function bytesOf(value: string): Uint8Array | null {
  try {
    const bytes = base58.decode(value);
    return bytes.length === 32 ? bytes : null;
  } catch {
    return null;
  }
}

/** The Associated Token Account program, and the legacy Token program USDT lives in. */
const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const PDA_MARKER = new TextEncoder().encode('ProgramDerivedAddress');

/**
 * An owner's associated token account of a mint, as the runtime's find_program_address derives it:
 * sha256 of the seeds (owner, Token program, mint), a bump from 255 down, the program (the Associated
 * Token Account program) and "ProgramDerivedAddress", the first that is off the curve. Done here on
 * the hash and curve the address check carries anyway, rather than @solana/kit's, whose error
 * messages alone would add 35 KB to every API function that checks a destination (the jobs derive it
 * with @solana-program/token: ./token-accounts.ts; a test holds the two equal).
 */
export function associatedTokenAddress(owner: string, mint: string): string {
  const seeds = [base58.decode(owner), base58.decode(TOKEN_PROGRAM), base58.decode(mint)];
  const program = base58.decode(ASSOCIATED_TOKEN_PROGRAM);
  for (let bump = 255; bump >= 0; bump--) {
    const hash = sha256(concatBytes(...seeds, Uint8Array.of(bump), program, PDA_MARKER));
    if (!isOnCurve(hash)) return base58.encode(hash);
  }
  throw new Error(`No associated token account address for ${owner} and ${mint}`);
}

/** Whether 32 bytes decompress to a point of Ed25519, as the runtime's check of a program-derived
 * address does (curve25519-dalek, which reduces y modulo p: ZIP 215's reading). */
function isOnCurve(bytes: Uint8Array | null): boolean {
  if (!bytes) return false;
  try {
    ed25519.Point.fromBytes(bytes, true);
    return true;
  } catch {
    return false;
  }
}

export const solanaAddressFormat: AddressFormat = {
  get pattern() {
    return SOLANA_ADDRESS_PATTERN.source;
  },
  form: "base58 of 32 bytes: a wallet, or a wallet's USDT associated token account",
  example: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
  is: isSolanaAddress,
  // Base58 is case-sensitive and has one spelling of 32 bytes.
  canonical: (value) => (isSolanaAddress(value) ? value : null),
  // 32 bytes: no other registered network's account (TRON's and the EVM chains' are 20), so no
  // other network's form names it.
  account: (value) => (isSolanaAddress(value) ? Buffer.from(base58.decode(value)).toString('hex') : null),
  ofAccount: (account) => (/^[0-9a-f]{64}$/.test(account) ? base58.encode(Buffer.from(account, 'hex')) : null),
  isUnspendable: (canonical) => UNSPENDABLE.has(canonical),
  readsChainToAccept: (canonical) => !isSolanaWallet(canonical),
};

/**
 * Where no one can spend from: the System program's address (32 zero bytes, which is on the curve,
 * so a wallet by the check above), the incinerator that burns what it receives, and the programs
 * USDT moves through. Sent to their token accounts, USDT is lost.
 */
const UNSPENDABLE = new Set([
  '11111111111111111111111111111111',
  '1nc1nerator11111111111111111111111111111111',
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
  'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
  'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
]);
