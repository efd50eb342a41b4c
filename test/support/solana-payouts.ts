import { randomBytes } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import { mockClient } from 'aws-sdk-client-mock';
import { createSolanaRpc, signature as toSignature, type Address } from '@solana/kit';
import type { Broadcaster } from '#functions/networks/chain';
import type { NetworkName } from '#functions/networks/names';
import type { Log } from '#functions/shared/log';
import type { SolanaRpcChain } from '#functions/networks/solana/rpc-chain';
import { functionSettings, type FunctionSettings } from '#functions/settings/functions';
import { STAGES } from '../../config/stages.ts';
import { localSolanaSigner, type SolanaSigner } from '#functions/networks/solana/signer';
import type { SolanaSendingDeps } from '#functions/networks/solana/withdrawal-sending';
import { tokenStanding, usdtMayMove } from '#functions/networks/token-standing';
import { DynamoTransactionClaims } from '#adapters/dynamo/transaction-claims';
import { DynamoWithdrawalSendingStore } from '#adapters/dynamo/withdrawal-sending-store';
import type { TestTable } from './dynamo.ts';
import { fundSolana, nodeChainOf, solanaNodeSettings, type SolanaNode } from './solana.ts';

/**
 * Solana payouts as the tests drive them (test/integration/solana-payouts.test.ts): a hot wallet of
 * a test's own (so its USDT is the test's float alone), the sender wired as the job wires it over
 * the real chain adapter, broadcasts that are lost or that skip the node's preflight, a backend that
 * trails the node for statuses and transactions, and KMS with an Ed25519 key.
 */

const NETWORK: NetworkName = 'solana';
export const LAMPORTS_PER_SOL = 1_000_000_000n;

/** A new Ed25519 keypair in SOLANA.localHotWalletKey's form (64 bytes: secret ‖ public, as hex). */
export function newSolanaKeypair(): { keypairHex: string; secret: Uint8Array; address: Address } {
  const secret = new Uint8Array(randomBytes(32));
  const publicKey = ed25519.getPublicKey(secret);
  return { keypairHex: Buffer.concat([secret, publicKey]).toString('hex'), secret, address: base58.encode(publicKey) as Address };
}

/** A wallet address of no one the test knows: a payee. */
export const newSolanaWallet = (): Address => newSolanaKeypair().address;

/** A hot wallet of the test's own with SOL for fees and rent and `usdt` minor units of USDT. */
export async function newHotWallet(node: SolanaNode, { usdt, lamports = 10n * LAMPORTS_PER_SOL }: { usdt: bigint; lamports?: bigint }) {
  const keypair = newSolanaKeypair();
  await fundSolana(node, keypair.address, { lamports, usdt });
  return { ...keypair, signer: localSolanaSigner(keypair.keypairHex) };
}

/** The tests' stderr stays quiet; a test that reads the log gives its own. */
export const quiet: Log = { warn: () => {}, error: () => {} };

/** The withdrawal sender's settings on the local stage with SOLANA naming the test's node (the
 * tests' hot wallet key signs: no SOLANA_SIGNER_KMS_KEY_ID), parsed as the function parses them. */
export function senderFunctionSettings(node: SolanaNode): FunctionSettings<'jobs/withdrawal-sender'> {
  return functionSettings('jobs/withdrawal-sender', { ...STAGES.local.functionEnvironment, STAGE: 'local', TABLE_NAME: 'cambio-test', SOLANA: JSON.stringify(solanaNodeSettings(node)) });
}

/** The withdrawal sender's dependencies, wired as the job wires them (the float checked against the
 * hot wallet's USDT on chain, the token's standing read from the node: the issuer's freeze of the
 * hot wallet's token account), over the test's table and node. */
export function solanaSenderDeps(env: TestTable, node: SolanaNode, signer: SolanaSigner, overrides: Partial<Omit<SolanaSendingDeps, 'chain'>> = {}): SolanaSendingDeps & { chain: SolanaRpcChain } {
  const chain = nodeChainOf(node);
  return {
    chain,
    broadcaster: chain,
    signer,
    claims: new DynamoTransactionClaims(env.db, env.tableName),
    store: new DynamoWithdrawalSendingStore(env.db, env.tableName, NETWORK),
    usdtMint: node.mint,
    priorityFeeCap: 1_000_000n,
    standing: async () => tokenStanding(chain, node.mint, await signer.address()),
    usdtMayMoveNow: async () => usdtMayMove(await tokenStanding(chain, node.mint, await signer.address())),
    hotWalletUsdt: async () => chain.tokenBalance(node.mint, await signer.address()),
    log: quiet,
    ...overrides,
  };
}

