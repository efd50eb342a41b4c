import type { NetworkHotWallet } from '../network.ts';
import { signerFrom } from '#adapters/signer/from-settings';

/** TRON's hot wallet: the stage's secp256k1 key, in TRON's form. */
export const tronHotWallet: NetworkHotWallet = (settings) => {
  const signer = signerFrom(settings, 'tron');
  return () => signer.address();
};
