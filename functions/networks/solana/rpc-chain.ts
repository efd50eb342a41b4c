import {
  address,
  createDefaultRpcTransport,
  createSolanaRpcFromTransport,
  fetchEncodedAccounts,
  isSolanaError,
  isSome,
  signature as toSignature,
  SOLANA_ERROR__JSON_RPC__METHOD_NOT_FOUND,
  type Commitment,
  type MaybeEncodedAccount,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import { AccountState, getTokenDecoder, getTokenSize, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { ChainBlock, RecipientFilter, TokenTransfer, TransactionReceipt } from '../chain.ts';
import type { SignatureStatus, SolanaChain, TokenAccountState } from './chain.ts';
import { associatedTokenAccount } from './token-accounts.ts';
import { solana } from './network.ts';
import { inCoin, type CoinAmount } from '../../shared/money.ts';

/**
 * Solana's chain over standard JSON-RPC (@solana/kit's createSolanaRpc): a provider on deployed
 * stages, the local node (local/solana-node.ts) on the local one, the same code for both. It goes
 * into the chain jobs alone (poller, sender, sweeper, reconcile).
 *
 * How the port maps onto Solana (./chain.ts): a block is a slot; the newest block is the slot at
 * `confirmed` (voted on by a supermajority, which a fork has not yet reversed on mainnet), the final
 * one the slot at `finalized`. There is no block hash a transfer is tied to and no `blockAt`: the
 * scanner re-reads a fixed overlap, as on TRON. A USDT transfer is read from a transaction's token
 * balances before and after (`preTokenBalances`/`postTokenBalances`), not from its instructions:
 * every way of moving USDT (transfer, transferChecked, through another program's CPI) shows there,
 * and so does nothing else. A payment is credited to a wallet only through its associated token
 * account: that is where wallets send a wallet's USDT, and where the sweeper takes it from.
 *
 * Every error of the provider (an HTTP 429 or 5xx, a JSON-RPC error, a request past
 * `rpcTimeoutMs`) is thrown: the job tries again on its next run. None is read as "no
 * transaction", "no transfers" or "not frozen".
 */

export interface SolanaRpcChainOptions {
  /** The endpoint, or how to read it (a provider's URL carries its key: Secrets Manager). */
  rpcUrl: string | (() => Promise<string>);
  /** How long one request may take before it fails. */
  rpcTimeoutMs: number;
}

/** How many slots' blocks are asked for at once: a mainnet block with its transactions' accounts is
 * a megabyte or more, and a provider limits requests per second. */
const BLOCKS_IN_PARALLEL = 4;
/** getMultipleAccounts' limit. */
const ACCOUNTS_PER_CALL = 100;
/** getSignatureStatuses' limit. */
const SIGNATURES_PER_CALL = 256;
/** Owners whose associated token account is kept computed (a few hashes each): the deposit
 * addresses a scanner meets again every run, the payers. Cleared whole when full. */
const ATA_CACHE_SIZE = 50_000;

/** The node refused a transaction because its blockhash is unknown to it: expired (past its
 * lastValidBlockHeight) or, on a node behind the one that gave it, not seen yet. It never landed
 * from this send; whether it can still land elsewhere is the block height's to say. */
export class SolanaBlockhashNotFound extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SolanaBlockhashNotFound';
  }
}

/** The node's preflight refused the transaction (its simulation failed: a frozen account, too few
 * lamports, a program's error): it was not sent. `reason` is the transaction error's short code. */
export class SolanaTransactionRefused extends Error {
  constructor(
    message: string,
    readonly reason: string,
  ) {
    super(message);
    this.name = 'SolanaTransactionRefused';
  }
}

export const isBlockhashNotFound = (error: unknown): error is SolanaBlockhashNotFound => error instanceof SolanaBlockhashNotFound;

