import { secp256k1 } from '@noble/curves/secp256k1.js';
import { HDKey } from '@scure/bip32';
import { TronWeb, utils as tronUtils } from 'tronweb';
import { describe, expect, it } from 'vitest';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress, isTronAddress } from '#functions/networks/tron/tron-address';

// tronweb is the reference implementation here only; the API code must not import it (tron-notes, Size).
const TEST_MNEMONIC = `${'abandon '.repeat(11)}about`;
// ../shared/tron-notes.md, Addresses: the same addresses tronweb's fromMnemonic gives at m/44'/195'/0'/0/i.
const VECTOR = ['TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH', 'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK', 'TYJPRrdB5APNeRs4R7fYZSwW3TcrTKw2gx'];
const MAINNET_USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

function childPublicKey(index: number): Uint8Array {
  return HDKey.fromExtendedKey(TEST_MNEMONIC_ACCOUNT_XPUB).derive(`m/0/${index}`).publicKey!;
}

function tronwebAddressFromKeyBytes(publicKey: Uint8Array): string {
  return tronUtils.crypto.getBase58CheckAddress(tronUtils.crypto.computeAddress(publicKey));
}

describe('deriveDepositAddress', () => {
  it('gives the documented test-vector addresses for indexes 0, 1 and 2', () => {
    const addresses = [0, 1, 2].map((index) => deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, index));

    expect(addresses).toEqual(VECTOR);
  });

  it("matches tronweb's fromMnemonic at m/44'/195'/0'/0/i for indexes 0..20, and both validators accept each address", () => {
    for (let index = 0; index <= 20; index++) {
      const expected = TronWeb.fromMnemonic(TEST_MNEMONIC, `m/44'/195'/0'/0/${index}`).address;

      const address = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, index);

      expect(address, `index ${index}`).toBe(expected);
      expect(isTronAddress(address), `index ${index}`).toBe(true);
      expect(TronWeb.isAddress(address), `index ${index}`).toBe(true);
    }
  });

  it('hashes the decompressed key: hashing the 33-byte compressed key would give a different, wrong address', () => {
    const compressed = childPublicKey(0);
    const uncompressed = secp256k1.Point.fromBytes(compressed).toBytes(false);

    const address = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 0);
    const fromCompressed = tronwebAddressFromKeyBytes(compressed);

    expect(compressed).toHaveLength(33);
    expect(address).toBe(VECTOR[0]);
    expect(address).toBe(tronwebAddressFromKeyBytes(uncompressed));
    expect(fromCompressed).not.toBe(address);
    // The trap is silent: the wrong address is well-formed, so no validator would catch it.
    expect(isTronAddress(fromCompressed)).toBe(true);
  });

  it('never gives two indexes the same address (0..200)', () => {
    const addresses = Array.from({ length: 201 }, (_, index) => deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, index));

    expect(new Set(addresses).size).toBe(201);
  });

  it('gives the same address for the same index on repeated calls', () => {
    const first = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 7);

    expect(deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 7)).toBe(first);
  });

  it.each([
    ['negative', -1],
    ['fractional', 1.5],
    ['hardened (2^31)', 2 ** 31],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('rejects a %s index', (_, index) => {
    expect(() => deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, index)).toThrow(/index must be an integer/);
  });

  it('accepts the largest non-hardened index, 2^31 - 1', () => {
    expect(isTronAddress(deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 2 ** 31 - 1))).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['garbage', 'not-an-xpub'],
    ['one character changed', TEST_MNEMONIC_ACCOUNT_XPUB.replace(/.$/, 'e')],
    ['a TRON address', VECTOR[0]!],
  ])('rejects an account key that is not an xpub (%s)', (_, xpub) => {
    expect(() => deriveDepositAddress(xpub, 0)).toThrow(/not a valid xpub/);
  });

  it('rejects a private extended key, so the API never holds one', () => {
    const xprv = HDKey.fromMasterSeed(new Uint8Array(32).fill(1)).derive("m/44'/195'/0'").privateExtendedKey;

    expect(() => deriveDepositAddress(xprv, 0)).toThrow(/not a private extended key/);
  });

  it('rejects an xpub at the wrong depth, whose addresses the wallet would not watch', () => {
    const root = HDKey.fromMasterSeed(new Uint8Array(32).fill(1));

    expect(() => deriveDepositAddress(root.publicExtendedKey, 0)).toThrow(/depth 3/);
    expect(() => deriveDepositAddress(root.derive("m/44'/195'/0'/0").publicExtendedKey, 0)).toThrow(/depth 3/);
  });
});

describe('isTronAddress', () => {
  it('accepts the mainnet USDT contract and the test-vector addresses', () => {
    for (const address of [MAINNET_USDT, ...VECTOR]) expect(isTronAddress(address), address).toBe(true);
  });

  it("rejects the 42-char hex form of a valid address, which tronweb's isAddress accepts", () => {
    const hex = TronWeb.address.toHex(MAINNET_USDT);

    expect(hex).toMatch(/^41[0-9a-f]{40}$/);
    expect(TronWeb.isAddress(hex)).toBe(true);
    expect(isTronAddress(hex)).toBe(false);
  });

  it.each([
    ['one character changed (checksum fails)', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u'],
    ['one character lowercased', MAINNET_USDT.replace('NH', 'nH')],
    ['truncated', MAINNET_USDT.slice(0, -1)],
    ['extended', `${MAINNET_USDT}1`],
    ['surrounded by spaces', ` ${MAINNET_USDT} `],
    ['an Ethereum address', '0xdAC17F958D2ee523a2206206994597C13D831ec7'],
    ['a Bitcoin address', '1BoatSLRHtKNngkdXEeobR76b53LETtpyT'],
    ['empty', ''],
    ['null', null],
    ['undefined', undefined],
    ['a number', 123],
    ['an object', { address: MAINNET_USDT }],
  ])('rejects %s', (_, value) => {
    expect(isTronAddress(value)).toBe(false);
  });

  it('rejects a well-formed 34-char T… base58check string whose payload does not start with 0x41', () => {
    const otherVersion = tronUtils.crypto.getBase58CheckAddress([0x42, ...new Array<number>(20).fill(0)]);

    // Same shape and a valid checksum: only the version-byte check stops it.
    expect(otherVersion).toMatch(/^T.{33}$/);
    expect(isTronAddress(otherVersion)).toBe(false);
  });
});
