import type { NetworkName } from '#functions/networks/names';
import { keysOf } from '#functions/networks/key-registry';
import type { TransactionSigner } from '#functions/networks/signer';
import { needed } from '#functions/settings/schema';
import type { SliceSettings } from '#functions/settings/functions';
import { KmsSigner } from './kms-signer.ts';
import { LocalKeySigner } from './local-key-signer.ts';
import { SecretsManagerSigner } from './secrets-manager-signer.ts';

/** The hot wallet a stage uses on `network` (config/stages.ts SIGNER): the signing jobs sign with it,
 * the reconcile job reads its address. */
export function signerFrom(settings: SliceSettings<'hotWallet'>, network: NetworkName): TransactionSigner {
  const addressOf = keysOf(network).addressFromPublicKey;
  if (settings.SIGNER === 'kms') return new KmsSigner(needed(settings.SIGNER_KMS_KEY_ID, 'SIGNER_KMS_KEY_ID', 'SIGNER=kms'), undefined, addressOf);
  if (settings.SIGNER === 'secrets-manager') return new SecretsManagerSigner(needed(settings.SIGNER_SECRET_ID, 'SIGNER_SECRET_ID', 'SIGNER=secrets-manager'), undefined, addressOf);
  return new LocalKeySigner(needed(settings.LOCAL_HOT_WALLET_KEY, 'LOCAL_HOT_WALLET_KEY', 'SIGNER=local'), addressOf);
}