/** A provider's request failed: named by its method, with the provider's error as the cause. */
export class SolanaRpcError extends Error {
  constructor(
    readonly method: string,
    cause: unknown,
  ) {
    super(`Solana RPC ${method} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'SolanaRpcError';
  }
}

/** A transaction's error (meta.err, JSON as the RPC writes it; kit reads its integers as bigints)
 * as a short code: `BlockhashNotFound`, `InstructionError:1:Custom:17`, else its JSON. */
export function transactionErrorCode(err: unknown): string {
  if (typeof err === 'string') return err;
  if (err && typeof err === 'object' && 'InstructionError' in err) {
    const [index, inner] = (err as { InstructionError: [unknown, unknown] }).InstructionError;
    const innerCode = typeof inner === 'string' ? inner : inner && typeof inner === 'object' && 'Custom' in inner ? `Custom:${String((inner as { Custom: unknown }).Custom)}` : jsonOf(inner);
    return `InstructionError:${String(index)}:${innerCode}`;
  }
  return jsonOf(err);
}

const jsonOf = (value: unknown): string => JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? Number(item) : item));

/** One token balance of a transaction's meta, as getBlock and getTransaction give it. */
interface TokenBalance {
  accountIndex: number | bigint;
  mint: string;
  owner?: string;
  uiTokenAmount: { amount: string };
}

interface TransactionMeta {
  err: unknown;
  /** Lamports of each account before and after, in the order of the message's accounts: the fee
   * payer's first. */
  preBalances?: readonly (bigint | number)[];
  postBalances?: readonly (bigint | number)[];
  preTokenBalances?: readonly TokenBalance[] | null;
  postTokenBalances?: readonly TokenBalance[] | null;
}

/** A transaction as read: its first signature (its id), its accounts in the order token balances'
 * `accountIndex` counts them, its signers, and its meta. */
interface ReadTransaction {
  signature: string;
  accountKeys: readonly string[];
  firstSigner: string;
  meta: TransactionMeta;
}

interface UsdtMovement {
  accountIndex: number;
  owner: string;
  delta: bigint;
  /** The token account had no balance before the transaction: the transaction created it. */
  created: boolean;
}

export class SolanaRpcChain implements SolanaChain {
  private client: { url: string; rpc: Rpc<SolanaRpcApi>; transport: ReturnType<typeof createDefaultRpcTransport> } | undefined;
  private nextId = 0;
  private readonly associated = new Map<string, string>();

  constructor(private readonly options: SolanaRpcChainOptions) {}

  /** The RPC client and its HTTP transport, made again when the secret's URL changes (a rotated key). */
  private async connection() {
    const url = typeof this.options.rpcUrl === 'string' ? this.options.rpcUrl : await this.options.rpcUrl();
    if (this.client?.url !== url) {
      const transport = createDefaultRpcTransport({ url });
      this.client = { url, rpc: createSolanaRpcFromTransport(transport), transport };
    }
    return this.client;
  }

  private async rpc(): Promise<Rpc<SolanaRpcApi>> {
    return (await this.connection()).rpc;
  }

  /** Sends one request under the timeout; every failure is thrown, named by its method. */
  private async call<T>(method: string, request: (rpc: Rpc<SolanaRpcApi>) => { send(options?: { abortSignal?: AbortSignal }): Promise<T> }): Promise<T> {
    try {
      return await request(await this.rpc()).send({ abortSignal: AbortSignal.timeout(this.options.rpcTimeoutMs) });
    } catch (error) {
      throw new SolanaRpcError(method, error);
    }
  }

  /** The owner's associated token account of `mint` (legacy Token program: USDT's). */
  async associatedTokenAccount(mint: string, owner: string): Promise<string> {
    const key = `${mint}:${owner}`;
    const known = this.associated.get(key);
    if (known) return known;
    const account = await associatedTokenAccount(owner, mint);
    if (this.associated.size >= ATA_CACHE_SIZE) this.associated.clear();
    this.associated.set(key, account);
    return account;
  }

  latestBlock(): Promise<ChainBlock> {
    return this.blockAtCommitment('confirmed');
  }

  finalBlock(): Promise<ChainBlock> {
    return this.blockAtCommitment('finalized');
  }

  /** The commitment's slot, with its block's blockhash (base58: Solana's id of a block) and time. */
  private async blockAtCommitment(commitment: 'confirmed' | 'finalized'): Promise<ChainBlock> {
    const slot = await this.call('getSlot', (rpc) => rpc.getSlot({ commitment }));
    const block = await this.call('getBlock', (rpc) => rpc.getBlock(slot, { commitment, transactionDetails: 'none', rewards: false, maxSupportedTransactionVersion: 0 }));
    if (!block) throw new Error(`The Solana node has no block at its own ${commitment} slot ${slot}`);
    return { number: Number(slot), hash: block.blockhash, timestamp: timeOf(block.blockTime, slot) };
  }

  /**
   * USDT received by wallets in slots `fromSlot`..`toSlot`: for each successful transaction, each
   * rise of a USDT associated token account's balance, credited to the account's owner (the deposit
   * address is the owner wallet). A rise of a token account that is not its owner's associated one
   * (one made with createAccount and initializeAccount, an auxiliary account) is not reported:
   * Cambio gives out the owner's address, wallets pay its associated account, and the sweeper moves
   * USDT from there alone, so what arrives elsewhere is no deposit it could sweep.
   */
  async transfers(mint: string, fromSlot: number, toSlot: number, recipients?: RecipientFilter): Promise<TokenTransfer[]> {
    if (toSlot < fromSlot) return [];
    const slots = await this.call('getBlocks', (rpc) => rpc.getBlocks(BigInt(fromSlot), BigInt(toSlot), { commitment: 'confirmed' }));
    await this.requireListedTo(slots, toSlot);
    const blocks = await inBatches([...slots], BLOCKS_IN_PARALLEL, async (slot) => ({ slot, transactions: await this.blockTransactions(slot) }));
    await recipients?.afterRead();
    const transfers: TokenTransfer[] = [];
    for (const { slot, transactions } of blocks) {
      for (const transaction of transactions) {
        if (transaction.meta.err !== null && transaction.meta.err !== undefined) continue;
        for (const movement of await this.usdtCredits(mint, transaction, recipients)) {
          transfers.push({
            txHash: transaction.signature,
            eventIndex: movement.accountIndex,
            blockNumber: Number(slot),
            contract: mint,
            ...payersOf(mint, transaction),
            to: movement.owner,
            amount: movement.delta,
          });
        }
      }
    }
    return transfers;
  }

  /**
   * getBlocks ends its list at the answering node's own confirmed slot, silently: behind a load
   * balancer, a backend some slots behind the one that gave the scan its tip would leave those slots
   * out, and the scan, moving past `toSlot`, would never read them again (a payment there lost).
   * A list that stops short of `toSlot` is taken only when `toSlot` itself has no block (skipped,
   * which the node says with -32007 or -32009); otherwise the run fails and reads the range again.
   */
  private async requireListedTo(slots: readonly bigint[], toSlot: number): Promise<void> {
    const last = slots.at(-1);
    if (last !== undefined && Number(last) >= toSlot) return;
    try {
      if ((await this.plainBlock(BigInt(toSlot))) === null) return;
    } catch (error) {
      if (error instanceof SolanaRpcError && /\((-32007|-32009)\)/.test(error.message)) return;
      throw error;
    }
    throw new Error(`The Solana node listed blocks up to slot ${last ?? 'none'} of ${toSlot}, which has a block: a backend behind the tip; the range is read again next run`);
  }

  /** A slot's transactions with their accounts and token balances (transactionDetails `accounts`:
   * no instructions, which are not read). */
  private async blockTransactions(slot: bigint): Promise<ReadTransaction[]> {
    const block = await this.plainBlock(slot);
    // getBlocks listed the slot: a block it listed is there, so its absence is the provider's fault.
    if (!block) throw new Error(`The Solana node listed slot ${slot} among its blocks but has no block there`);
    return block.transactions.map((transaction) => {
      const keys = transaction.transaction.accountKeys;
      const signature = transaction.transaction.signatures[0]!;
      return { signature, accountKeys: keys.map((key) => key.pubkey), firstSigner: keys.find((key) => key.signer)?.pubkey ?? keys[0]!.pubkey, meta: metaOf(transaction.meta, signature) };
    });
  }

  /**
   * A block's transactions with their accounts and meta, asked over plain fetch and read with
   * JSON.parse rather than kit's client, whose parser reads every integer as a bigint: on a mainnet
   * block (~1,300 transactions, over a megabyte) that parser took 310-350 ms against JSON.parse's
   * 12-17 ms, and held the scanner near the chain's own rate (the solana-scanner bench). Safe here:
   * the scan reads signatures, account keys, errors, account indexes and token amounts (decimal
   * strings), never the lamport balances that could pass 2^53. Faults are thrown as kit's are.
   */
  private async plainBlock(slot: bigint): Promise<{ transactions: { transaction: { signatures: string[]; accountKeys: { pubkey: string; signer: boolean }[] }; meta: unknown }[] } | null> {
    const { url } = await this.connection();
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: ++this.nextId,
      method: 'getBlock',
      params: [Number(slot), { commitment: 'confirmed', encoding: 'json', transactionDetails: 'accounts', rewards: false, maxSupportedTransactionVersion: 0 }],
    });
    let answer: { result?: unknown; error?: { code?: unknown; message?: unknown } };
    try {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(this.options.rpcTimeoutMs) });
      if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`);
      answer = JSON.parse(await response.text()) as typeof answer;
    } catch (error) {
      throw new SolanaRpcError('getBlock', error);
    }
    if (answer.error) throw new SolanaRpcError('getBlock', new Error(`(${String(answer.error.code)}) ${String(answer.error.message)}`));
    return (answer.result ?? null) as Awaited<ReturnType<SolanaRpcChain['plainBlock']>>;
  }

  /** The rises of USDT associated token accounts in a transaction, by their owner, each with its account. */
  private async usdtCredits(mint: string, transaction: ReadTransaction, recipients?: RecipientFilter): Promise<(UsdtMovement & { account: string })[]> {
    const credits: (UsdtMovement & { account: string })[] = [];
    for (const movement of usdtMovements(mint, transaction.meta)) {
      if (movement.delta <= 0n) continue;
      if (recipients && !recipients.mayWant(movement.owner)) continue;
      const account = transaction.accountKeys[movement.accountIndex];
      if (account === undefined) throw new Error(`The Solana node gave transaction ${transaction.signature} a token balance of account ${movement.accountIndex}, beyond its ${transaction.accountKeys.length} accounts`);
      if (account !== (await this.associatedTokenAccount(mint, movement.owner))) continue;
      credits.push({ ...movement, account });
    }
    return credits;
  }

  receipt(txHash: string): Promise<TransactionReceipt | null> {
    return this.transactionReceipt(txHash, 'confirmed');
  }

  finalReceipt(txHash: string): Promise<TransactionReceipt | null> {
    return this.transactionReceipt(txHash, 'finalized');
  }

  /** The transaction as the commitment's view has it, with what its owners' associated token
   * accounts received (to: the owner, from: the owner whose balance fell most; whether it created
   * the account) and what its fee payer's lamports fell by, or null when that view does not know
   * it. Every mint whose balances it changed is read, each transfer naming its mint as `contract`:
   * the receipt is asked by signature alone, and a payout or a sweep moves the stage's USDT alone. */
  private async transactionReceipt(txHash: string, commitment: 'confirmed' | 'finalized'): Promise<TransactionReceipt | null> {
    const found = await this.call('getTransaction', (rpc) => rpc.getTransaction(toSignature(txHash), { commitment, encoding: 'json', maxSupportedTransactionVersion: 0 }));
    if (!found) return null;
    const meta = metaOf(found.meta, txHash) as TransactionMeta & { loadedAddresses?: { writable: readonly string[]; readonly: readonly string[] } };
    const message = found.transaction.message;
    // Token balances count the message's accounts, then those its lookup tables loaded.
    const accountKeys = [...message.accountKeys, ...(meta.loadedAddresses?.writable ?? []), ...(meta.loadedAddresses?.readonly ?? [])];
    const read: ReadTransaction = { signature: txHash, accountKeys, firstSigner: message.accountKeys[0]!, meta };
    const failed = meta.err !== null && meta.err !== undefined;
    const feePayerCost = feePayerCostOf(meta);
    const mints = [...new Set([...(meta.preTokenBalances ?? []), ...(meta.postTokenBalances ?? [])].map((balance) => balance.mint))];
    const tokenTransfers = [];
    if (!failed) {
      for (const mint of mints) {
        for (const movement of await this.usdtCredits(mint, read)) {
          tokenTransfers.push({ contract: mint, to: movement.owner, toAccount: movement.account, amount: movement.delta, from: payerOf(mint, read), eventIndex: movement.accountIndex, ...(movement.created && { toAccountCreated: true }) });
        }
      }
    }
    return { txHash, blockNumber: Number(found.slot), result: failed ? transactionErrorCode(meta.err) : 'SUCCESS', tokenTransfers, ...(feePayerCost && { feePayerCost }) };
  }

  /**
   * Sends a signed transaction (`{ wire }`: its base64 wire form) after the node's preflight at
   * `confirmed`. 'duplicate': the node has processed it already (a rebroadcast). A blockhash the node
   * does not know throws SolanaBlockhashNotFound, any other refusal SolanaTransactionRefused, with
   * the node's words. Asked over the bare transport so that those words and the transaction error
   * (`data.err`) reach the sender as the node wrote them (kit keeps neither of a preflight failure).
   */
  async broadcast(signedTransaction: Record<string, unknown>): Promise<'accepted' | 'duplicate'> {
    const wire = signedTransaction.wire;
    if (typeof wire !== 'string') throw new Error('A Solana transaction is broadcast as { wire: <base64 wire transaction> }');
    let answer: { result?: unknown; error?: { code?: unknown; message?: unknown; data?: { err?: unknown; logs?: unknown } } };
    try {
      const { transport } = await this.connection();
      answer = await transport({
        payload: { jsonrpc: '2.0', id: ++this.nextId, method: 'sendTransaction', params: [wire, { encoding: 'base64', preflightCommitment: 'confirmed' }] },
        signal: AbortSignal.timeout(this.options.rpcTimeoutMs),
      });
    } catch (error) {
      throw new SolanaRpcError('sendTransaction', error);
    }
    if (!answer.error) {
      if (typeof answer.result !== 'string') throw new Error(`The Solana node answered sendTransaction with neither a signature nor an error: ${jsonOf(answer)}`);
      return 'accepted';
    }
    const message = typeof answer.error.message === 'string' ? answer.error.message : jsonOf(answer.error);
    const err = answer.error.data?.err;
    // Providers say it in the message alone, some without preflight's data.
    if (err === 'AlreadyProcessed' || /already been processed/i.test(message)) return 'duplicate';
    const logs = Array.isArray(answer.error.data?.logs) ? (answer.error.data.logs as unknown[]).slice(-3).join(' | ') : '';
    const said = `The Solana node refused the transaction (${String(answer.error.code)}): ${message}${logs ? ` (${logs})` : ''}`;
    if (err === 'BlockhashNotFound' || /blockhash not found/i.test(message)) throw new SolanaBlockhashNotFound(said);
    // A JSON-RPC error without a transaction error is the provider's (a rate limit, an internal error):
    // nothing says the transaction was refused, so it is an RPC failure, tried again.
    if (err === undefined || err === null) throw new SolanaRpcError('sendTransaction', new Error(said));
    throw new SolanaTransactionRefused(said, transactionErrorCode(err));
  }

  async tokenBalance(mint: string, owner: string): Promise<bigint> {
    return (await this.tokenBalances(mint, [owner])).get(owner) ?? 0n;
  }

  /** Each owner's USDT (its associated token account's), 0n where it has none. */
  async tokenBalances(mint: string, owners: string[]): Promise<Map<string, bigint>> {
    const accounts = await this.tokenAccounts(mint, owners);
    return new Map(owners.map((owner) => [owner, accounts.get(owner)?.amount ?? 0n]));
  }

  /** USDT's mint has USDT's own 6 decimals: its base units are the minor units. */
  usdtBalances(mint: string, owners: string[]): Promise<Map<string, bigint>> {
    return this.tokenBalances(mint, owners);
  }

  async feeBalance(owner: string): Promise<bigint> {
    const { value } = await this.call('getBalance', (rpc) => rpc.getBalance(address(owner), { commitment: 'confirmed' }));
    return value;
  }

  /** The owners whose USDT associated token account the issuer froze (the mint's freeze authority:
   * a frozen account can neither send nor receive). An owner without one is not frozen: the account
   * a payment creates starts thawed. */
  async frozenAmong(mint: string, owners: string[]): Promise<Set<string>> {
    const accounts = await this.tokenAccounts(mint, owners);
    return new Set(owners.filter((owner) => accounts.get(owner)?.frozen));
  }

  /** SPL Token has no pause: the issuer stops a holder by freezing its account (frozenAmong), and
   * the mint itself has no switch that stops every transfer. */
  async tokenPaused(_mint: string): Promise<boolean> {
    return false;
  }

  async latestBlockhash(): Promise<{ blockhash: string; lastValidBlockHeight: bigint }> {
    const { value } = await this.call('getLatestBlockhash', (rpc) => rpc.getLatestBlockhash({ commitment: 'confirmed' }));
    return { blockhash: value.blockhash, lastValidBlockHeight: value.lastValidBlockHeight };
  }

  blockHeight(commitment: 'confirmed' | 'finalized'): Promise<bigint> {
    return this.call('getBlockHeight', (rpc) => rpc.getBlockHeight({ commitment }));
  }

  async signatureStatuses(signatures: string[]): Promise<(SignatureStatus | null)[]> {
    const statuses: (SignatureStatus | null)[] = [];
    for (let start = 0; start < signatures.length; start += SIGNATURES_PER_CALL) {
      const page = signatures.slice(start, start + SIGNATURES_PER_CALL).map((each) => toSignature(each));
      const { value } = await this.call('getSignatureStatuses', (rpc) => rpc.getSignatureStatuses(page, { searchTransactionHistory: true }));
      for (const status of value) {
        statuses.push(status && { slot: Number(status.slot), err: status.err, confirmationStatus: (status.confirmationStatus as Commitment | null) ?? null });
      }
    }
    return statuses;
  }

  async tokenAccounts(mint: string, owners: string[]): Promise<Map<string, TokenAccountState>> {
    const unique = [...new Set(owners)];
    const addresses = await Promise.all(unique.map((owner) => this.associatedTokenAccount(mint, owner)));
    const read: MaybeEncodedAccount[] = [];
    for (let start = 0; start < addresses.length; start += ACCOUNTS_PER_CALL) {
      const page = addresses.slice(start, start + ACCOUNTS_PER_CALL).map((each) => address(each));
      read.push(...(await this.call('getMultipleAccounts', (rpc) => ({ send: ({ abortSignal } = {}) => fetchEncodedAccounts(rpc, page, { commitment: 'confirmed', abortSignal }) }))));
    }
    const decoder = getTokenDecoder();
    return new Map(
      unique.map((owner, i): [string, TokenAccountState] => {
        const account = read[i]!;
        const at = addresses[i]!;
        // Lamports alone can be sent to the account's address before it is created: it is then the
        // System program's, with no token data, and holds no USDT.
        if (!account.exists || account.programAddress !== TOKEN_PROGRAM_ADDRESS || account.data.length !== getTokenSize()) {
          return [owner, { address: at, exists: false, amount: 0n, frozen: false, lamports: account.exists ? account.lamports : 0n, delegate: null, delegatedAmount: 0n, closeAuthority: null }];
        }
        const token = decoder.decode(account.data);
        // Only the Associated Token Account program creates an account at this address, for this mint.
        // (Its owner may since have been handed to another wallet: the legacy Token program lets an
        // owner do so. Its balance is still the one a transfer to this owner's account lands in.)
        if (token.mint !== mint) throw new Error(`The Solana token account ${at} holds ${token.mint}, not ${mint}: a wrong associated-account derivation`);
        return [
          owner,
          {
            address: at,
            exists: true,
            amount: token.amount,
            frozen: token.state === AccountState.Frozen,
            lamports: account.lamports,
            delegate: isSome(token.delegate) ? token.delegate.value : null,
            delegatedAmount: token.delegatedAmount,
            closeAuthority: isSome(token.closeAuthority) ? token.closeAuthority.value : null,
          },
        ];
      }),
    );
  }

  async tokenAccountOwners(accounts: string[]): Promise<Map<string, string>> {
    const unique = [...new Set(accounts)];
    const owners = new Map<string, string>();
    const decoder = getTokenDecoder();
    for (let start = 0; start < unique.length; start += ACCOUNTS_PER_CALL) {
      const page = unique.slice(start, start + ACCOUNTS_PER_CALL).map((each) => address(each));
      const read = await this.call('getMultipleAccounts', (rpc) => ({ send: ({ abortSignal } = {}) => fetchEncodedAccounts(rpc, page, { commitment: 'confirmed', abortSignal }) }));
      read.forEach((account, i) => {
        if (account.exists && account.programAddress === TOKEN_PROGRAM_ADDRESS && account.data.length === getTokenSize()) owners.set(unique[start + i]!, decoder.decode(account.data).owner);
      });
    }
    return owners;
  }

  async rentExemptMinimum(size: number): Promise<bigint> {
    return this.call('getMinimumBalanceForRentExemption', (rpc) => rpc.getMinimumBalanceForRentExemption(BigInt(size), { commitment: 'confirmed' }));
  }

  /** The median of the recent non-zero priority fees of transactions writing `accounts`. A node
   * that does not answer getRecentPrioritizationFees ("Method not found": the local one, which has
   * no fee market) gives none, 0n; any other error is thrown. */
  async recentPriorityFee(accounts: string[]): Promise<bigint> {
    let fees: readonly { prioritizationFee: bigint }[];
    try {
      fees = await (await this.rpc())
        .getRecentPrioritizationFees(accounts.map((each) => address(each)))
        .send({ abortSignal: AbortSignal.timeout(this.options.rpcTimeoutMs) });
    } catch (error) {
      if (isSolanaError(error, SOLANA_ERROR__JSON_RPC__METHOD_NOT_FOUND)) return 0n;
      throw new SolanaRpcError('getRecentPrioritizationFees', error);
    }
    const paid = fees.map((fee) => BigInt(fee.prioritizationFee)).filter((fee) => fee > 0n).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (paid.length === 0) return 0n;
    const middle = Math.floor(paid.length / 2);
    return paid.length % 2 === 1 ? paid[middle]! : (paid[middle - 1]! + paid[middle]!) / 2n;
  }
}

