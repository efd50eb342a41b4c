import { base58 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { depositOwnerPath, depositSeedOf, deriveDepositOwner, deriveDepositOwners, deriveEd25519 } from '#functions/networks/solana/deposit-owners';
import { depositOwnersItem, OWNERS_PER_BLOCK } from '#functions/networks/solana/deposit-owner-record';

/**
 * The deposit owners' derivation (functions/networks/solana/deposit-owners.ts): SLIP-0010 for
 * Ed25519, checked against the standard's published test vector 1, and Solana's wallet path
 * m/44'/501'/i'/0' for the owner at index i, so an operator recovers any deposit address's key from
 * the seed with standard tools.
 */
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** SLIP-0010, "Test vector 1 for ed25519": seed, then per path its chain code, private key and
 * public key (SLIP-0010 writes an Ed25519 public key with a 00 byte before its 32). */
const SEED = '000102030405060708090a0b0c0d0e0f';
const VECTOR_1: [string, string, string, string][] = [
  ['m', '90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb', '2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7', '00a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed'],
  ["m/0'", '8b59aa11380b624e81507a27fedda59fea6d0b779a778918a2fd3590e16e9c69', '68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3', '008c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c'],
  ["m/0'/1'", 'a320425f77d1b5c2505a6b1b27382b37368ee640e3557c315416801243552f14', 'b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2', '001932a5270f335bed617d5b935c80aedb1a35bd9fc1e31acafd5372c30f5c1187'],
  ["m/0'/1'/2'", '2e69929e00b5ab250f49c3fb1c12f252de4fed2c1db88387094a0f8c4c9ccd6c', '92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9', '00ae98736566d30ed0e9d2f4486a64bc95740d89c7db33f52121f8ea8f76ff0fc1'],
  ["m/0'/1'/2'/2'", '8f6d87f93d750e0efccda017d662a1b31a266e4a6f5993b15f5c1f07f74dd5cc', '30d1dc7e5fc04c31219ab25a27ae00b50f6fd66622f6e9c913253d6511d1e662', '008abae2d66361c879b900d204ad2cc4984fa2aa344dd7ddc46007329ac76c429c'],
  [
    "m/0'/1'/2'/2'/1000000000'",
    '68789923a0cac2cd5a29172a475fe9e0fb14cd6adb5ad98a3fa70333e7afa230',
    '8f94d394a8e8fd6b1bc2f3f49f5c47e385281d5c17e65324b0f62483e37e8793',
    '003c24da049451555d51a7014a37337aa4e12d41e485abccfa46b47dfb2af54b7a',
  ],
];

describe('Solana deposit owners: SLIP-0010 derivation', () => {
  it.each(VECTOR_1)("gives SLIP-0010's published test vector 1 for ed25519 at %s", (path, chainCode, privateKey, publicKey) => {
    const key = deriveEd25519(Buffer.from(SEED, 'hex'), path);
    expect(hex(key.chainCode)).toBe(chainCode);
    expect(hex(key.secretKey)).toBe(privateKey);
    expect(`00${hex(key.publicKey)}`).toBe(publicKey);
  });

  it("derives the owner at index i at Solana's wallet path m/44'/501'/i'/0', its address the public key in base58", () => {
    const seed = depositSeedOf(SEED);
    for (const index of [0, 1, 99, 100, 12_345]) {
      expect(depositOwnerPath(index)).toBe(`m/44'/501'/${index}'/0'`);
      const key = deriveEd25519(seed, depositOwnerPath(index));
      expect(deriveDepositOwner(seed, index)).toEqual({ secretKey: key.secretKey, address: base58.encode(key.publicKey) });
    }
  });

  it('derives a block of owners as one by one, each different', () => {
    const seed = depositSeedOf(SEED);
    const block = deriveDepositOwners(seed, OWNERS_PER_BLOCK, OWNERS_PER_BLOCK);
    expect(block).toHaveLength(OWNERS_PER_BLOCK);
    expect(new Set(block).size).toBe(OWNERS_PER_BLOCK);
    expect(block[0]).toBe(deriveDepositOwner(seed, 100).address);
    expect(block[99]).toBe(deriveDepositOwner(seed, 199).address);
    expect(depositOwnersItem.blockOf(199)).toBe(1);
  });

  it('takes a seed of 16 to 64 bytes of hex and nothing else', () => {
    expect(depositSeedOf(` ${SEED}\n`)).toEqual(new Uint8Array(Buffer.from(SEED, 'hex')));
    expect(depositSeedOf('ab'.repeat(64))).toHaveLength(64);
    for (const bad of ['', 'ab'.repeat(15), 'ab'.repeat(65), 'zz'.repeat(32), 'abc']) expect(() => depositSeedOf(bad)).toThrow(/16 to 64 bytes of hex/);
  });
});
