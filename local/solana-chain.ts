import { createHash, randomBytes } from 'node:crypto';
import {
  getBase58Decoder,
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getSignatureFromTransaction,
  getTransactionDecoder,
  getTransactionEncoder,
  lamports,
  type Address,
  type Blockhash,
  type CompiledTransactionMessageWithLifetime,
  type EncodedAccount,
  type LegacyCompiledTransactionMessage,
  type MaybeEncodedAccount,
  type Signature,
  type Transaction,
  type TransactionError,
  type V0CompiledTransactionMessage,
} from '@solana/kit';
import { AccountState, getMintDecoder, getMintSize, getTokenDecoder, getTokenSize, TOKEN_PROGRAM_ADDRESS, type Mint, type Token } from '@solana-program/token';
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from 'litesvm';
import { invalidParams, preflightFailure, rpcTransactionError, RPC_ERROR, SolanaRpcError } from './solana-errors.ts';

/**
 * The Solana runtime and its programs (litesvm: the real SVM, System, SPL Token, Associated Token
 * Account…) with what litesvm lacks and a node has: slots and blocks, blockhashes that expire,
 * commitments. litesvm executes a transaction at once and keeps no blocks; this chain keeps its own
 * log: every slot is a block, a transaction lands in the current slot's, and the log records what
 * getBlock and getTransaction answer. ./solana-rpc.ts answers JSON-RPC from it; ./solana-node.ts
 * moves its slots and keeps it saved.
 */

export type Commitment = 'processed' | 'confirmed' | 'finalized';

/** Blocks a blockhash stays usable after the one it names (Agave's MAX_PROCESSING_AGE): what
 * getLatestBlockhash's lastValidBlockHeight adds, and the window sendTransaction checks. */
export const BLOCKHASH_VALID_BLOCKS = 150;

/** Slots a node's status cache answers getSignatureStatuses for without searchTransactionHistory
 * (Agave's MAX_CACHE_ENTRIES, the MAX_RECENT_BLOCKHASHES it keeps): an older signature is null there. */
export const STATUS_CACHE_SLOTS = 300;

/** Mainnet's epoch length, for getEpochInfo. */
export const SLOTS_PER_EPOCH = 432_000;

/** Mainnet's block height trails its slot by the slots skipped since its genesis (some 5%). The
 * same gap here makes a caller that compares a slot with a lastValidBlockHeight wrong at once, as
 * it would be on mainnet. */
const SLOTS_SKIPPED_BEFORE_GENESIS = 21_000_000;

/** What the log keeps of an account a transaction wrote, as it was before (see priorAccounts). */
export interface AccountRecord {
  lamports: bigint;
  owner: Address;
  executable: boolean;
  /** base64 */
  data: string;
}

export interface TokenBalanceRecord {
  accountIndex: number;
  mint: Address;
  owner: Address;
  programId: Address;
  amount: bigint;
  decimals: number;
}

export interface InnerInstructionRecord {
  programIdIndex: number;
  accounts: number[];
  /** base58, as the json encoding writes it */
  data: string;
  stackHeight: number;
}

export interface RecordedTransaction {
  signature: Signature;
  slot: number;
  /** The wire transaction, base64: its message is what getTransaction and getBlock show. */
  wire: string;
  err: TransactionError | null;
  fee: bigint;
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: TokenBalanceRecord[];
  postTokenBalances: TokenBalanceRecord[];
  logMessages: string[];
  innerInstructions: { index: number; instructions: InnerInstructionRecord[] }[];
  computeUnitsConsumed: bigint;
  returnData: { programId: Address; data: string } | null;
  /**
   * What each account it wrote held before it (null: none), kept while its block is not
   * finalized: a read at `finalized` answers the state of the finalized slot, as a node's rooted
   * bank does, and litesvm holds only the latest state.
   */
  priorAccounts?: Record<string, AccountRecord | null>;
}

/** Accounts as a snapshot keeps them, by address. */
export type SavedAccounts = Record<string, AccountRecord>;

export interface RecordedBlock {
  slot: number;
  blockTime: number;
  transactions: RecordedTransaction[];
}

/** A known block time: a block with transactions, or the slot a start began at. */
interface ClockMark {
  slot: number;
  unixTimestamp: number;
}