/** A transaction's meta: a node that has none for it (it keeps no status) cannot say what it moved,
 * and that is its fault, never "nothing". */
function metaOf(meta: unknown, signature: string): TransactionMeta {
  if (!meta) throw new Error(`The Solana node gave transaction ${signature} without its meta (its outcome and balances)`);
  return meta as TransactionMeta;
}

/** Each USDT token account's change in a transaction, from its balances before and after: an
 * account created in it had none before, one closed in it none after. */
function usdtMovements(mint: string, meta: TransactionMeta): UsdtMovement[] {
  const byIndex = new Map<number, { owner?: string; before: bigint | null; after: bigint }>();
  const entry = (balance: TokenBalance) => {
    const index = Number(balance.accountIndex);
    let found = byIndex.get(index);
    if (!found) byIndex.set(index, (found = { before: null, after: 0n }));
    found.owner ??= balance.owner;
    return found;
  };
  for (const balance of meta.preTokenBalances ?? []) if (balance.mint === mint) entry(balance).before = BigInt(balance.uiTokenAmount.amount);
  for (const balance of meta.postTokenBalances ?? []) if (balance.mint === mint) entry(balance).after = BigInt(balance.uiTokenAmount.amount);
  const movements: UsdtMovement[] = [];
  // A token balance without its owner (nodes before Solana 1.9) cannot be credited to a wallet.
  for (const [accountIndex, { owner, before, after }] of [...byIndex].sort(([a], [b]) => a - b)) {
    if (owner && after !== (before ?? 0n)) movements.push({ accountIndex, owner, delta: after - (before ?? 0n), created: before === null });
  }
  return movements;
}

