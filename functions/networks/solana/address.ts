import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import type { AddressFormat } from '../network.ts';
import { SOLANA_ADDRESS_PATTERN } from './address-pattern.ts';

/**
 * A Solana address is 32 bytes written in base58 (no checksum: a typo is caught only when it no
 * longer decodes to 32 bytes, or, for a wallet, no longer names a point of Ed25519). Money is sent
 * to a wallet: its USDT lives in the wallet's associated token account, which the payout creates
 * when missing. A token account or any other program-derived address is off the curve, and is no
 * destination here: USDT sent to the associated token account of a token account is lost, which is
 * the mistake a person pasting the token account's address makes.
 */
const isSolanaWallet = (value: unknown): value is string => typeof value === 'string' && SOLANA_ADDRESS_PATTERN.test(value) && isOnCurve(bytesOf(value));

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
  form: 'a wallet: base58 of 32 bytes on the Ed25519 curve',
  example: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
  is: isSolanaWallet,
  // Base58 is case-sensitive and has one spelling of 32 bytes.
  canonical: (value) => (isSolanaWallet(value) ? value : null),
  // 32 bytes: no other registered network's account (TRON's and the EVM chains' are 20), so no
  // other network's form names it.
  account: (value) => (isSolanaWallet(value) ? Buffer.from(base58.decode(value)).toString('hex') : null),
  ofAccount: (account) => (/^[0-9a-f]{64}$/.test(account) ? base58.encode(Buffer.from(account, 'hex')) : null),
  isUnspendable: (canonical) => UNSPENDABLE.has(canonical),
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
