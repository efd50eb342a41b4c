import type { NetworkKeys } from './network.ts';
import { soleNetworkName, type NetworkName } from './names.ts';
import { tronKeys } from './tron/network.ts';

/** Each registered network's keys: deposit address derivation and the signers' addresses. Apart
 * from registry.ts so that routes which only check addresses do not bundle HD-key and curve code. */
const KEYS: { readonly [N in NetworkName]: NetworkKeys } = { tron: tronKeys };

export const keysOf = (name: NetworkName): NetworkKeys => KEYS[name];

/** The sole network's (names.ts soleNetworkName): the signers' default address form. */
export const soleNetworkAddressOf = (publicKey: Uint8Array): string => keysOf(soleNetworkName()).addressFromPublicKey(publicKey);
