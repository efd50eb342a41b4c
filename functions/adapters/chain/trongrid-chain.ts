import type { ChainBlock, ChainReader, TokenTransfer, TransactionReceipt } from '#domain/chain';
import { isTronAddress, tronAddressFromHex, tronAddressToHex } from '#domain/tron-address';

/**
 * ChainReader over TronGrid's HTTP API with plain fetch: tronweb would add ~1.2 MB to the bundle
 * for four calls (../shared/tron-notes.md, Size).
 *
 * Addresses come back base58 `T…`, amounts as bigint. Nothing here decides confirmations: events
 * are returned confirmed or not, and the scanner compares them with solidifiedBlock().
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

/** The request path (never the API key, which travels in a header) and the last HTTP status. */
interface TronGridErrorDetails {
  path: string;
  status?: number;
  attempts: number;
  cause?: unknown;
}

/**
 * TronGrid did not answer usefully within the attempts allowed: 429, 5xx, network errors and
 * timeouts, or a Retry-After longer than we are willing to wait. Worth trying again later.
 */
export class ChainUnavailableError extends Error {
  readonly path: string;
  readonly status?: number;
  readonly attempts: number;

  constructor(message: string, { path, status, attempts, cause }: TronGridErrorDetails) {
    super(message, { cause });
    this.name = 'ChainUnavailableError';
    this.path = path;
    this.status = status;
    this.attempts = attempts;
  }
}

/**
 * TronGrid answered, but with a refusal (4xx other than 429, `success: false`, an `Error` field)
 * or with something this adapter cannot read. Repeating the same request would not help.
 */
export class ChainResponseError extends Error {
  readonly path: string;
  readonly status?: number;

  constructor(message: string, { path, status, cause }: Omit<TronGridErrorDetails, 'attempts'>) {
    super(message, { cause });
    this.name = 'ChainResponseError';
    this.path = path;
    this.status = status;
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
const TX_HASH_PATTERN = /^[0-9a-fA-F]{64}$/;
const UINT_PATTERN = /^\d+$/;
/** Printable ASCII without spaces: anything else makes fetch throw with the header value in its message. */
const HEADER_SAFE_PATTERN = /^[\x21-\x7e]+$/;

/** One item of `data` from GET /v1/contracts/{address}/events (developers.tron.network, Events). */
interface RawEvent {
  transaction_id?: unknown;
  event_index?: unknown;
  block_number?: unknown;
  block_timestamp?: unknown;
  contract_address?: unknown;
  event_name?: unknown;
  result?: unknown;
}

type EventQuery = { block_number: number } | { min_block_timestamp: number; max_block_timestamp: number };

/** Worth another attempt: the upstream said so (429, or 403, which TronGrid also uses when a key
 * is over its limits: ../shared/tron-notes.md) or failed on its side (5xx). */
class RetryableStatus extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterMs: number | undefined,
  ) {
    super(`HTTP ${status}`);
  }
}