/** Everything of the chain that is not litesvm's state; saved beside it (./solana-chain-state.ts). */
export interface ChainLog {
  /** Seeds every blockhash, so that no two chains hand out the same one. */
  seed: string;
  genesisSlot: number;
  genesisBlockHeight: number;
  slot: number;
  /** Only the slots that hold a transaction: every other slot is an empty block, derived. */
  blocks: RecordedBlock[];
  clockMarks: ClockMark[];
}

export type SupportedMessage = (LegacyCompiledTransactionMessage | V0CompiledTransactionMessage) & CompiledTransactionMessageWithLifetime;

export interface DecodedTransaction {
  transaction: Transaction;
  message: SupportedMessage;
  signature: Signature;
}

export interface SimulationResult {
  err: TransactionError | null;
  logs: string[];
  unitsConsumed: bigint;
  returnData: RecordedTransaction['returnData'];
  innerInstructions: RecordedTransaction['innerInstructions'];
  /** The accounts as the transaction would leave them (those it did not touch: as they are). */
  accountAfter(address: Address): EncodedAccount | null;
  replacementBlockhash: { blockhash: Blockhash; lastValidBlockHeight: bigint } | null;
}

export interface ChainTiming {
  /** How far `finalized` trails the latest slot. */
  finalityDepth: number;
  /** The slot interval the block times assume between known ones. */
  slotMs: number;
}

const base58 = getBase58Decoder();
const base64 = getBase64Decoder();
const fromBase64 = getBase64Encoder();

export class SolanaChain {
  private readonly bySignature = new Map<string, RecordedTransaction>();
  private readonly byAddress = new Map<string, RecordedTransaction[]>();
  private readonly blockBySlot = new Map<number, RecordedBlock>();
  /** The blockhashes still usable, each with the slot it names. */
  private readonly recentBlockhashes = new Map<string, number>();
  private recorded = 0;
  /** Every account genesis or a transaction wrote: what a snapshot saves. */
  private readonly written = new Set<string>();

  private constructor(
    private readonly svm: LiteSVM,
    private readonly log: ChainLog,
    private readonly timing: ChainTiming,
  ) {
    // The blockhash window is this chain's own (the log's blockhashes, tied to block heights), and
    // a transaction's signatures are checked as a node checks them.
    svm.withBlockhashCheck(false).withSigverify(true);
    for (const block of log.blocks) {
      this.blockBySlot.set(block.slot, block);
      for (const transaction of block.transactions) this.index(transaction);
    }
    for (let slot = Math.max(log.genesisSlot, log.slot - BLOCKHASH_VALID_BLOCKS); slot <= log.slot; slot++) this.recentBlockhashes.set(this.blockhashOf(slot), slot);
  }


  /**
   * A new chain with litesvm's default programs and nothing else, from litesvm's starting slot. It
   * begins BLOCKHASH_VALID_BLOCKS empty blocks on, as a chain that has run a while: `finalized` is
   * then a slot of its own, behind the latest, and every blockhash of the window is one it made.
   */
  static create(timing: ChainTiming, now = Date.now()): SolanaChain {
    const svm = new LiteSVM();
    const genesisSlot = Number(svm.getClock().slot);
    const log: ChainLog = {
      seed: randomBytes(32).toString('hex'),
      genesisSlot,
      genesisBlockHeight: genesisSlot - SLOTS_SKIPPED_BEFORE_GENESIS,
      slot: genesisSlot + BLOCKHASH_VALID_BLOCKS,
      blocks: [],
      clockMarks: [{ slot: genesisSlot, unixTimestamp: Math.floor((now - BLOCKHASH_VALID_BLOCKS * timing.slotMs) / 1000) }],
    };
    const chain = new SolanaChain(svm, log, timing);
    chain.setClock(now);
    return chain;
  }

  /** The chain a snapshot holds, going on at the slot after the one it stood at: a start
   * produces a block, and the time passed while stopped shows in its block time. */
  static restore(accounts: SavedAccounts, log: ChainLog, timing: ChainTiming, now = Date.now()): SolanaChain {
    const chain = new SolanaChain(new LiteSVM(), log, timing);
    for (const [address, record] of Object.entries(accounts)) chain.writeGenesisAccount(encodedAccountOf(address as Address, record));
    log.clockMarks.push({ slot: log.slot + 1, unixTimestamp: Math.max(Math.floor(now / 1000), log.clockMarks.at(-1)!.unixTimestamp) });
    chain.advanceSlot(now);
    return chain;
  }

