import type { EvmNetworkName } from '#functions/networks/names';
import { toBigInt } from '../../adapters/dynamo/client.ts';
import type { Item } from '../../adapters/dynamo/items/item.ts';

/**
 * The one owner of an EVM hot wallet's nonce records (functions/networks/evm/withdrawal-sending.ts),
 * in one partition per (network, wallet): `EvmNonceSequence`, the next nonce to allocate, and an
 * `EvmNonceClaim` per nonce allocated, naming the withdrawal or the deposit sweep
 * (functions/networks/evm/sweeps.ts) whose transaction holds it. Both are written in the
 * transaction that stores the signed transaction.
 */
const partition = (network: EvmNetworkName, wallet: string) => `EVM_NONCE#${network}#${wallet.toLowerCase()}`;

export const evmNonceSequenceItem = {
  type: 'EvmNonceSequence',
  key: (network: EvmNetworkName, wallet: string) => ({ PK: partition(network, wallet), SK: 'NEXT' }),
  toItem: (network: EvmNetworkName, wallet: string, next: number, updatedAt: string): Item => ({
    ...evmNonceSequenceItem.key(network, wallet),
    type: evmNonceSequenceItem.type,
    network,
    wallet,
    next,
    updatedAt,
  }),
  next: (item: Item): number => Number(toBigInt(item.next)),
};

/** Whose signed transaction holds a nonce. */
export type EvmNonceHolder = { withdrawalId: string } | { sweepId: string };

export const evmNonceClaimItem = {
  type: 'EvmNonceClaim',
  /** Zero-padded: the claims of a wallet list in nonce order. */
  key: (network: EvmNetworkName, wallet: string, nonce: number) => ({ PK: partition(network, wallet), SK: `NONCE#${String(nonce).padStart(16, '0')}` }),
  toItem: (network: EvmNetworkName, wallet: string, nonce: number, holder: EvmNonceHolder, claimedAt: string): Item => ({
    ...evmNonceClaimItem.key(network, wallet, nonce),
    type: evmNonceClaimItem.type,
    network,
    wallet,
    nonce,
    ...holder,
    claimedAt,
  }),
};