export class TronGridChain implements ChainReader {
  private readonly baseUrl: string;
  private readonly apiKey?: () => Promise<string | undefined>;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly backoffBaseMs: number;
  private readonly maxBackoffMs: number;
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
    this.baseUrl = new URL(baseUrl).href.replace(/\/+$/, '');
    this.apiKey = apiKey;
    this.fetchImpl = fetchImpl ?? ((input, init) => fetch(input, init));
    this.timeoutMs = timeoutMs;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error(`maxAttempts must be a positive integer, got ${maxAttempts}`);
    this.maxAttempts = maxAttempts;
    this.backoffBaseMs = backoffBaseMs;
    this.maxBackoffMs = maxBackoffMs;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      throw new Error(`pageSize must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${pageSize}`);
    }
    this.pageSize = pageSize;
  }

  async latestBlock(): Promise<ChainBlock> {
    const path = '/wallet/getnowblock';
    return parseBlock(await this.request('POST', path), path);
  }

  async solidifiedBlock(): Promise<ChainBlock> {
    const path = '/walletsolidity/getnowblock';
    return parseBlock(await this.request('POST', path), path);
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
    return [...byKey.values()].sort((a, b) => a.blockNumber - b.blockNumber);
  }

  /**
   * The full node's wallet/gettransactioninfobyid, not walletsolidity's: the solidity node only
   * knows a transaction once it is solidified (~57 s), and the withdrawal flow wants to see a
   * receipt (and a REVERT) as soon as it is in a block. Finality is judged against
   * solidifiedBlock() by the caller.
   */
  async receipt(txHash: string): Promise<TransactionReceipt | null> {
    return this.transactionInfo('/wallet/gettransactioninfobyid', txHash);
  }

  /**
   * The solidity node's walletsolidity/gettransactioninfobyid: the same TransactionInfo shape
   * (tron-notes, Reading the chain), answered only for transactions in solidified blocks. TronGrid
   * serves /wallet and /walletsolidity from different nodes, and a full node may lag.
   */
  async solidifiedReceipt(txHash: string): Promise<TransactionReceipt | null> {
    return this.transactionInfo('/walletsolidity/gettransactioninfobyid', txHash);
  }

  /**
   * Broadcasts a signed transaction. A rebroadcast of one the network already has answers
   * DUP_TRANSACTION_ERROR: that is success for us (../shared/tron-notes.md, Sending).
   */
  async broadcast(signedTransaction: Record<string, unknown>): Promise<'accepted' | 'duplicate'> {
    const path = '/wallet/broadcasttransaction';
    const body = await this.request('POST', path, { body: signedTransaction });
    if (isObject(body) && body.result === true) return 'accepted';
    if (isObject(body) && body.code === 'DUP_TRANSACTION_ERROR') return 'duplicate';
    const code = isObject(body) ? body.code : undefined;
    const message = isObject(body) && typeof body.message === 'string' ? Buffer.from(body.message, 'hex').toString('utf8') : '';
    throw new ChainResponseError(`${path} refused the transaction: ${describe(code)} ${message}`.trim(), { path });
  }

  /**
   * Many balances, TOKEN_BALANCE_CONCURRENCY reads at a time, each with the usual retries. The
   * first read that still fails rejects the whole call once the reads in flight have finished:
   * a sum over some of the addresses must never be taken for the holdings.
   */
  async tokenBalances(contract: string, addresses: string[]): Promise<Map<string, bigint>> {
    const unique = [...new Set(addresses)];
    const balances = new Map<string, bigint>();
    let next = 0;
    let failure: { error: unknown } | undefined;
    const worker = async () => {
      while (!failure && next < unique.length) {
        const address = unique[next++]!;
        try {
          balances.set(address, await this.tokenBalance(contract, address));
        } catch (error) {
          failure ??= { error };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(TOKEN_BALANCE_CONCURRENCY, unique.length) }, worker));
    if (failure) throw failure.error;
    return balances;
  }

  /**
   * A TRC-20 balance read with a constant call of `balanceOf(address)` (no transaction, no fee):
   * what the sweeper and reconciliation need to know of a deposit address or the hot wallet.
   */
  async tokenBalance(contract: string, address: string): Promise<bigint> {
    const path = '/wallet/triggerconstantcontract';
    const body = await this.request('POST', path, {
      body: {
        owner_address: tronAddressToHex(address),
        contract_address: tronAddressToHex(contract),
        function_selector: 'balanceOf(address)',
        parameter: tronAddressToHex(address).slice(2).padStart(64, '0'),
      },
    });
    const result = isObject(body) && Array.isArray(body.constant_result) ? body.constant_result[0] : undefined;
    if (typeof result !== 'string' || !/^[0-9a-fA-F]{64}$/.test(result)) {
      throw new ChainResponseError(`${path} answered ${describe(isObject(body) ? body.constant_result : body)}, expected one 32-byte word`, { path });
    }
    return BigInt(`0x${result}`);
  }

  /** TRX held by an address, in sun (`/wallet/getaccount`'s `balance`; java-tron leaves it out
   * at zero and answers {} for an account that was never activated). */
  async trxBalance(address: string): Promise<bigint> {
    const path = '/wallet/getaccount';
    const body = await this.request('POST', path, { body: { address, visible: true } });
    if (!isObject(body)) throw new ChainResponseError(`${path} answered ${describe(body)}, expected an object`, { path });
    if (body.balance === undefined) return 0n;
    if (typeof body.balance !== 'number' || !Number.isSafeInteger(body.balance) || body.balance < 0) {
      throw new ChainResponseError(`${path} answered balance ${describe(body.balance)}, expected a whole number of sun`, { path });
    }
    return BigInt(body.balance);
  }

  /** java-tron's TransactionInfo, the same shape from /wallet and /walletsolidity. */
  private async transactionInfo(path: string, txHash: string): Promise<TransactionReceipt | null> {
    if (!TX_HASH_PATTERN.test(txHash)) throw new Error(`txHash must be 64 hex characters, got ${JSON.stringify(txHash)}`);
    const body = await this.request('POST', path, { body: { value: txHash } });
    if (!isObject(body)) throw new ChainResponseError(`${path} answered ${describe(body)}, expected an object`, { path });
    // java-tron answers {} for a transaction it does not know (not yet in a block, or forked out).
    if (Object.keys(body).length === 0) return null;
    if (typeof body.id !== 'string' || body.id.toLowerCase() !== txHash.toLowerCase()) {
      throw new ChainResponseError(`${path} answered for transaction ${describe(body.id)}, asked for ${txHash}`, { path });
    }
    if (!isBlockNumber(body.blockNumber)) throw new ChainResponseError(`${path} answered blockNumber ${describe(body.blockNumber)}`, { path });
    // receipt.result is the contract's outcome (SUCCESS, REVERT, OUT_OF_ENERGY…); a plain TRX
    // transfer has none, and the top-level result is then the only verdict (FAILED, or absent).
    const contractResult = isObject(body.receipt) ? body.receipt.result : undefined;
    const result = typeof contractResult === 'string' && contractResult !== '' ? contractResult : body.result === 'FAILED' ? 'FAILED' : 'SUCCESS';
    return { txHash: body.id, blockNumber: body.blockNumber, result };
  }

  /** Header only (`detail: false`): wallet/getblockbynum would also download every transaction. */
  private async blockByNumber(number: number): Promise<ChainBlock> {
    const path = '/wallet/getblock';
    const body = await this.request('POST', path, { body: { id_or_num: String(number), detail: false } });
    if (isObject(body) && Object.keys(body).length === 0) {
      throw new ChainResponseError(`${path}: block ${number} does not exist (yet)`, { path });
    }
    const block = parseBlock(body, path);
    if (block.number !== number) throw new ChainResponseError(`${path} answered block ${block.number}, asked for ${number}`, { path });
    return block;
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
      const body = await this.request('GET', path, { query: params });
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

  /** One logical request: attempts with backoff, then ChainUnavailableError. Resolves to the parsed JSON body. */
  private async request(method: 'GET' | 'POST', path: string, { query, body }: { query?: Record<string, string>; body?: unknown } = {}): Promise<unknown> {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value);
    const fullPath = url.pathname;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const key = await this.readApiKey(fullPath);
    if (key) headers[API_KEY_HEADER] = key;
    const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };

    const failures: unknown[] = [];
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(url, init, fullPath);
      } catch (error) {
        if (!isRetryable(error)) throw error;
        failures.push(error);
        const status = error instanceof RetryableStatus ? error.status : undefined;
        const retryAfterMs = error instanceof RetryableStatus ? error.retryAfterMs : undefined;
        const unavailable = (why: string) =>
          new ChainUnavailableError(`TronGrid ${method} ${fullPath} unavailable ${why}: ${reason(error)}`, {
            path: fullPath,
            status,
            attempts: attempt,
            cause: failures.length === 1 ? error : new AggregateError(failures, `${failures.length} attempts failed`),
          });
        if (retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS) {
          throw unavailable(`(asked to retry after ${Math.ceil(retryAfterMs / 1000)} s)`);
        }
        if (attempt >= this.maxAttempts) throw unavailable(`after ${attempt} attempt${attempt === 1 ? '' : 's'}`);
        await sleep(Math.max(retryAfterMs ?? 0, this.backoff(attempt)));
      }
    }
  }

  private async attempt(url: URL, init: RequestInit, path: string): Promise<unknown> {
    const response = await this.fetchImpl(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
    if (response.status === 429 || response.status === 403 || response.status >= 500) {
      await response.body?.cancel().catch(() => undefined);
      throw new RetryableStatus(response.status, parseRetryAfter(response.headers.get('retry-after')));
    }
    const text = await response.text();
    if (!response.ok) {
      throw new ChainResponseError(`TronGrid ${init.method} ${path} refused: HTTP ${response.status} ${excerpt(text)}`, {
        path,
        status: response.status,
      });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (cause) {
      throw new ChainResponseError(`TronGrid ${init.method} ${path} answered a body that is not JSON: ${excerpt(text)}`, { path, status: response.status, cause });
    }
    // java-tron reports failures as HTTP 200 with {"Error": "..."}; TronGrid v1 with success: false.
    if (isObject(parsed) && (parsed.success === false || 'Error' in parsed)) {
      const detail = parsed.Error ?? parsed.error ?? parsed.message;
      throw new ChainResponseError(`TronGrid ${init.method} ${path} answered an error: ${excerpt(typeof detail === 'string' ? detail : JSON.stringify(detail ?? null))}`, {
        path,
        status: response.status,
      });
    }
    return parsed;
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

  /** Capped exponential backoff with equal jitter: between half and all of base·2^(attempt-1). */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.maxBackoffMs, this.backoffBaseMs * 2 ** (attempt - 1));
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }
}

