import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { base58, base64 } from '@scure/base';
import { SandboxPaymentReverted, SandboxWalletShort, type NetworkSandbox, type SandboxPayer } from '../network.ts';
import type { SolanaNetworkSettings } from './settings.ts';

/**
 * The customer's payments on the local Solana node (`Simulate payment`, `npm run sandbox:pay`):
 * USDT from the node's customer wallet, sent as a wallet sends it, in one transaction that creates
 * the payee's associated token account when it has none (the Associated Token Account program's
 * CreateIdempotent) and then transfers into it (SPL Token's TransferChecked). Every company pays
 * from the one customer wallet, which holds a million USDT on a new chain: the simulator's payments
 * are demonstrations, and a payment it cannot cover is refused (SandboxWalletShort).
 *
 * The customer's key is the local node's (local/solana-node.ts localSolanaWallet('customer')):
 * derived from its role's name, the same on every local chain, public as anvil's test accounts are.
 * It is derived here the same way rather than imported, since functions/ takes nothing from local/;
 * it signs only where the stage's SOLANA says `sandbox` (the local runtime's node).
 *
 * This goes into the dashboard API's bundle, which has little room (test/infra/bundles.test.ts): the
 * one legacy transaction it sends is written here with the curve, hash and base58 code that bundle
 * carries already (Solana addresses are checked with them), where @solana/kit's transaction
 * compiler and its error messages would add some 200 KB with the source map. The local node runs the
 * real runtime and programs, so a transaction written wrong is refused there, not misread; the tests
 * pay through this payer (test/integration/solana-chain.test.ts).
 */

/** The local node's customer wallet key: sha256 of its role's name (local/solana-node.ts). */
const CUSTOMER_SECRET = sha256(utf8ToBytes('cambio local solana customer'));
const CUSTOMER = ed25519.getPublicKey(CUSTOMER_SECRET);
/** The customer wallet's address. */
export const SOLANA_SANDBOX_CUSTOMER = base58.encode(CUSTOMER);

const USDT_DECIMALS = 6;
const REQUEST_TIMEOUT_MS = 10_000;

const SYSTEM_PROGRAM = new Uint8Array(32);
const TOKEN_PROGRAM = base58.decode('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
const ASSOCIATED_TOKEN_PROGRAM = base58.decode('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');
/** The Associated Token Account program's CreateIdempotent, and SPL Token's TransferChecked. */
const CREATE_IDEMPOTENT = 1;
const TRANSFER_CHECKED = 12;

/** Whether 32 bytes are a point of Ed25519 (a program-derived address is not). */
function onCurve(bytes: Uint8Array): boolean {
  try {
    ed25519.Point.fromBytes(bytes, true);
    return true;
  } catch {
    return false;
  }
}

/** The owner's associated token account of the mint: the program-derived address of (owner, Token
 * program, mint) under the Associated Token Account program, at the highest bump off the curve. */
export function associatedTokenAccount(owner: Uint8Array, mint: Uint8Array): Uint8Array {
  for (let bump = 255; bump >= 0; bump--) {
    const candidate = sha256(concatBytes(owner, TOKEN_PROGRAM, mint, Uint8Array.of(bump), ASSOCIATED_TOKEN_PROGRAM, utf8ToBytes('ProgramDerivedAddress')));
    if (!onCurve(candidate)) return candidate;
  }
  throw new Error('No associated token account address');
}

/** Solana's compact-u16 length prefix. */
function compactLength(length: number): Uint8Array {
  const bytes: number[] = [];
  let rest = length;
  for (;;) {
    const low = rest & 0x7f;
    rest >>= 7;
    if (rest === 0) return Uint8Array.from([...bytes, low]);
    bytes.push(low | 0x80);
  }
}

const u64 = (value: bigint): Uint8Array => {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return bytes;
};

/**
 * The customer's payment as a signed legacy transaction, base64, and its signature (base58): its
 * accounts in the order the message format wants them (the signer, the writable, the read-only),
 * the payee's token account created when missing, then the transfer.
 */
export function sandboxPaymentTransaction(input: { owner: Uint8Array; mint: Uint8Array; amount: bigint; blockhash: Uint8Array }): { wire: string; signature: string } {
  const source = associatedTokenAccount(CUSTOMER, input.mint);
  const destination = associatedTokenAccount(input.owner, input.mint);
  if (base58.encode(input.owner) === SOLANA_SANDBOX_CUSTOMER) throw new Error('The sandbox customer does not pay itself');
  // The customer signs and pays (writable); both token accounts are written; the rest are read.
  const accounts = [CUSTOMER, destination, source, input.owner, input.mint, SYSTEM_PROGRAM, TOKEN_PROGRAM, ASSOCIATED_TOKEN_PROGRAM];
  const at = { customer: 0, payee: 1, payer: 2, owner: 3, mint: 4, system: 5, token: 6, associated: 7 };
  const instruction = (program: number, keys: number[], data: Uint8Array) => concatBytes(Uint8Array.of(program), compactLength(keys.length), Uint8Array.from(keys), compactLength(data.length), data);
  const message = concatBytes(
    // One signature, no read-only signer, five read-only accounts.
    Uint8Array.of(1, 0, 5),
    compactLength(accounts.length),
    ...accounts,
    input.blockhash,
    compactLength(2),
    instruction(at.associated, [at.customer, at.payee, at.owner, at.mint, at.system, at.token], Uint8Array.of(CREATE_IDEMPOTENT)),
    instruction(at.token, [at.payer, at.mint, at.payee, at.customer], concatBytes(Uint8Array.of(TRANSFER_CHECKED), u64(input.amount), Uint8Array.of(USDT_DECIMALS))),
  );
  const signature = ed25519.sign(message, CUSTOMER_SECRET);
  return { wire: base64.encode(concatBytes(compactLength(1), signature, message)), signature: base58.encode(signature) };
}

/** A Solana node's refusal of a request. */
class SolanaNodeRefusal extends Error {
  constructor(
    readonly method: string,
    readonly code: unknown,
    message: string,
  ) {
    super(`The Solana node refused ${method} (${String(code)}): ${message}`);
  }
}

async function request<T>(rpcUrl: string, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`The Solana node answered ${method} with HTTP ${response.status}`);
  const answer = (await response.json()) as { result?: T; error?: { code: unknown; message: string } };
  if (answer.error) throw new SolanaNodeRefusal(method, answer.error.code, answer.error.message);
  return answer.result as T;
}

