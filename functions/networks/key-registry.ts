import type { NetworkKeys } from './network.ts';
import { DEFAULT_NETWORK, type NetworkName } from './names.ts';
import { tronKeys } from './tron/network.ts';
import { evmKeys } from './evm/keys.ts';
import { solanaKeys } from './solana/keys.ts';

/** Each registered network's keys: deposit terms and the signers' addresses. Apart from
 * registry.ts so that routes which only check addresses do not bundle HD-key and curve code. */
const KEYS: { readonly [N in NetworkName]: NetworkKeys } = {
  tron: tronKeys,
  ethereum: evmKeys('ethereum'),
  bsc: evmKeys('bsc'),
  polygon: evmKeys('polygon'),
  arbitrum: evmKeys('arbitrum'),
  solana: solanaKeys,
};

export const keysOf = (name: NetworkName): NetworkKeys => KEYS[name];

/** The hot wallet's address form (names.ts DEFAULT_NETWORK), for the signers. */
export const hotWalletAddressOf = (publicKey: Uint8Array): string => keysOf(DEFAULT_NETWORK).addressFromPublicKey(publicKey);
