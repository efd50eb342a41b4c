import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { mockClient } from 'aws-sdk-client-mock';

const N = secp256k1.Point.CURVE().n;
/** DER SubjectPublicKeyInfo header for an uncompressed secp256k1 key, as KMS GetPublicKey returns it. */
const SPKI_PREFIX = Buffer.from('3056301006072a8648ce3d020106052b8104000a034200', 'hex');

/**
 * KMS, where no local engine exists: ECC_SECG_P256K1 keys by key id, each answering GetPublicKey
 * with a DER SubjectPublicKeyInfo and Sign (a DIGEST, ECDSA_SHA_256) with a real DER signature of
 * that key, without a recovery id. With `highS`, every signature carries the high S, as about half
 * of KMS's do (it does not normalise). Mocks every KMSClient until `restore()`.
 */
export function mockKms(keys: Record<string, Uint8Array>, { highS }: { highS: boolean }) {
  const kms = mockClient(KMSClient);
  for (const [keyId, privateKey] of Object.entries(keys)) {
    kms.on(GetPublicKeyCommand, { KeyId: keyId }).resolves({
      KeyId: keyId,
      KeySpec: 'ECC_SECG_P256K1',
      PublicKey: Buffer.concat([SPKI_PREFIX, secp256k1.getPublicKey(privateKey, false)]),
    });
    kms.on(SignCommand, { KeyId: keyId }).callsFake(({ Message }: { Message: Uint8Array }) => {
      const low = secp256k1.Signature.fromBytes(secp256k1.sign(Message, privateKey, { prehash: false, lowS: true, format: 'compact' }), 'compact');
      const signature = highS ? new secp256k1.Signature(low.r, N - low.s) : low;
      return { KeyId: keyId, Signature: signature.toBytes('der'), SigningAlgorithm: 'ECDSA_SHA_256' };
    });
  }
  return kms;
}