  /** What a restart needs: every account the chain has written as it is now (litesvm's default
   * programs and sysvars come with any new LiteSVM), and the log. */
  snapshot(): { accounts: SavedAccounts; log: ChainLog } {
    const accounts: SavedAccounts = {};
    for (const address of this.written) {
      const record = accountRecordOf(existing(this.svm.getAccount(address as Address)));
      if (record) accounts[address] = record;
    }
    return { accounts, log: this.log };
  }

  /** Writes an account as genesis holds it: at every commitment, and in no block. */
  writeGenesisAccount(account: EncodedAccount): void {
    this.svm.setAccount(account);
    this.written.add(account.address);
  }

  get genesisSlot(): number {
    return this.log.genesisSlot;
  }

  get latestSlot(): number {
    return this.log.slot;
  }

  /** Counts the transactions recorded by this instance: what says the chain changed since a save. */
  get revision(): number {
    return this.recorded;
  }

  get transactionCount(): number {
    return this.bySignature.size;
  }

  /** processed and confirmed: the latest slot (one node, no votes to wait for); finalized: the
   * finality depth behind it. */
  slotAt(commitment: Commitment): number {
    return commitment === 'finalized' ? Math.max(this.log.genesisSlot, this.log.slot - this.timing.finalityDepth) : this.log.slot;
  }

  /** Every slot holds a block: the height counts slots from genesis's. */
  blockHeightOf(slot: number): number {
    return slot - this.log.genesisSlot + this.log.genesisBlockHeight;
  }

  blockhashOf(slot: number): Blockhash {
    return base58.decode(createHash('sha256').update(this.log.seed).update(String(slot)).digest()) as Blockhash;
  }

  latestBlockhash(commitment: Commitment): { slot: number; blockhash: Blockhash; lastValidBlockHeight: number } {
    const slot = this.slotAt(commitment);
    return { slot, blockhash: this.blockhashOf(slot), lastValidBlockHeight: this.blockHeightOf(slot) + BLOCKHASH_VALID_BLOCKS };
  }

  isBlockhashValid(blockhash: string): boolean {
    return this.recentBlockhashes.has(blockhash);
  }

