import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { ed25519 } from '@noble/curves/ed25519.js';
import { getBase64Encoder, getTransactionDecoder, type Address } from '@solana/kit';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { payoutConditions, signedPayout } from '#functions/networks/solana/payouts';
import { asTransactionSigner, KmsSolanaSigner, localSolanaSigner, solanaSignerFrom } from '#functions/networks/solana/signer';
import { fundSolana, nodeChainOf, SOLANA_TEST_HOT_WALLET, SOLANA_TEST_HOT_WALLET_KEY, useSolanaNode } from '../support/solana.ts';
import { LAMPORTS_PER_SOL, mockEd25519Kms, newSolanaKeypair, newSolanaWallet } from '../support/solana-payouts.ts';

/**
 * The Solana hot wallet's signer: the local stage's keypair (SOLANA.localHotWalletKey) and, in AWS,
 * a KMS key of spec ECC_NIST_EDWARDS25519 (SOLANA_SIGNER_KMS_KEY_ID). KMS has no local engine, so it
 * is mocked (test/support/solana-payouts.ts mockEd25519Kms) by a real Ed25519 key giving real
 * signatures, and only to the call KMS takes for such a key (ED25519_SHA_512 over a RAW message):
 * the payouts it signs are checked on the local node, which verifies every signature.
 */
const solana = useSolanaNode();
const KEY_ID = 'alias/cambio-sandbox-hot-wallet-solana';

let kms: ReturnType<typeof mockClient> | undefined;
afterEach(() => kms?.restore());

/** A USDT payout of 1 from `signer`'s wallet to a new one, built and signed on the node's conditions. */
async function payoutFrom(signer: ReturnType<typeof localSolanaSigner>) {
  const chain = nodeChainOf(solana.node);
  const to = newSolanaWallet();
  const conditions = await payoutConditions(chain, solana.node.mint, [to], { hotWallet: await signer.address(), priorityFeeCap: 1_000_000n });
  return { chain, to, payout: await signedPayout(await asTransactionSigner(signer), solana.node.mint, { withdrawalId: 'withdrawal_signer_test', to, amount: 1_000_000n }, conditions) };
}

describe('the Solana hot wallet signer', () => {
  it("signs locally with SOLANA's localHotWalletKey (the Solana CLI's 64-byte keypair), whose address is its public half", async () => {
    const signer = solanaSignerFrom({ SOLANA: solana.settings() });
    expect(await signer.address()).toBe(SOLANA_TEST_HOT_WALLET);
    const message = new TextEncoder().encode('a message');
    const signature = await signer.signMessage(message);
    expect(ed25519.verify(signature, message, Buffer.from(SOLANA_TEST_HOT_WALLET_KEY.slice(64), 'hex'))).toBe(true);
    // A keypair whose public half is another key's is refused, not signed with.
    const other = newSolanaKeypair();
    const mismatched = SOLANA_TEST_HOT_WALLET_KEY.slice(0, 64) + other.keypairHex.slice(64);
    await expect(localSolanaSigner(mismatched).address()).rejects.toThrow();
    expect(() => solanaSignerFrom({ SOLANA: solana.settings({ localHotWalletKey: undefined }) })).toThrow(/SOLANA/);
  });

  it('signs with the KMS key when the stack names one: its address from GetPublicKey, each message signed RAW with ED25519_SHA_512, byte for byte what the key signs', async () => {
    const keypair = newSolanaKeypair();
    kms = mockEd25519Kms({ [KEY_ID]: keypair.secret });
    const signer = solanaSignerFrom({ SOLANA: solana.settings(), SOLANA_SIGNER_KMS_KEY_ID: KEY_ID });
    expect(signer).toBeInstanceOf(KmsSolanaSigner);
    expect(await signer.address()).toBe(keypair.address);
    await signer.address();
    expect(kms.commandCalls(GetPublicKeyCommand)).toHaveLength(1);

    const message = new TextEncoder().encode('a transaction message');
    // Ed25519 is deterministic: KMS's signature is the local key's.
    expect(Buffer.from(await signer.signMessage(message))).toEqual(Buffer.from(await localSolanaSigner(keypair.keypairHex).signMessage(message)));
    expect(kms.commandCalls(SignCommand).at(-1)!.args[0].input).toEqual({ KeyId: KEY_ID, Message: message, MessageType: 'RAW', SigningAlgorithm: 'ED25519_SHA_512' });
  });

  it('a payout signed by KMS lands on the node: the hot wallet pays its fee and sends the USDT', async () => {
    const keypair = newSolanaKeypair();
    await fundSolana(solana.node, keypair.address, { lamports: LAMPORTS_PER_SOL, usdt: 5_000_000n });
    kms = mockEd25519Kms({ [KEY_ID]: keypair.secret });
    const { chain, to, payout } = await payoutFrom(new KmsSolanaSigner(KEY_ID));
    const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(payout.wire));
    expect(Object.keys(transaction.signatures)).toEqual([keypair.address]);
    expect(await chain.broadcast({ wire: payout.wire })).toBe('accepted');
    expect(await chain.tokenBalance(solana.node.mint, to)).toBe(1_000_000n);
    expect(await chain.tokenBalance(solana.node.mint, keypair.address)).toBe(4_000_000n);
    expect((await chain.receipt(payout.signature))?.result).toBe('SUCCESS');
  });

  it('refuses a KMS key of another spec, and a signature that does not verify against the wallet: nothing is signed for the wrong key', async () => {
    kms = mockClient(KMSClient);
    kms.on(GetPublicKeyCommand).resolves({ KeySpec: 'ECC_SECG_P256K1', PublicKey: new Uint8Array(88) });
    await expect(new KmsSolanaSigner(KEY_ID).address()).rejects.toThrow(/not an ECC_NIST_EDWARDS25519 key/);
    kms.restore();

    // The key id names one wallet's key while KMS signs with another's.
    const named = newSolanaKeypair();
    const signing = newSolanaKeypair();
    const wrong = { address: async () => named.address as string, signMessage: (message: Uint8Array) => localSolanaSigner(signing.keypairHex).signMessage(message) };
    await expect(payoutFrom(wrong)).rejects.toThrow(`does not verify against its address ${named.address as Address}`);
  });
});
