import { checksumAddress, getCreate2Address, isAddress, keccak256, stringToBytes } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import { create2Address, isEvmAddress, toChecksumAddress } from '#functions/networks/evm/evm-address';
import { cloneCreationCode, depositSalt } from '#functions/networks/evm/forwarder-address';
import { evmAddressFromPublicKey } from '#functions/networks/evm/keys';
import { SANDBOX_CUSTOMER } from '#functions/networks/evm/sandbox-payer';
import { anvilAccount } from '#local/evm-contracts';

/** The API's own EIP-55 and CREATE2 (kept off viem for bundle size) give viem's answers. */
describe('EVM addresses without viem', () => {
  const samples = Array.from({ length: 50 }, (_, i) => keccak256(stringToBytes(`address ${i}`)).slice(0, 42));

  it('checksums as EIP-55 does, and accepts what viem strict accepts, and all upper case as well', () => {
    for (const sample of samples) {
      expect(toChecksumAddress(sample)).toBe(checksumAddress(sample as `0x${string}`));
      const checksummed = checksumAddress(sample as `0x${string}`);
      // One letter's case flipped breaks the checksum.
      const flipAt = checksummed.slice(2).search(/[a-fA-F]/) + 2;
      const broken = checksummed.slice(0, flipAt) + (checksummed[flipAt] === checksummed[flipAt]!.toUpperCase() ? checksummed[flipAt]!.toLowerCase() : checksummed[flipAt]!.toUpperCase()) + checksummed.slice(flipAt + 1);
      for (const candidate of [checksummed, sample.toLowerCase(), broken, `${sample}0`, sample.slice(0, 41)]) {
        expect(isEvmAddress(candidate), candidate).toBe(isAddress(candidate, { strict: true }) && /^0x[0-9a-fA-F]{40}$/.test(candidate));
      }
      // Letters all one case carry no checksum (EIP-55; ../shared/networks.md: checked when mixed);
      // viem's strict mode refuses all upper case, which we take.
      expect(isEvmAddress(`0x${sample.slice(2).toUpperCase()}`)).toBe(true);
      // The zero address is well formed: it is refused as a destination for what it is, unspendable
      // (functions/withdrawals/refused-destinations.ts), not as a typo.
      expect(isEvmAddress(`0x${'0'.repeat(40)}`)).toBe(true);
      expect(isEvmAddress(broken)).toBe(false);
    }
  });

  it('computes CREATE2 addresses and deposit salts as viem does', () => {
    const factory = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    const implementation = '0xa16E02E87b7454126E5E10d957A927A7F5B5d2be';
    for (const id of ['dep_01JBZ6W1V7Q8R9S0T1A2V3W4X5', 'dep_01JBZ6W1V7Q8R9S0T1A2V3W4X6']) {
      expect(depositSalt(id)).toBe(keccak256(stringToBytes(id)));
      expect(create2Address(factory, depositSalt(id), cloneCreationCode(implementation))).toBe(getCreate2Address({ from: factory, salt: depositSalt(id), bytecode: cloneCreationCode(implementation) }));
    }
  });

  it('gives a key’s address as viem’s accounts do', () => {
    const key = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
    const publicKey = secp256k1.getPublicKey(Buffer.from(key.slice(2), 'hex'), true);
    expect(evmAddressFromPublicKey(publicKey)).toBe(privateKeyToAccount(key).address);
  });

  it('names as the sandbox payer the account local/evm-contracts.ts funds', () => {
    expect(SANDBOX_CUSTOMER).toBe(anvilAccount.customer().address);
  });
});