  /**
   * A block's time: its own when it holds transactions; else the last known time and the slot
   * interval since, but never past the next known time (nor now): times never go back, and a
   * block's time only ever moves forward as later blocks become known.
   */
  blockTimeOf(slot: number, now = Date.now()): number {
    const block = this.blockBySlot.get(slot);
    if (block) return block.blockTime;
    const marks = this.log.clockMarks;
    let low = 0;
    let high = marks.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (marks[middle]!.slot <= slot) low = middle;
      else high = middle - 1;
    }
    const previous = marks[low]!;
    const next = marks[low + 1];
    const extrapolated = previous.unixTimestamp + Math.floor(((slot - previous.slot) * this.timing.slotMs) / 1000);
    return Math.max(previous.unixTimestamp, Math.min(extrapolated, next ? next.unixTimestamp : Math.floor(now / 1000)));
  }

  advanceSlot(now = Date.now()): void {
    this.log.slot += 1;
    this.recentBlockhashes.set(this.blockhashOf(this.log.slot), this.log.slot);
    this.recentBlockhashes.delete(this.blockhashOf(this.log.slot - BLOCKHASH_VALID_BLOCKS - 1));
    this.setClock(now);
    this.forgetPriorAccountsOfFinalizedBlocks();
  }

  transaction(signature: string): RecordedTransaction | undefined {
    return this.bySignature.get(signature);
  }

  /** The transactions naming an address among their accounts, oldest first. */
  transactionsOf(address: string): readonly RecordedTransaction[] {
    return this.byAddress.get(address) ?? [];
  }

  transactionsIn(slot: number): readonly RecordedTransaction[] {
    return this.blockBySlot.get(slot)?.transactions ?? [];
  }

  minimumBalanceForRentExemption(size: bigint): bigint {
    return this.svm.minimumBalanceForRentExemption(size);
  }

  /** The account as of the commitment's slot, or null when there is none (no lamports). */
  accountAt(address: Address, commitment: Commitment): EncodedAccount | null {
    if (commitment === 'finalized') {
      const prior = this.priorAccountAtFinalized(address);
      if (prior !== undefined) return prior && encodedAccountOf(address, prior);
    }
    return existing(this.svm.getAccount(address));
  }

  /** The accounts the Token program owns as of the commitment's slot. */
  tokenProgramAccountsAt(commitment: Commitment): EncodedAccount[] {
    const addresses = new Set<Address>(this.svm.getProgramAccounts(TOKEN_PROGRAM_ADDRESS).map((account) => account.address));
    if (commitment === 'finalized') {
      for (const block of this.blocksAfter(this.slotAt('finalized'))) {
        for (const transaction of block.transactions) for (const address of Object.keys(transaction.priorAccounts ?? {})) addresses.add(address as Address);
      }
    }
    return [...addresses].flatMap((address) => {
      const account = this.accountAt(address, commitment);
      return account && account.programAddress === TOKEN_PROGRAM_ADDRESS ? [account] : [];
    });
  }

  /**
   * Sends a wire transaction as a node's sendTransaction does. With preflight (the default), a
   * transaction the node would not land is refused with the simulation's error (-32002): an
   * unknown or expired blockhash ("Blockhash not found"), one already processed, or one its
   * programs fail. With skipPreflight, the node answers the signature whatever happens next, as a
   * real one does: an expired or repeated transaction is then dropped, never in a block, and one
   * whose program fails lands with its error and pays its fee.
   */
  sendTransaction(wire: Uint8Array, { skipPreflight }: { skipPreflight: boolean }, now = Date.now()): Signature {
    const decoded = decodeWireTransaction(wire, { requireSignatures: true });
    const { signature, message } = decoded;
    if (this.bySignature.has(signature)) {
      if (skipPreflight) return signature;
      throw preflightFailure('AlreadyProcessed');
    }
    if (!this.isBlockhashValid(message.lifetimeToken)) {
      if (skipPreflight) return signature;
      throw preflightFailure('BlockhashNotFound');
    }
    if (!skipPreflight) {
      const simulated = this.svm.simulateTransaction(decoded.transaction);
      if (simulated instanceof FailedTransactionMetadata) {
        const err = rpcTransactionError(simulated.err());
        if (err === 'SignatureFailure') throw new SolanaRpcError(RPC_ERROR.transactionSignatureVerificationFailure, 'Transaction signature verification failure');
        throw preflightFailure(err, { logs: simulated.meta().logs(), unitsConsumed: simulated.meta().computeUnitsConsumed() });
      }
    }
    this.execute(decoded, now);
    return signature;
  }

  /** simulateTransaction: what the transaction would do now, nothing kept. */
  simulate(wire: Uint8Array, { sigVerify, replaceRecentBlockhash }: { sigVerify: boolean; replaceRecentBlockhash: boolean }): SimulationResult {
    const decoded = decodeWireTransaction(wire, { requireSignatures: sigVerify });
    let { transaction } = decoded;
    let replacementBlockhash: SimulationResult['replacementBlockhash'] = null;
    const nothingRan = (err: TransactionError): SimulationResult => ({
      err,
      logs: [],
      unitsConsumed: 0n,
      returnData: null,
      innerInstructions: [],
      accountAfter: (address) => this.accountAt(address, 'processed'),
      replacementBlockhash,
    });
    if (replaceRecentBlockhash) {
      const latest = this.latestBlockhash('processed');
      replacementBlockhash = { blockhash: latest.blockhash, lastValidBlockHeight: BigInt(latest.lastValidBlockHeight) };
      transaction = { ...transaction, messageBytes: getCompiledTransactionMessageEncoder().encode({ ...decoded.message, lifetimeToken: latest.blockhash }) as Transaction['messageBytes'] };
    } else if (!this.isBlockhashValid(decoded.message.lifetimeToken)) {
      return nothingRan('BlockhashNotFound');
    }
    this.svm.withSigverify(sigVerify);
    let simulated: ReturnType<LiteSVM['simulateTransaction']>;
    try {
      simulated = this.svm.simulateTransaction(transaction);
    } finally {
      this.svm.withSigverify(true);
    }
    const outcome = simulated;
    const failed = outcome instanceof FailedTransactionMetadata;
    const meta = outcome.meta();
    const after = new Map(failed ? [] : outcome.postAccounts().map((account) => [account.address, account] as const));
    return {
      err: failed ? rpcTransactionError(outcome.err()) : null,
      logs: meta.logs(),
      unitsConsumed: meta.computeUnitsConsumed(),
      returnData: returnDataOf(meta),
      innerInstructions: innerInstructionsOf(meta),
      accountAfter: (address) => {
        const account = after.get(address);
        return account ? (account.lamports > 0n ? account : null) : this.accountAt(address, 'processed');
      },
      replacementBlockhash,
    };
  }

  /** Runs a transaction on litesvm and records it in the current slot's block, unless it was
   * refused before it ran (no fee charged: a node puts it in no block). */
  private execute({ transaction, message, signature }: DecodedTransaction, now: number): void {
    const keys = message.staticAccounts;
    for (const key of keys) this.written.add(key);
    const before = keys.map((key) => this.svm.getAccount(key));
    const outcome = this.svm.sendTransaction(transaction);
    const after = keys.map((key) => this.svm.getAccount(key));
    const failed = outcome instanceof FailedTransactionMetadata;
    const meta: TransactionMetadata = failed ? outcome.meta() : outcome;
    const preBalances = before.map(lamportsOf);
    const postBalances = after.map(lamportsOf);
    if (failed && postBalances[0]! >= preBalances[0]!) return;
    const priorAccounts: Record<string, AccountRecord | null> = {};
    keys.forEach((key, index) => {
      if (isWritableIndex(message, index)) priorAccounts[key] = accountRecordOf(existing(before[index]!));
    });
    this.record(
      {
        signature,
        slot: this.log.slot,
        wire: base64.decode(getTransactionEncoder().encode(transaction)),
        err: failed ? rpcTransactionError(outcome.err()) : null,
        // Lamports only move between the transaction's accounts: what they lost together is its fee.
        fee: sum(preBalances) - sum(postBalances),
        preBalances,
        postBalances,
        preTokenBalances: this.tokenBalancesOf(before),
        postTokenBalances: this.tokenBalancesOf(after),
        logMessages: meta.logs(),
        innerInstructions: innerInstructionsOf(meta),
        computeUnitsConsumed: meta.computeUnitsConsumed(),
        returnData: returnDataOf(meta),
        priorAccounts,
      },
      now,
    );
  }

  private record(transaction: RecordedTransaction, now: number): void {
    let block = this.blockBySlot.get(transaction.slot);
    if (!block) {
      const lastMark = this.log.clockMarks.at(-1)!;
      block = { slot: transaction.slot, blockTime: Math.max(Math.floor(now / 1000), lastMark.unixTimestamp), transactions: [] };
      this.log.blocks.push(block);
      this.blockBySlot.set(block.slot, block);
      this.log.clockMarks.push({ slot: block.slot, unixTimestamp: block.blockTime });
    }
    block.transactions.push(transaction);
    this.index(transaction);
    this.recorded += 1;
  }

  private index(transaction: RecordedTransaction): void {
    this.bySignature.set(transaction.signature, transaction);
    for (const key of decodeRecordedMessage(transaction).staticAccounts) {
      const list = this.byAddress.get(key);
      if (list) list.push(transaction);
      else this.byAddress.set(key, [transaction]);
    }
  }

  private tokenBalancesOf(accounts: MaybeEncodedAccount[]): TokenBalanceRecord[] {
    return accounts.flatMap((account, accountIndex) => {
      const token = tokenAccountDataOf(existing(account));
      const mint = token && mintDataOf(existing(this.svm.getAccount(token.mint)));
      return token && mint ? [{ accountIndex, mint: token.mint, owner: token.owner, programId: TOKEN_PROGRAM_ADDRESS, amount: token.amount, decimals: mint.decimals }] : [];
    });
  }

  private priorAccountAtFinalized(address: Address): AccountRecord | null | undefined {
    // The first transaction after the finalized slot that wrote the account saw it as it was there.
    for (const block of this.blocksAfter(this.slotAt('finalized'))) {
      for (const transaction of block.transactions) {
        const prior = transaction.priorAccounts?.[address];
        if (prior !== undefined) return prior;
      }
    }
    return undefined;
  }

  private blocksAfter(slot: number): RecordedBlock[] {
    const { blocks } = this.log;
    let first = blocks.length;
    while (first > 0 && blocks[first - 1]!.slot > slot) first -= 1;
    return blocks.slice(first);
  }

  private forgetPriorAccountsOfFinalizedBlocks(): void {
    const finalized = this.slotAt('finalized');
    const { blocks } = this.log;
    for (let index = blocks.length - 1; index >= 0; index--) {
      const block = blocks[index]!;
      if (block.slot > finalized) continue;
      if (!block.transactions.some((transaction) => transaction.priorAccounts)) break;
      for (const transaction of block.transactions) delete transaction.priorAccounts;
    }
  }

  private setClock(now: number): void {
    const clock = this.svm.getClock();
    clock.slot = BigInt(this.log.slot);
    clock.unixTimestamp = BigInt(this.blockTimeOf(this.log.slot, now));
    this.svm.setClock(clock);
  }
}

