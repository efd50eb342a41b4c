import { withOtherPayers, type ChainBlock, type TokenTransfer, type TransactionReceipt } from '#functions/networks/chain';
import type { Chain } from '#functions/networks/network';
import { Deprecations } from '#functions/networks/deprecations';
import { inParallel } from '#functions/shared/in-parallel';
import { isTronAddress, tronAddressToHex } from './tron-address.ts';
import { JsonClient, type UpstreamFailure } from '#adapters/http/json-client';
import {
  ChainResponseError,
  TX_HASH_PATTERN,
  parseBlock,
  parseBlockByNumber,
  parseBroadcast,
  parseConstantAddress,
  parseConstantBool,
  parseEventPage,
  parseLatestIndexedBlock,
  parseTokenBalance,
  parseTransactionInfo,
  parseTrxBalance,
  refusalIn,
  toTransfer,
  type RawEvent,
} from './trongrid-payloads.ts';

export { ChainResponseError };

/**
 * ChainReader over TronGrid's HTTP API: tronweb would add ~1.2 MB to the bundle for four calls
 * (../shared/tron-notes.md, Size). The requests and their retries are JsonClient's, the reading of
 * the answers trongrid-payloads.ts's; this class only knows which request answers which question.
 *
 * Addresses come back base58 `T…`, amounts as bigint. Nothing here decides confirmations: events
 * are returned confirmed or not, and the scanner compares them with finalBlock().
 */

export interface TronGridChainOptions {
  /** https://api.trongrid.io (mainnet) or https://nile.trongrid.io; a path prefix is kept. */
  baseUrl: string;
  /** Sent as TRON-PRO-API-KEY when it yields a key; asked once per request, so it should cache. */
  apiKey?: () => Promise<string | undefined>;
  fetchImpl?: typeof fetch;
  /** Per attempt, headers and body included. */
  timeoutMs?: number;
  /** Attempts per request, the first included. */
  maxAttempts?: number;
  /** First retry waits about this long, doubling each time up to maxBackoffMs, with jitter. */
  backoffBaseMs?: number;
  maxBackoffMs?: number;
  /** Events per page; TronGrid's maximum is 200. */
  pageSize?: number;
}

/**
 * TronGrid did not answer usefully within the attempts allowed: 429, 5xx, network errors and
 * timeouts, or a Retry-After longer than we are willing to wait. Worth trying again later.
 */
export class ChainUnavailableError extends Error {
  readonly path: string;
  readonly status?: number;
  readonly attempts: number;

  constructor(message: string, { path, status, attempts, cause }: UpstreamFailure) {
    super(message, { cause });
    this.name = 'ChainUnavailableError';
    this.path = path;
    this.status = status;
    this.attempts = attempts;
  }
}

const API_KEY_HEADER = 'TRON-PRO-API-KEY';
const MAX_PAGE_SIZE = 200;
/**
 * Up to this many blocks, one `block_number` query per block costs fewer requests than the
 * timestamp window, which first needs both blocks' timestamps. The scanner's steady state (a few
 * new blocks per 3 s poll) stays under it; a catch-up over hundreds of blocks uses the window.
 */
const PER_BLOCK_MAX_RANGE = 3;
/**
 * Blocks are produced in 3 s slots, so widening the window by 1 s on each side cannot pull in a
 * neighbouring block, yet it makes the result independent of whether TronGrid's min/max bounds are
 * inclusive (its docs do not say). Events are filtered by block_number afterwards in any case.
 */
const WINDOW_MARGIN_MS = 1_000;
/**
 * Balance reads in flight at once (reconciliation reads one per unswept deposit address). TronGrid's
 * limits are not fixed (tron-notes): four keeps a burst small while each read still backs off on
 * its own 429 or 403.
 */
export const TOKEN_BALANCE_CONCURRENCY = 4;
/** A Retry-After beyond this fails the call now: a Lambda should not sleep for minutes. */
const MAX_RETRY_AFTER_MS = 30_000;
/** Printable ASCII without spaces: anything else makes fetch throw with the header value in its message. */
const HEADER_SAFE_PATTERN = /^[\x21-\x7e]+$/;

const CONSTANT_CALL_PATH = '/wallet/triggerconstantcontract';

/** An address as one ABI word: its 20 bytes, left-padded. */
const abiAddress = (address: string): string => tronAddressToHex(address).slice(2).padStart(64, '0');