/** What the fee payer (the message's first account) paid in the transaction, from its lamports
 * before and after: the fee, and the rent of any account it created. Undefined where the node gives
 * no balances: the payout still settles by what it delivered, its cost untold. */
function feePayerCostOf(meta: TransactionMeta): CoinAmount | undefined {
  const before = meta.preBalances?.[0];
  const after = meta.postBalances?.[0];
  if (before === undefined || after === undefined) return undefined;
  return inCoin(solana.feeAsset, BigInt(before) - BigInt(after));
}

/** Who paid a transaction's USDT: `from`, the owner whose USDT fell most in it, else (USDT minted,
 * not moved) its first signer; `otherPayers`, every other owner whose USDT fell in it, for
 * screening (one transaction may carry several wallets' USDT to one account). */
function payersOf(mint: string, transaction: ReadTransaction): { from: string; otherPayers?: string[] } {
  const fell = usdtMovements(mint, transaction.meta)
    .filter((movement) => movement.delta < 0n)
    .sort((a, b) => (a.delta < b.delta ? -1 : a.delta > b.delta ? 1 : 0));
  const owners = [...new Set(fell.map((movement) => movement.owner))];
  if (owners.length === 0) return { from: transaction.firstSigner };
  const [from, ...otherPayers] = owners;
  return { from: from!, ...(otherPayers.length > 0 && { otherPayers }) };
}
/** The payer a receipt names: the owner whose USDT fell most (payersOf's `from`). */
const payerOf = (mint: string, transaction: ReadTransaction): string => payersOf(mint, transaction).from;

/** A block's time as ISO 8601; a node that does not know it (null: an old block) is a fault. */
function timeOf(blockTime: bigint | null, slot: bigint): string {
  if (blockTime === null) throw new Error(`The Solana node gives no time for the block at slot ${slot}`);
  return new Date(Number(blockTime) * 1000).toISOString();
}

/** `work` over `items`, `limit` at a time, in the items' order. */
async function inBatches<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