/**
 * A wire transaction decoded as a node reads it; JSON-RPC's invalid params when it is not one, or
 * is a version or form this node does not run (see docs/solana-local.md).
 */
export function decodeWireTransaction(wire: Uint8Array, { requireSignatures }: { requireSignatures: boolean }): DecodedTransaction {
  let transaction: Transaction;
  let message: ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>['decode']>;
  try {
    transaction = getTransactionDecoder().decode(wire);
    message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
  } catch (error) {
    throw invalidParams(`failed to deserialize transaction: ${(error as Error).message}`);
  }
  if (message.version !== 'legacy' && message.version !== 0) throw invalidParams(`Transaction version (${message.version}) is not supported by the local node`);
  if (message.version === 0 && (message.addressTableLookups?.length ?? 0) > 0) throw invalidParams('address lookup tables are not emulated by the local node');
  if (requireSignatures && Object.values(transaction.signatures).some((signature) => signature === null)) {
    throw new SolanaRpcError(RPC_ERROR.transactionSignatureVerificationFailure, 'Transaction signature verification failure');
  }
  let signature: Signature;
  try {
    signature = getSignatureFromTransaction(transaction);
  } catch {
    // Unsigned, as a simulation may be: the all-zero signature a node shows for it.
    signature = base58.decode(new Uint8Array(64)) as Signature;
  }
  return { transaction, message: message as SupportedMessage, signature };
}