/** A broadcast the process never made: it was killed after storing the transaction. */
export const killedBroadcaster: Broadcaster = {
  broadcast: async () => {
    throw new Error('process killed before its broadcast');
  },
};

/** A node that answers the signature and then drops the transaction (a leader that never got it,
 * a load balancer's backend that lost it): what a mainnet provider does under load. */
export const droppingBroadcaster: Broadcaster = { broadcast: async () => 'accepted' };

/** sendTransaction with `skipPreflight`: the node lands whatever it can, failed programs included
 * (they pay their fee and keep their error), as a provider that forwards without simulating does. */
export function skipPreflightBroadcaster(node: SolanaNode): Broadcaster {
  return {
    broadcast: async (signed) => {
      const response = await fetch(node.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: [signed.wire, { encoding: 'base64', skipPreflight: true }] }),
      });
      const answer = (await response.json()) as { result?: string; error?: unknown };
      if (answer.error) throw new Error(`sendTransaction: ${JSON.stringify(answer.error)}`);
      return 'accepted';
    },
  };
}

/**
 * The node's chain, but getSignatureStatuses and getTransaction answered by a backend `lagSlots`
 * behind it (a provider's load balancer sends each call to any of its backends): a transaction in a
 * block less than `lagSlots` behind the node's finalized slot is unknown to it; everything else
 * (the block height among it) is the node's own.
 */
export function laggingBackendChain(node: SolanaNode, chain: SolanaRpcChain, lagSlots: bigint): SolanaSendingDeps['chain'] {
  const rpc = createSolanaRpc(node.url);
  const knownToLaggingBackend = async (txHash: string) => {
    const [status] = (await rpc.getSignatureStatuses([toSignature(txHash)], { searchTransactionHistory: true }).send()).value;
    if (!status) return false;
    return status.slot <= (await rpc.getSlot({ commitment: 'finalized' }).send()) - lagSlots;
  };
  return {
    latestBlockhash: () => chain.latestBlockhash(),
    tokenAccounts: (mint, owners) => chain.tokenAccounts(mint, owners),
    tokenAccountOwners: (accounts) => chain.tokenAccountOwners(accounts),
    recentPriorityFee: (accounts) => chain.recentPriorityFee(accounts),
    blockHeight: (commitment) => chain.blockHeight(commitment),
    signatureStatuses: async (signatures) => {
      const statuses = await chain.signatureStatuses(signatures);
      return Promise.all(statuses.map(async (status, index) => (status && (await knownToLaggingBackend(signatures[index]!)) ? status : null)));
    },
    finalReceipt: async (txHash) => ((await knownToLaggingBackend(txHash)) ? chain.finalReceipt(txHash) : null),
  };
}

/** A DER SubjectPublicKeyInfo header of an Ed25519 key (RFC 8410), as KMS's GetPublicKey gives one. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * KMS, where no local engine exists: ECC_NIST_EDWARDS25519 keys by key id, answering GetPublicKey
 * with a DER SubjectPublicKeyInfo and Sign (ED25519_SHA_512 over a RAW message only: anything else
 * is refused, as KMS refuses it for such a key) with the key's real 64-byte signature. Mocks every
 * KMSClient until `restore()`.
 */
export function mockEd25519Kms(keys: Record<string, Uint8Array>) {
  const kms = mockClient(KMSClient);
  for (const [keyId, secret] of Object.entries(keys)) {
    kms.on(GetPublicKeyCommand, { KeyId: keyId }).resolves({
      KeyId: keyId,
      KeySpec: 'ECC_NIST_EDWARDS25519',
      KeyUsage: 'SIGN_VERIFY',
      PublicKey: Buffer.concat([ED25519_SPKI_PREFIX, ed25519.getPublicKey(secret)]),
      SigningAlgorithms: ['ED25519_SHA_512', 'ED25519_PH_SHA_512'],
    });
    kms.on(SignCommand, { KeyId: keyId }).callsFake(({ Message, MessageType, SigningAlgorithm }: { Message: Uint8Array; MessageType?: string; SigningAlgorithm: string }) => {
      if (SigningAlgorithm !== 'ED25519_SHA_512' || MessageType !== 'RAW') throw new Error(`ValidationException: ${SigningAlgorithm} with ${MessageType ?? 'RAW'} is not how this test's key signs`);
      return { KeyId: keyId, Signature: ed25519.sign(Message, secret), SigningAlgorithm };
    });
  }
  return kms;
}
