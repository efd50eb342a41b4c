import type { NetworkHotWallet } from '../network.ts';
import { solanaSignerFrom } from './signer.ts';

/** Solana's hot wallet: its own Ed25519 key (SOLANA_SIGNER_KMS_KEY_ID, or SOLANA's local key), not
 * the stage's secp256k1 one. */
export const solanaHotWallet: NetworkHotWallet = (settings) => {
  const signer = solanaSignerFrom(settings);
  return () => signer.address();
};