type EventQuery = { block_number: number } | { min_block_timestamp: number; max_block_timestamp: number };

export class TronGridChain implements Chain {
  private readonly http: JsonClient;
  private readonly apiKey?: () => Promise<string | undefined>;
  private readonly pageSize: number;

  constructor({
    baseUrl,
    apiKey,
    fetchImpl,
    timeoutMs = 10_000,
    maxAttempts = 4,
    backoffBaseMs = 500,
    maxBackoffMs = 8_000,
    pageSize = MAX_PAGE_SIZE,
  }: TronGridChainOptions) {
    this.http = new JsonClient({
      name: 'TronGrid',
      baseUrl,
      fetchImpl,
      timeoutMs,
      retry: { maxAttempts, baseDelayMs: backoffBaseMs, maxDelayMs: maxBackoffMs },
      // 403 too: TronGrid also answers it when a key is over its limits (../shared/tron-notes.md).
      retryableStatus: (status) => status === 429 || status === 403 || status >= 500,
      maxRetryAfterMs: MAX_RETRY_AFTER_MS,
      headers: async (path) => {
        const key = await this.readApiKey(path);
        return key ? { [API_KEY_HEADER]: key } : undefined;
      },
      refusalIn,
      unavailable: (message, failure) => new ChainUnavailableError(message, failure),
      refused: (message, failure) => new ChainResponseError(message, failure),
    });
    this.apiKey = apiKey;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      throw new Error(`pageSize must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${pageSize}`);
    }
    this.pageSize = pageSize;
  }

  async latestBlock(): Promise<ChainBlock> {
    const path = '/wallet/getnowblock';
    return parseBlock(await this.http.request('POST', path), path);
  }

  async finalBlock(): Promise<ChainBlock> {
    const path = '/walletsolidity/getnowblock';
    return parseBlock(await this.http.request('POST', path), path);
  }

  /**
   * The newest block in TronGrid's event database (/v1/blocks/latest/events, its events confirmed
   * or not, asked as tronweb's getEventsOfLatestBlock asks it), which transfers() reads: it can trail
   * getnowblock's node, and the scanner reads no further. Null when TronGrid answers something else
   * than events (an empty list, a shape this does not know): the scan then reads to the head as it
   * did before this was asked, and says so, rather than stop every poll on an answer it cannot read.
   * Unreachable, it throws as every other request does.
   */
  async indexedThrough(): Promise<Pick<ChainBlock, 'number' | 'timestamp'> | null> {
    const path = '/v1/blocks/latest/events';
    const body = await this.http.request('GET', path);
    try {
      return parseLatestIndexedBlock(body, path);
    } catch (error) {
      if (error instanceof ChainResponseError) return null;
      throw error;
    }
  }

  async transfers(contract: string, fromBlock: number, toBlock: number): Promise<TokenTransfer[]> {
    if (!isTronAddress(contract)) throw new Error(`contract must be a base58 TRON address, got ${JSON.stringify(contract)}`);
    if (!Number.isSafeInteger(fromBlock) || !Number.isSafeInteger(toBlock) || fromBlock < 0 || toBlock < fromBlock) {
      throw new Error(`block range must be integers with 0 <= fromBlock <= toBlock, got ${fromBlock}..${toBlock}`);
    }

    const queries: EventQuery[] = [];
    if (toBlock - fromBlock + 1 <= PER_BLOCK_MAX_RANGE) {
      for (let block = fromBlock; block <= toBlock; block++) queries.push({ block_number: block });
    } else {
      const [first, last] = await Promise.all([this.blockByNumber(fromBlock), this.blockByNumber(toBlock)]);
      queries.push({
        min_block_timestamp: Date.parse(first.timestamp) - WINDOW_MARGIN_MS,
        max_block_timestamp: Date.parse(last.timestamp) + WINDOW_MARGIN_MS,
      });
    }

    // (transaction_id, event_index) identifies an event (tron-notes, Reading the chain); pages can
    // overlap when TronGrid's index moves between two page reads.
    const byKey = new Map<string, TokenTransfer>();
    for (const query of queries) {
      for await (const page of this.eventPages(contract, query)) {
        for (const raw of page.events) {
          const transfer = toTransfer(raw, contract, page.path);
          if (!transfer || transfer.blockNumber < fromBlock || transfer.blockNumber > toBlock) continue;
          const key = `${transfer.txHash}:${transfer.eventIndex}`;
          if (!byKey.has(key)) byKey.set(key, transfer);
        }
      }
    }
    // Array.prototype.sort is stable: within a block, TronGrid's order is kept.
    const all = [...byKey.values()].sort((a, b) => a.blockNumber - b.blockNumber);
    // Every transfer read is every transfer of the contract in the range: each one's transaction's other senders.
    return withOtherPayers(all, all);
  }

  /**
   * The full node's wallet/gettransactioninfobyid, not walletsolidity's: the solidity node only
   * knows a transaction once it is solidified (~57 s), and the withdrawal flow wants to see a
   * receipt (and a REVERT) as soon as it is in a block. Finality is judged against
   * finalBlock() by the caller.
   */
  async receipt(txHash: string): Promise<TransactionReceipt | null> {
    return this.transactionInfo('/wallet/gettransactioninfobyid', txHash);
  }

  /**
   * The solidity node's walletsolidity/gettransactioninfobyid: the same TransactionInfo shape
   * (tron-notes, Reading the chain), answered only for transactions in solidified blocks. TronGrid
   * serves /wallet and /walletsolidity from different nodes, and a full node may lag.
   */
  async finalReceipt(txHash: string): Promise<TransactionReceipt | null> {
    return this.transactionInfo('/walletsolidity/gettransactioninfobyid', txHash);
  }

  /** Broadcasts a signed transaction; a rebroadcast answers 'duplicate' (trongrid-payloads.ts). */
  async broadcast(signedTransaction: Record<string, unknown>): Promise<'accepted' | 'duplicate'> {
    const path = '/wallet/broadcasttransaction';
    return parseBroadcast(await this.http.request('POST', path, { body: signedTransaction }), path);
  }

  /**
   * Many balances, TOKEN_BALANCE_CONCURRENCY reads at a time, each with the usual retries. The
   * first read that still fails rejects the whole call once the reads in flight have finished:
   * a sum over some of the addresses must never be taken for the holdings.
   */
  async tokenBalances(contract: string, addresses: string[]): Promise<Map<string, bigint>> {
    const balances = new Map<string, bigint>();
    await inParallel([...new Set(addresses)], TOKEN_BALANCE_CONCURRENCY, async (address) => {
      balances.set(address, await this.tokenBalance(contract, address));
    });
    return balances;
  }

  /** TRON's USDT has USDT's own 6 decimals: its base units are the minor units. */
  usdtBalances(contract: string, addresses: string[]): Promise<Map<string, bigint>> {
    return this.tokenBalances(contract, addresses);
  }

  /**
   * A TRC-20 balance read with a constant call of `balanceOf(address)` (no transaction, no fee):
   * what the sweeper and reconciliation need to know of a deposit address or the hot wallet.
   */
  async tokenBalance(contract: string, address: string): Promise<bigint> {
    return parseTokenBalance(await this.constantCall(contract, 'balanceOf(address)', address, abiAddress(address)), CONSTANT_CALL_PATH);
  }

  /**
   * The issuer's freeze (TetherToken's `isBlackListed(address)`), one constant call per distinct
   * address, TOKEN_BALANCE_CONCURRENCY at a time. Any read that fails (an HTTP error after its
   * retries, a node's refusal, a reverted call) rejects the whole call: an address whose state is
   * unknown is never reported as not frozen.
   */
  async frozenAmong(contract: string, addresses: string[]): Promise<Set<string>> {
    if (addresses.length === 0) return new Set();
    // Once deprecated, the upgraded contract keeps the freeze list that counts.
    contract = await this.currentUsdtContract(contract);
    const frozen = new Set<string>();
    await inParallel([...new Set(addresses)], TOKEN_BALANCE_CONCURRENCY, async (address) => {
      if (parseConstantBool(await this.constantCall(contract, 'isBlackListed(address)', address, abiAddress(address)), CONSTANT_CALL_PATH)) frozen.add(address);
    });
    return frozen;
  }

  /** TetherToken's `paused()`, by a constant call from the contract's own address (a constant call
   * needs an existing caller, and any will do). */
  async tokenPaused(contract: string): Promise<boolean> {
    contract = await this.currentUsdtContract(contract);
    return parseConstantBool(await this.constantCall(contract, 'paused()', contract, ''), CONSTANT_CALL_PATH);
  }

  private readonly deprecations = new Deprecations(async (contract) => {
    if (!parseConstantBool(await this.constantCall(contract, 'deprecated()', contract, ''), CONSTANT_CALL_PATH)) return null;
    return parseConstantAddress(await this.constantCall(contract, 'upgradedAddress()', contract, ''), CONSTANT_CALL_PATH);
  });

  /** The stage's contract and, once Tether deprecated it, the upgraded one, whose events carry every
   * payment since (functions/networks/deprecations.ts). */
  usdtContracts(contract: string): Promise<string[]> {
    return this.deprecations.contracts(contract);
  }

  /** Where USDT lives now: the upgraded contract once the stage's is deprecated. */
  currentUsdtContract(contract: string): Promise<string> {
    return this.deprecations.current(contract);
  }

  /** TRX held by an address, in sun (`/wallet/getaccount`'s `balance`; java-tron leaves it out
   * at zero and answers {} for an account that was never activated). */
  async feeBalance(address: string): Promise<bigint> {
    const path = '/wallet/getaccount';
    return parseTrxBalance(await this.http.request('POST', path, { body: { address, visible: true } }), path);
  }

  /** A constant call (no transaction, no fee) of a view of `contract`, as `caller`; `parameter` is
   * the ABI-encoded arguments in hex. */
  private async constantCall(contract: string, functionSelector: string, caller: string, parameter: string): Promise<unknown> {
    return this.http.request('POST', CONSTANT_CALL_PATH, {
      body: { owner_address: tronAddressToHex(caller), contract_address: tronAddressToHex(contract), function_selector: functionSelector, parameter },
    });
  }

  /** java-tron's TransactionInfo, the same shape from /wallet and /walletsolidity. */
  private async transactionInfo(path: string, txHash: string): Promise<TransactionReceipt | null> {
    if (!TX_HASH_PATTERN.test(txHash)) throw new Error(`txHash must be 64 hex characters, got ${JSON.stringify(txHash)}`);
    return parseTransactionInfo(await this.http.request('POST', path, { body: { value: txHash } }), txHash, path);
  }

  /** Header only (`detail: false`): wallet/getblockbynum would also download every transaction. */
  private async blockByNumber(number: number): Promise<ChainBlock> {
    const path = '/wallet/getblock';
    return parseBlockByNumber(await this.http.request('POST', path, { body: { id_or_num: String(number), detail: false } }), number, path);
  }

  /** Every page of one query, following the fingerprint until TronGrid gives none. */
  private async *eventPages(contract: string, query: EventQuery): AsyncGenerator<{ events: RawEvent[]; path: string }> {
    const path = `/v1/contracts/${contract}/events`;
    const seen = new Set<string>();
    let fingerprint: string | undefined;
    do {
      // TronGrid requires every other parameter to stay the same when a fingerprint is sent.
      const params: Record<string, string> = {
        event_name: 'Transfer',
        order_by: 'block_timestamp,asc',
        limit: String(this.pageSize),
        ...Object.fromEntries(Object.entries(query).map(([name, value]) => [name, String(value)])),
      };
      if (fingerprint !== undefined) params.fingerprint = fingerprint;
      const body = await this.http.request('GET', path, { query: params });
      const page = parseEventPage(body, path);
      yield { events: page.events, path };
      fingerprint = page.fingerprint;
      if (fingerprint !== undefined) {
        // Issues report fingerprints that lead back to a page already read; stop instead of looping.
        if (seen.has(fingerprint)) throw new ChainResponseError(`${path}: TronGrid repeated a page fingerprint`, { path });
        seen.add(fingerprint);
      }
    } while (fingerprint !== undefined);
  }

  private async readApiKey(path: string): Promise<string | undefined> {
    if (!this.apiKey) return undefined;
    let key: string | undefined;
    try {
      key = await this.apiKey();
    } catch (cause) {
      throw new ChainUnavailableError(`TronGrid API key unavailable for ${path}`, { path, attempts: 0, cause });
    }
    if (key === undefined || key === '') return undefined;
    // Checked here so that fetch never throws an error quoting the key as an invalid header value.
    if (!HEADER_SAFE_PATTERN.test(key)) throw new Error('TronGrid API key has characters an HTTP header cannot carry');
    return key;
  }
}