/** The message of a recorded transaction. */
export function decodeRecordedMessage(transaction: RecordedTransaction): SupportedMessage {
  return decodeWireTransaction(new Uint8Array(fromBase64.encode(transaction.wire)), { requireSignatures: false }).message;
}

export function isWritableIndex(message: SupportedMessage, index: number): boolean {
  const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = message.header;
  if (index < numSignerAccounts) return index < numSignerAccounts - numReadonlySignerAccounts;
  return index < message.staticAccounts.length - numReadonlyNonSignerAccounts;
}

/** A legacy Token program account holding tokens (not a mint, not uninitialized), decoded. */
export function tokenAccountDataOf(account: EncodedAccount | null): Token | null {
  if (!account || account.programAddress !== TOKEN_PROGRAM_ADDRESS || account.data.length !== getTokenSize()) return null;
  const token = getTokenDecoder().decode(account.data);
  return token.state === AccountState.Uninitialized ? null : token;
}

export function mintDataOf(account: EncodedAccount | null): Mint | null {
  if (!account || account.programAddress !== TOKEN_PROGRAM_ADDRESS || account.data.length !== getMintSize()) return null;
  const mint = getMintDecoder().decode(account.data);
  return mint.isInitialized ? mint : null;
}

/** A node answers null for an account without lamports: the runtime removes it. */
function existing(account: MaybeEncodedAccount): EncodedAccount | null {
  return account.exists && account.lamports > 0n ? account : null;
}

const lamportsOf = (account: MaybeEncodedAccount): bigint => (account.exists ? account.lamports : 0n);

const sum = (values: bigint[]): bigint => values.reduce((total, value) => total + value, 0n);

function accountRecordOf(account: EncodedAccount | null): AccountRecord | null {
  return account && { lamports: account.lamports, owner: account.programAddress, executable: account.executable, data: base64.decode(account.data) };
}

function encodedAccountOf(address: Address, record: AccountRecord): EncodedAccount {
  const data = new Uint8Array(fromBase64.encode(record.data));
  return { address, lamports: lamports(record.lamports), programAddress: record.owner, executable: record.executable, data, space: BigInt(data.length) };
}

function innerInstructionsOf(meta: TransactionMetadata): RecordedTransaction['innerInstructions'] {
  return meta.innerInstructions().flatMap((instructions, index) =>
    instructions.length === 0
      ? []
      : [
          {
            index,
            instructions: instructions.map((inner) => {
              const instruction = inner.instruction();
              return { programIdIndex: instruction.programIdIndex(), accounts: [...instruction.accounts()], data: base58.decode(instruction.data()), stackHeight: inner.stackHeight() };
            }),
          },
        ],
  );
}

function returnDataOf(meta: TransactionMetadata): RecordedTransaction['returnData'] {
  const returned = meta.returnData();
  const data = returned.data();
  return data.length === 0 ? null : { programId: base58.decode(returned.programId()) as Address, data: base64.decode(data) };
}
