import { getContractAddress, type Address, type Hex } from 'viem';
import { create2Address, keccakOfText } from './evm-address.ts';

/**
 * A deposit's EVM address, computed offline: the CREATE2 address at which
 * DepositForwarderFactory.sweep deploys that deposit's forwarder (contracts/). Nothing is
 * deployed when the address is handed out; the customer's USDT waits at an address without code
 * until a sweep deploys the forwarder there and empties it in the same transaction.
 */

/**
 * The salt of a deposit's forwarder: keccak256 of the deposit id's UTF-8 bytes. Derived from the
 * id alone, so the address can be recomputed from the stored deposit at any time (a sweep, a
 * reconcile) without storing a salt, and two deposits never share an address.
 */
export function depositSalt(depositId: string): Hex {
  return keccakOfText(depositId) as Hex;
}

/**
 * The factory's implementation: its constructor deploys it with the factory's first CREATE, and a
 * contract's nonce starts at 1 (EIP-161). So a network's settings need only the factory's address.
 */
export function forwarderImplementationAddress(factory: Address): Address {
  return getContractAddress({ opcode: 'CREATE', from: factory, nonce: 1n });
}

/**
 * EIP-1167's creation code for a clone of `implementation`, byte for byte what OpenZeppelin
 * Clones 5.x passes to CREATE2 in cloneDeterministic (node_modules/@openzeppelin/contracts/proxy/
 * Clones.sol): 10 bytes that return the runtime code, then the 45-byte runtime code, which
 * DELEGATECALLs the 20-byte address in its middle. viem has no helper for clones.
 */
export function cloneCreationCode(implementation: Address): Hex {
  return `0x3d602d80600a3d3981f3363d3d373d3d3d363d73${implementation.slice(2).toLowerCase()}5af43d82803e903d91602b57fd5bf3`;
}

/** What the factory's predictAddress(salt) returns, without asking a node. The implementation is
 * given, not computed from the factory, so that deposit creation does not bundle CREATE's RLP. */
export function depositForwarderAddress({ factory, implementation, salt }: { factory: Address; implementation: Address; salt: Hex }): Address {
  return create2Address(factory, salt, cloneCreationCode(implementation)) as Address;
}