/** The customer wallet's USDT, in minor units: 0n where its token account does not exist. */
async function usdtHeld(rpcUrl: string, mint: Uint8Array): Promise<bigint> {
  const account = base58.encode(associatedTokenAccount(CUSTOMER, mint));
  try {
    const { value } = await request<{ value: { amount: string } }>(rpcUrl, 'getTokenAccountBalance', [account, { commitment: 'confirmed' }]);
    return BigInt(value.amount);
  } catch (error) {
    // -32602 "could not find account": an account that does not exist holds nothing.
    if (error instanceof SolanaNodeRefusal && error.code === -32602) return 0n;
    throw error;
  }
}

/** Pays `amount` USDT minor units to the wallet `owner` (base58) from the customer wallet, once:
 * a send whose answer was lost is not sent again, which could pay twice. */
export function solanaSandboxPayer(network: Pick<SolanaNetworkSettings, 'rpcUrl' | 'usdtMint'>): SandboxPayer {
  const rpcUrl = network.rpcUrl;
  if (!rpcUrl) throw new Error("The Solana sandbox payer pays on the local node, which SOLANA's rpcUrl names");
  const mint = base58.decode(network.usdtMint);
  return {
    pay: async (owner, amount) => {
      const held = await usdtHeld(rpcUrl, mint);
      if (held < amount) throw new SandboxWalletShort(SOLANA_SANDBOX_CUSTOMER, held, amount);
      const { value: latest } = await request<{ value: { blockhash: string } }>(rpcUrl, 'getLatestBlockhash', [{ commitment: 'confirmed' }]);
      const { wire, signature } = sandboxPaymentTransaction({ owner: base58.decode(owner), mint, amount, blockhash: base58.decode(latest.blockhash) });
      try {
        // Preflight on: a transfer the token refuses (a frozen account) is refused before it lands,
        // and the simulator says so rather than answer a payment that did not happen.
        await request(rpcUrl, 'sendTransaction', [wire, { encoding: 'base64', preflightCommitment: 'confirmed' }]);
      } catch (error) {
        if (!(error instanceof SolanaNodeRefusal) || error.code !== -32002) throw error;
        throw new SandboxPaymentReverted(
          `The sandbox payment failed on the Solana node (transaction ${signature}), so nothing was paid: ${error.message}. The issuer may have frozen the payee's or the customer's USDT account.`,
          signature,
        );
      }
      return { txHash: signature };
    },
  };
}

/** The simulator's payer where the stage's Solana node is the local runtime's (SOLANA.sandbox);
 * null where it reads a real network, where money moves only from a real wallet. */
export const solanaSandbox: NetworkSandbox = {
  payer: (_db, _tableName, settings) => {
    const network = settings.SOLANA;
    return network?.sandbox && network.rpcUrl ? solanaSandboxPayer(network) : null;
  },
};
