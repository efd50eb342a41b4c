import { createHash } from 'node:crypto';
import {
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  getAddressEncoder,
  getTransactionEncoder,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type Signature,
} from '@solana/kit';
import { getTransferSolInstruction, SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import {
  AccountState,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getFreezeAccountInstruction,
  getMintEncoder,
  getMintToCheckedInstruction,
  getThawAccountInstruction,
  getTokenEncoder,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { SolanaChain, type Commitment } from './solana-chain.ts';
import { keepSolanaChainSaved, readSavedSolanaChain, SavedSolanaChainUnusable, type SavedGenesis, type SolanaChainKeeper } from './solana-chain-state.ts';
import { startSolanaRpcServer } from './solana-rpc.ts';

/**
 * A local Solana node for `npm start` and the tests (../shared/networks.md, "Solana (next)"): the
 * real runtime and SPL Token program in this process (litesvm, ./solana-chain.ts) behind a standard
 * JSON-RPC endpoint over HTTP (./solana-rpc.ts), so that Cambio's Solana adapter speaks JSON-RPC
 * through @solana/kit here as on mainnet. At start the chain holds USDT's mint at its mainnet
 * address (6 decimals, legacy Token program) with a local issuer as its mint and freeze authority,
 * and a customer wallet with SOL and USDT that pays deposits in tests and `sandbox:pay`.
 * docs/solana-local.md says what it answers and what it does not emulate.
 */

/** USDT's mint on mainnet-beta (../shared/networks.md), where the local chain puts its own. */
export const USDT_MINT = address('Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB');
export const USDT_DECIMALS = 6;

/** Mainnet's target slot time. */
export const SLOT_INTERVAL_MS = 400;
/** How many slots `finalized` trails the latest on mainnet (a root some 32 slots back). */
export const FINALITY_DEPTH = 32;
/** How often the chain is saved while it changed (./solana-chain-state.ts): what a kill -9 of
 * `npm start` may lose of it, as for the EVM nodes (./evm-networks.ts CHAIN_SAVE_EVERY_MS). */
export const SOLANA_CHAIN_SAVE_EVERY_MS = 2_000;

const LAMPORTS_PER_SOL = 1_000_000_000n;
const CUSTOMER_LAMPORTS = 1_000n * LAMPORTS_PER_SOL;
const CUSTOMER_USDT = 1_000_000n * 10n ** BigInt(USDT_DECIMALS);
const ISSUER_LAMPORTS = 1_000n * LAMPORTS_PER_SOL;
/** requestAirdrop's source: more SOL than any local test spends. */
const FAUCET_LAMPORTS = 500_000_000n * LAMPORTS_PER_SOL;

export type LocalSolanaRole = 'issuer' | 'customer' | 'faucet';

export interface LocalSolanaWallet {
  address: Address;
  signer: KeyPairSigner;
  /** 64 bytes, the private key then the public key: the Solana CLI's keypair file form. */
  secretKey: Uint8Array;
  /** Its USDT associated token account (it may not exist yet). */
  usdtAccount: Address;
}

export interface LocalSolanaIssuer extends LocalSolanaWallet {
  /** Freezes a USDT token account (the mint's freeze authority): it can then neither send nor receive. */
  freeze(tokenAccount: Address): Promise<Signature>;
  thaw(tokenAccount: Address): Promise<Signature>;
  /** Mints USDT (minor units) to an owner's associated token account, created when missing. */
  mintTo(owner: Address, amount: bigint): Promise<Signature>;
}

export interface SolanaNodeOptions {
  /** 127.0.0.1 unless told. */
  host?: string;
  /** 0 (the default): any free port. */
  port?: number;
  /** Milliseconds between slots; null: slots move only by advanceSlots (tests). */
  slotIntervalMs?: number | null;
  /** Slots `finalized` trails the latest. */
  finalityDepth?: number;
  /** Where the chain is kept across restarts (loaded at start when it exists); none: not kept. */
  stateFile?: string | null;
  saveEveryMs?: number;
  /** What the customer wallet holds on a new chain: SOL in lamports, USDT in minor units. */
  customerLamports?: bigint;
  customerUsdt?: bigint;
}

export interface SolanaNode {
  url: string;
  mint: Address;
  usdtDecimals: number;
  customer: LocalSolanaWallet;
  issuer: LocalSolanaIssuer;
  /** The chain went on from the state file; false: it began at this start. */
  restored: boolean;
  slot(commitment?: Commitment): bigint;
  /** Produces `count` slots now, whatever the timer does (tests make time pass with it). */
  advanceSlots(count?: number): void;
  /** SOL from the node's faucet, in a transaction that lands in the current slot. */
  airdrop(to: Address, amount: bigint): Promise<Signature>;
  /** Saves the chain now (with a state file). */
  save(): void;
  /** Stops the slots and the endpoint, and saves the chain a last time (with a state file). */
  close(): Promise<void>;
}

/**
 * The local chain's accounts, the same on every chain (as anvil's well-known accounts are): keys
 * derived from their role's name, so that `sandbox:pay` and the tests sign as the customer
 * without reading the node's files.
 */
export async function localSolanaWallet(role: LocalSolanaRole): Promise<LocalSolanaWallet> {
  const privateKey = new Uint8Array(createHash('sha256').update(`cambio local solana ${role}`).digest());
  const signer = await createKeyPairSignerFromPrivateKeyBytes(privateKey);
  const secretKey = new Uint8Array(64);
  secretKey.set(privateKey, 0);
  secretKey.set(getAddressEncoder().encode(signer.address), 32);
  return { address: signer.address, signer, secretKey, usdtAccount: await usdtAccountOf(signer.address) };
}

/** An owner's USDT associated token account: where a wallet sends USDT for that owner. */
export async function usdtAccountOf(owner: Address): Promise<Address> {
  const [account] = await findAssociatedTokenPda({ owner, mint: USDT_MINT, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return account;
}

export async function startSolanaNode(options: SolanaNodeOptions = {}): Promise<SolanaNode> {
  const {
    host = '127.0.0.1',
    port = 0,
    slotIntervalMs = SLOT_INTERVAL_MS,
    finalityDepth = FINALITY_DEPTH,
    stateFile = null,
    saveEveryMs = SOLANA_CHAIN_SAVE_EVERY_MS,
    customerLamports = CUSTOMER_LAMPORTS,
    customerUsdt = CUSTOMER_USDT,
  } = options;
  const [issuer, customer, faucet] = await Promise.all([localSolanaWallet('issuer'), localSolanaWallet('customer'), localSolanaWallet('faucet')]);
  const genesis: SavedGenesis = { mint: USDT_MINT, issuer: issuer.address, customer: customer.address, faucet: faucet.address };
  const timing = { finalityDepth, slotMs: slotIntervalMs ?? SLOT_INTERVAL_MS };

  const saved = stateFile ? readSavedSolanaChain(stateFile, genesis) : null;
  let chain: SolanaChain;
  if (saved) {
    try {
      chain = SolanaChain.restore(saved.accounts, saved.log, timing);
    } catch (error) {
      throw new SavedSolanaChainUnusable(stateFile!, `its chain could not be loaded (${(error as Error).message})`);
    }
  } else {
    chain = SolanaChain.create(timing);
    writeGenesis(chain, { issuer, customer, faucet, customerLamports, customerUsdt });
  }

  /** A transaction of the node's own accounts, sent as a client sends one (preflight, then a block). */
  const sendAs = async (feePayer: KeyPairSigner, instructions: Instruction[]): Promise<Signature> => {
    const { blockhash, lastValidBlockHeight } = chain.latestBlockhash('confirmed');
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (draft) => setTransactionMessageFeePayerSigner(feePayer, draft),
      (draft) => setTransactionMessageLifetimeUsingBlockhash({ blockhash, lastValidBlockHeight: BigInt(lastValidBlockHeight) }, draft),
      (draft) => appendTransactionMessageInstructions(instructions, draft),
    );
    const signed = await signTransactionMessageWithSigners(message);
    return chain.sendTransaction(new Uint8Array(getTransactionEncoder().encode(signed)), { skipPreflight: false });
  };
  const airdrop = (to: Address, amount: bigint) => sendAs(faucet.signer, [getTransferSolInstruction({ source: faucet.signer, destination: to, amount })]);

  const server = await startSolanaRpcServer(chain, { host, port, requestAirdrop: airdrop });
  const slotTimer = slotIntervalMs ? setInterval(() => chain.advanceSlot(), slotIntervalMs) : undefined;
  let keeper: SolanaChainKeeper | null;
  try {
    keeper = stateFile ? keepSolanaChainSaved(stateFile, chain, { everyMs: saveEveryMs, genesis }) : null;
  } catch (error) {
    clearInterval(slotTimer);
    await server.close();
    throw error;
  }

  let closed: Promise<void> | undefined;
  return {
    url: server.url,
    mint: USDT_MINT,
    usdtDecimals: USDT_DECIMALS,
    customer,
    issuer: {
      ...issuer,
      freeze: (tokenAccount) => sendAs(issuer.signer, [getFreezeAccountInstruction({ account: tokenAccount, mint: USDT_MINT, owner: issuer.signer })]),
      thaw: (tokenAccount) => sendAs(issuer.signer, [getThawAccountInstruction({ account: tokenAccount, mint: USDT_MINT, owner: issuer.signer })]),
      mintTo: async (owner, amount) => {
        const token = await usdtAccountOf(owner);
        return sendAs(issuer.signer, [
          getCreateAssociatedTokenIdempotentInstruction({ payer: issuer.signer, ata: token, owner, mint: USDT_MINT }),
          getMintToCheckedInstruction({ mint: USDT_MINT, token, mintAuthority: issuer.signer, amount, decimals: USDT_DECIMALS }),
        ]);
      },
    },
    restored: saved !== null,
    slot: (commitment = 'confirmed') => BigInt(chain.slotAt(commitment)),
    advanceSlots: (count = 1) => {
      for (let produced = 0; produced < count; produced++) chain.advanceSlot();
    },
    airdrop,
    save: () => keeper?.save(),
    close: () =>
      (closed ??= (async () => {
        clearInterval(slotTimer);
        await server.close();
        keeper?.stop();
      })()),
  };
}

/**
 * The accounts a new chain begins with, written as genesis holds them: the USDT mint (issuer as
 * mint and freeze authority, its supply what the customer holds), the customer's SOL and USDT
 * associated token account, the issuer's and the faucet's SOL.
 */
function writeGenesis(
  chain: SolanaChain,
  { issuer, customer, faucet, customerLamports, customerUsdt }: { issuer: LocalSolanaWallet; customer: LocalSolanaWallet; faucet: LocalSolanaWallet; customerLamports: bigint; customerUsdt: bigint },
): void {
  const wallet = (owner: Address, amount: bigint) =>
    chain.writeGenesisAccount({ address: owner, lamports: lamports(amount), programAddress: SYSTEM_PROGRAM_ADDRESS, executable: false, data: new Uint8Array(), space: 0n });
  const tokenProgramAccount = (account: Address, data: Uint8Array) =>
    chain.writeGenesisAccount({
      address: account,
      lamports: lamports(chain.minimumBalanceForRentExemption(BigInt(data.length))),
      programAddress: TOKEN_PROGRAM_ADDRESS,
      executable: false,
      data,
      space: BigInt(data.length),
    });
  wallet(faucet.address, FAUCET_LAMPORTS);
  wallet(issuer.address, ISSUER_LAMPORTS);
  wallet(customer.address, customerLamports);
  const mint = getMintEncoder().encode({ mintAuthority: issuer.address, supply: customerUsdt, decimals: USDT_DECIMALS, isInitialized: true, freezeAuthority: issuer.address });
  tokenProgramAccount(USDT_MINT, new Uint8Array(mint));
  const held = getTokenEncoder().encode({
    mint: USDT_MINT,
    owner: customer.address,
    amount: customerUsdt,
    delegate: null,
    state: AccountState.Initialized,
    isNative: null,
    delegatedAmount: 0n,
    closeAuthority: null,
  });
  tokenProgramAccount(customer.usdtAccount, new Uint8Array(held));
}