/** Network errors and timeouts reject fetch itself; an HTTP answer is retried only for 429, 403 and 5xx. */
function isRetryable(error: unknown): boolean {
  if (error instanceof RetryableStatus) return true;
  return error instanceof TypeError || (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError'));
}

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, nowMs = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (UINT_PATTERN.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

function parseBlock(body: unknown, path: string): ChainBlock {
  const header = isObject(body) && isObject(body.block_header) && isObject(body.block_header.raw_data) ? body.block_header.raw_data : undefined;
  if (!isObject(body) || !header || typeof body.blockID !== 'string' || !isBlockNumber(header.number) || !isBlockNumber(header.timestamp)) {
    throw new ChainResponseError(`${path} answered no readable block (blockID, block_header.raw_data.number/timestamp)`, { path });
  }
  return { number: header.number, hash: body.blockID, timestamp: new Date(header.timestamp).toISOString() };
}

function parseEventPage(body: unknown, path: string): { events: RawEvent[]; fingerprint?: string } {
  if (!isObject(body) || !Array.isArray(body.data)) throw new ChainResponseError(`${path} answered no data array`, { path });
  const events = body.data.filter(isObject) as RawEvent[];
  if (events.length !== body.data.length) throw new ChainResponseError(`${path} answered data items that are not objects`, { path });
  const meta = isObject(body.meta) ? body.meta : {};
  let fingerprint = typeof meta.fingerprint === 'string' && meta.fingerprint !== '' ? meta.fingerprint : undefined;
  // meta.links.next is a full URL on TronGrid's own host: only its fingerprint is taken, so that
  // the API key is never sent anywhere but the configured base URL.
  if (fingerprint === undefined && isObject(meta.links) && typeof meta.links.next === 'string') {
    fingerprint = fingerprintOf(meta.links.next);
  }
  return { events, fingerprint };
}

function fingerprintOf(nextUrl: string): string | undefined {
  try {
    return new URL(nextUrl).searchParams.get('fingerprint') || undefined;
  } catch {
    return undefined;
  }
}

/** The TokenTransfer in one TronGrid event, or undefined when it is not a Transfer of `contract`. */
function toTransfer(raw: RawEvent, contract: string, path: string): TokenTransfer | undefined {
  const fail = (what: string) => new ChainResponseError(`${path}: event ${describe(raw.transaction_id)}#${describe(raw.event_index)} has ${what}`, { path });
  if (raw.event_name !== 'Transfer') return undefined;
  // An unreadable emitter fails the call rather than dropping the event: a format change at
  // TronGrid must not look like a quiet chain.
  const emitter = typeof raw.contract_address === 'string' ? toBase58(raw.contract_address) : undefined;
  if (!emitter) throw fail(`contract_address ${describe(raw.contract_address)}, not a TRON address`);
  // Anyone can deploy a token named USDT (tron-notes, Reading the chain): only the contract asked for counts.
  if (emitter !== contract) return undefined;

  if (typeof raw.transaction_id !== 'string' || !TX_HASH_PATTERN.test(raw.transaction_id)) throw fail('no 64-hex transaction_id');
  // Documented as a string on one TronGrid page and returned as a number in practice: accept both.
  const eventIndex = typeof raw.event_index === 'string' && UINT_PATTERN.test(raw.event_index) ? Number(raw.event_index) : raw.event_index;
  if (!isBlockNumber(eventIndex)) throw fail(`event_index ${describe(raw.event_index)}`);
  if (!isBlockNumber(raw.block_number)) throw fail(`block_number ${describe(raw.block_number)}`);
  const result = isObject(raw.result) ? raw.result : {};
  const from = typeof result.from === 'string' ? toBase58(result.from) : undefined;
  const to = typeof result.to === 'string' ? toBase58(result.to) : undefined;
  if (!from) throw fail(`result.from ${describe(result.from)}, not a TRON address`);
  if (!to) throw fail(`result.to ${describe(result.to)}, not a TRON address`);
  // A JSON number would already have lost precision above 2^53; only the decimal string is trusted.
  if (typeof result.value !== 'string' || !UINT_PATTERN.test(result.value)) throw fail(`result.value ${describe(result.value)}, not a decimal string`);

  return {
    txHash: raw.transaction_id,
    eventIndex,
    blockNumber: raw.block_number,
    contract,
    from,
    to,
    amount: BigInt(result.value),
  };
}

/** base58 `T…` from base58, `0x` + 20-byte hex or `41…` hex; undefined for anything else. */
function toBase58(address: string): string | undefined {
  if (isTronAddress(address)) return address;
  try {
    return tronAddressFromHex(address);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isBlockNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function describe(value: unknown): string {
  return value === undefined ? 'undefined' : excerpt(JSON.stringify(value));
}

function excerpt(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function reason(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return 'timed out';
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
