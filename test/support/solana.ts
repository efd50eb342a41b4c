import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import { createSolanaRpc, type Address, type Base64EncodedWireTransaction, type Instruction, type KeyPairSigner, type Signature } from '@solana/kit';
import { getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import * as v from 'valibot';
import { afterAll, beforeAll } from 'vitest';
import { STAGES } from '../../config/stages.ts';
import { solanaNetworkSettings, type SolanaNetworkSettings } from '#functions/networks/solana/settings';
import { solanaChainOf } from '#functions/networks/solana/from-settings';
import type { SolanaRpcChain } from '#functions/networks/solana/rpc-chain';
import { signedTransaction, transactionMessage } from '#functions/networks/solana/transaction-message';
import { parseSettings } from '#functions/settings/schema';
import { SLICES, type SliceSettings } from '#functions/settings/functions';
import { localSolanaWallet, startSolanaNode, type SolanaNode, type SolanaNodeOptions } from '#local/solana-node';
import { associatedTokenAccount, USDT_DECIMALS } from '#functions/networks/solana/token-accounts';

/** The tests start their Solana node as `npm start` does (local/solana-node.ts). */
export { startSolanaNode, localSolanaWallet, usdtAccountOf, USDT_MINT, FINALITY_DEPTH, type SolanaNode } from '#local/solana-node';

/** A fixed 32-byte Ed25519 secret and its 64-byte keypair (secret ‖ public) as the Solana CLI
 * writes it: the tests' hot wallet, the same in every run so a failure can be replayed. */
function keypairOf(label: string): { secretKeyHex: string; address: string } {
  const secret = createHash('sha256').update(label).digest();
  const publicKey = ed25519.getPublicKey(secret);
  return { secretKeyHex: Buffer.concat([secret, publicKey]).toString('hex'), address: base58.encode(publicKey) };
}

const testHotWallet = keypairOf('cambio test solana hot wallet');
/** The tests' Solana hot wallet key: 64 bytes as 128 hex digits, SOLANA.localHotWalletKey's form. */
export const SOLANA_TEST_HOT_WALLET_KEY = testHotWallet.secretKeyHex;
/** Its address. */
export const SOLANA_TEST_HOT_WALLET = testHotWallet.address as Address;
/** The tests' deposit seed (sha256 of a label: 32 bytes), SOLANA.localDepositSeed's form. */
export const SOLANA_TEST_DEPOSIT_SEED = createHash('sha256').update('cambio test solana deposit seed').digest('hex');

/** A stage's SOLANA for a test's node, parsed as the functions parse it: its URL and USDT mint,
 * the tests' hot wallet and deposit seed, on the sandbox chain; `overrides` change any of it. */
export function solanaNodeSettings(node: SolanaNode, overrides: Partial<v.InferInput<typeof solanaNetworkSettings>> = {}): SolanaNetworkSettings {
  return v.parse(solanaNetworkSettings, {
    rpcUrl: node.url,
    usdtMint: node.mint,
    localHotWalletKey: SOLANA_TEST_HOT_WALLET_KEY,
    localDepositSeed: SOLANA_TEST_DEPOSIT_SEED,
    sandbox: true,
    ...overrides,
  });
}

/** The `chain` slice (functions/settings/functions.ts SLICES.chain) of the local stage with SOLANA
 * set to `solana` (a test node's settings, solanaNodeSettings). */
export function solanaChainSettings(solana: SolanaNode | SolanaNetworkSettings): SliceSettings<'chain'> {
  const network = 'url' in solana ? solanaNodeSettings(solana) : solana;
  const local = parseSettings(SLICES.chain, { ...STAGES.local.functionEnvironment }) as SliceSettings<'chain'>;
  return { ...local, SOLANA: network };
}

/** The chain adapter over a test's node, as the jobs connect it (functions/networks/solana/from-settings.ts). */
export const nodeChainOf = (node: SolanaNode): SolanaRpcChain => solanaChainOf({ SOLANA: solanaNodeSettings(node) });

/**
 * A test file's Solana node (local/solana-node.ts), started before its first test and closed after
 * its last; slots move only when the test moves them (`advanceSlots`) unless `slotIntervalMs` says.
 * `settings()` is the stage's SOLANA for it.
 */
export function useSolanaNode(options: SolanaNodeOptions = {}) {
  let started: SolanaNode | undefined;
  beforeAll(async () => {
    started = await startSolanaNode({ slotIntervalMs: null, ...options });
  });
  afterAll(async () => {
    await started?.close();
  });
  const node = (): SolanaNode => {
    if (!started) throw new Error('The Solana node starts before the first test');
    return started;
  };
  return {
    get node(): SolanaNode {
      return node();
    },
    settings: (overrides: Partial<v.InferInput<typeof solanaNetworkSettings>> = {}): SolanaNetworkSettings => solanaNodeSettings(node(), overrides),
    /** The `chain` slice with SOLANA for the node (solanaChainSettings). */
    chainSettings: (overrides: Partial<v.InferInput<typeof solanaNetworkSettings>> = {}): SliceSettings<'chain'> => solanaChainSettings(solanaNodeSettings(node(), overrides)),
  };
}

/** Gives `owner` SOL (lamports) from the node's faucet and USDT (minor units) minted by the issuer
 * into its associated token account (created when missing); either may be 0n. */
export async function fundSolana(node: SolanaNode, owner: Address | string, { lamports = 0n, usdt = 0n }: { lamports?: bigint; usdt?: bigint }): Promise<Signature[]> {
  const signatures: Signature[] = [];
  if (lamports > 0n) signatures.push(await node.airdrop(owner as Address, lamports));
  if (usdt > 0n) signatures.push(await node.issuer.mintTo(owner as Address, usdt));
  return signatures;
}

/**
 * Signs `instructions` with `feePayer` (and any signer they name) on the node's newest blockhash and
 * sends it as a wallet does: `skipPreflight` lands what fails too (with its error, paying its fee), as
 * a provider that forwards without simulating does. Answers the signature.
 */
export async function sendSolanaTransaction(node: Pick<SolanaNode, 'url'>, feePayer: KeyPairSigner, instructions: Instruction[], { skipPreflight = false }: { skipPreflight?: boolean } = {}): Promise<Signature> {
  const { wire } = await signedSolanaTransaction(node, feePayer, instructions);
  return createSolanaRpc(node.url).sendTransaction(wire as Base64EncodedWireTransaction, { encoding: 'base64', skipPreflight, preflightCommitment: 'confirmed' }).send();
}

/** `instructions` signed by `feePayer` on the node's newest blockhash as Cambio signs its own
 * (functions/networks/solana/transaction-message.ts), not sent: `wire` as SolanaChain.broadcast
 * takes it, `signature` its id. */
export async function signedSolanaTransaction(node: Pick<SolanaNode, 'url'>, feePayer: KeyPairSigner, instructions: Instruction[]): Promise<{ wire: string; signature: string }> {
  const { value: latest } = await createSolanaRpc(node.url).getLatestBlockhash({ commitment: 'confirmed' }).send();
  return signedTransaction(transactionMessage(feePayer, latest, instructions));
}

/** What a wallet sends to pay `amount` USDT minor units from `payer` to the wallet `to`: the payee's
 * associated token account created when missing, then transferChecked into it. */
export async function usdtPaymentInstructions(node: Pick<SolanaNode, 'mint'>, payer: KeyPairSigner, to: Address | string, amount: bigint): Promise<Instruction[]> {
  const [source, destination] = await Promise.all([associatedTokenAccount(payer.address, node.mint), associatedTokenAccount(to, node.mint)]);
  return [
    getCreateAssociatedTokenIdempotentInstruction({ payer, ata: destination, owner: to as Address, mint: node.mint }),
    getTransferCheckedInstruction({ source, mint: node.mint, destination, authority: payer, amount, decimals: USDT_DECIMALS }),
  ];
}

/** A Solana node as a wallet reaches it: a test's node, or the local runtime's as its SOLANA names it (solanaEndpointOf). */
export type SolanaEndpoint = Pick<SolanaNode, 'url' | 'mint'>;

export const solanaEndpointOf = (network: SolanaNetworkSettings): SolanaEndpoint => ({ url: network.rpcUrl!, mint: network.usdtMint as Address });

/**
 * The customer wallet pays each wallet its amount (USDT minor units) in one transaction, as an
 * exchange's batch payout does, each payee's token account created when missing: every payment
 * lands in the same slot, so all are final at once. Ten fit in Solana's 1,232 bytes.
 */
export async function customerPaysEach(node: SolanaEndpoint, payments: { to: string; amount: bigint }[]): Promise<Signature> {
  const { signer } = await localSolanaWallet('customer');
  const instructions = await Promise.all(payments.map(({ to, amount }) => usdtPaymentInstructions(node, signer, to, amount)));
  return sendSolanaTransaction(node, signer, instructions.flat());
}

/** A provider's fault, as a Solana JSON-RPC proxy makes it: an HTTP 429 or 500, a JSON-RPC error
 * (-32603, as an overloaded backend answers), or a request that hangs until the client gives up. */
export type SolanaProviderFault = 'http429' | 'http500' | 'rpcError' | 'hang';

export interface FaultySolanaProxy {
  url: string;
  /** Faults each request of these methods (every method without `methods`) until set again; null: none. */
  set(fault: SolanaProviderFault | null, methods?: string[]): void;
  /** Requests faulted, by method. */
  faulted: Record<string, number>;
  stop(): Promise<void>;
}

/**
 * A Solana provider that errs, for the tests: an HTTP server on loopback in front of a node, which
 * passes every request on except those of the methods told to fail, which it answers with the fault.
 * (test/support/faulty-rpc-proxy.ts is the EVM one: its lagging and stale heads speak eth_ methods.)
 */
export async function startFaultySolanaProxy(target: string): Promise<FaultySolanaProxy> {
  let current: { fault: SolanaProviderFault; methods: Set<string> | null } | null = null;
  const faulted: Record<string, number> = {};
  const hanging = new Set<ServerResponse>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const call = JSON.parse(body) as { id: unknown; method: string };
        if (current && (current.methods === null || current.methods.has(call.method))) {
          faulted[call.method] = (faulted[call.method] ?? 0) + 1;
          switch (current.fault) {
            case 'hang':
              hanging.add(response);
              return;
            case 'http429':
              response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end(JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: 429, message: 'Too many requests for a specific RPC call' } }));
              return;
            case 'http500':
              response.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
              return;
            case 'rpcError':
              response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32603, message: 'Internal error' } }));
              return;
          }
        }
        const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    faulted,
    set: (fault, methods) => {
      current = fault === null ? null : { fault, methods: methods ? new Set(methods) : null };
    },
    stop: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
