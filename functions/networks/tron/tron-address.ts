import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { createBase58check } from '@scure/base';
import { HARDENED_OFFSET, HDKey } from '@scure/bip32';
import { BASE58_ADDRESS_PATTERN } from './address-pattern.ts';

/**
 * TRON deposit addresses and address checks for the API functions, without tronweb: tronweb does
 * not tree-shake and would put ~1.2 MB into every API bundle (../shared/tron-notes.md, Size).
 * tronweb stays a dev dependency that the tests use as the reference implementation.
 */

/**
 * Account xpub (m/44'/195'/0') of the public BIP39 test mnemonic "abandon" ×11 + "about", for the
 * local runtime and tests. Everyone knows its private keys: NEVER send real money to its addresses.
 */
export const TEST_MNEMONIC_ACCOUNT_XPUB =
  'xpub6D1AabNHCupeiLM65ZR9UStMhJ1vCpyV4XbZdyhMZBiJXALQtmn9p42VTQckoHVn8WNqS7dqnJokZHAHcHGoaQgmv8D45oNUKx6DZMNZBCd';

/** Mainnet addresses are 0x41 followed by the last 20 bytes of the public key's keccak-256. */
const ADDRESS_PREFIX = 0x41;
const ADDRESS_BYTES = 21;
/** m/44'/195'/0' is three levels below the master key. */
const ACCOUNT_DEPTH = 3;
const EXTERNAL_CHAIN = 0;

const base58check = createBase58check(sha256);

/** Parsing an xpub and deriving its chain-0 node is the slow part; the API derives one address
 * per deposit from the same configured xpub, so the node is kept for the life of the container. */
const externalChainByXpub = new Map<string, HDKey>();

function externalChain(accountXpub: string): HDKey {
  const cached = externalChainByXpub.get(accountXpub);
  if (cached) return cached;
  let account: HDKey;
  try {
    account = HDKey.fromExtendedKey(accountXpub);
  } catch (cause) {
    throw new Error('Deposit account key is not a valid xpub', { cause });
  }
  // An xprv parses too; the API must never hold a private key, so fail loudly instead.
  if (account.privateKey) throw new Error('Deposit account key must be an xpub, not a private extended key');
  // A root or chain-level xpub also derives valid-looking addresses, but not the ones the
  // operator's wallet (m/44'/195'/0'/0/i) watches: funds sent there would look lost.
  if (account.depth !== ACCOUNT_DEPTH) {
    throw new Error(`Deposit account key must be the m/44'/195'/0' account xpub (depth ${ACCOUNT_DEPTH}), got depth ${account.depth}`);
  }
  const chain = account.deriveChild(EXTERNAL_CHAIN);
  externalChainByXpub.set(accountXpub, chain);
  return chain;
}

/**
 * The TRON address at m/44'/195'/0'/0/index under an account xpub, base58 `T…`.
 * Indexes stop below 2^31 because higher ones are hardened and cannot be derived from an xpub.
 */
export function deriveDepositAddress(accountXpub: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= HARDENED_OFFSET) {
    throw new Error(`Deposit address index must be an integer from 0 to 2^31 - 1, got ${index}`);
  }
  const publicKey = externalChain(accountXpub).deriveChild(index).publicKey;
  if (!publicKey) throw new Error('Derived deposit key has no public key');
  return tronAddressFromPublicKey(publicKey);
}

/**
 * TRON hashes the 64-byte X‖Y of the uncompressed key. BIP32 yields the 33-byte compressed form,
 * and hashing that instead gives a well-formed address nobody holds the key for
 * (../shared/tron-notes.md, Addresses), hence the decompression.
 */
export function tronAddressFromPublicKey(publicKey: Uint8Array): string {
  // Accepts the 33-byte compressed or the 65-byte uncompressed form.
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  const hash = keccak_256(uncompressed.subarray(1));
  const address = new Uint8Array(ADDRESS_BYTES);
  address[0] = ADDRESS_PREFIX;
  address.set(hash.subarray(hash.length - (ADDRESS_BYTES - 1)), 1);
  return base58check.encode(address);
}

/** `0x` + 20 bytes (the EVM form in TronGrid event results and receipt logs) or `41` + 20 bytes. */
const HEX_ADDRESS_PATTERN = /^(?:0x|41)[0-9a-fA-F]{40}$/;

/**
 * Base58 `T…` for an address given in hex: `0x` + 20 bytes, as TronGrid's events and receipt logs
 * give it (the 0x41 prefix is implied), or the 21-byte `41…` form of java-tron's HTTP API.
 * Anything else throws instead of passing through (../shared/tron-notes.md, Addresses).
 */
export function tronAddressFromHex(hex: string): string {
  if (typeof hex !== 'string' || !HEX_ADDRESS_PATTERN.test(hex)) {
    throw new Error(`Not a hex TRON address (0x or 41 followed by 20 bytes): ${JSON.stringify(hex)}`);
  }
  const body = hex.slice(2);
  const address = new Uint8Array(ADDRESS_BYTES);
  address[0] = ADDRESS_PREFIX;
  for (let i = 0; i < ADDRESS_BYTES - 1; i++) address[i + 1] = Number.parseInt(body.slice(i * 2, i * 2 + 2), 16);
  return base58check.encode(address);
}

/** The 21-byte `41…` hex form of a base58 address (for ABI parameters and java-tron's hex APIs). */
export function tronAddressToHex(address: string): string {
  if (!isTronAddress(address)) throw new Error(`Not a TRON address: ${JSON.stringify(address)}`);
  return Buffer.from(base58check.decode(address)).toString('hex');
}

/**
 * True only for a base58 `T…` address with a valid checksum. The 42-char hex `41…` form that
 * tronweb's isAddress also accepts is refused: the API stores and compares base58 only
 * (../shared/tron-notes.md, Addresses).
 */
export function isTronAddress(value: unknown): value is string {
  if (typeof value !== 'string' || !BASE58_ADDRESS_PATTERN.test(value)) return false;
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(value);
  } catch {
    return false;
  }
  return bytes.length === ADDRESS_BYTES && bytes[0] === ADDRESS_PREFIX;
}
