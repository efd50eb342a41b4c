import type { TransactionSigner } from '#domain/signer';
import { requireEnv } from '../env.ts';
import { KmsSigner } from './kms-signer.ts';
import { LocalKeySigner } from './local-key-signer.ts';
import { SecretsManagerSigner } from './secrets-manager-signer.ts';

/** The hot wallet signer a stage uses (lib/stages.ts SIGNER): only the withdrawal sender calls this. */
export function signerFromEnv(): TransactionSigner {
  const kind = requireEnv('SIGNER');
  if (kind === 'kms') return new KmsSigner(requireEnv('SIGNER_KMS_KEY_ID'));
  if (kind === 'secrets-manager') return new SecretsManagerSigner(requireEnv('SIGNER_SECRET_ID'));
  if (kind === 'local') return new LocalKeySigner(requireEnv('LOCAL_HOT_WALLET_KEY'));
  throw new Error(`SIGNER must be kms, secrets-manager or local, not "${kind}"`);
}
