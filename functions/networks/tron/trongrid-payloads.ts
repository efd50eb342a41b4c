import type { ChainBlock, TokenTransfer, TransactionReceipt } from '#functions/networks/chain';
import { isTronAddress, tronAddressFromHex } from './tron-address.ts';
import { tron } from './network.ts';
import { inCoin } from '../../shared/money.ts';
import { excerpt } from '#adapters/http/json-client';

/**
 * What TronGrid and java-tron answer, read into the chain's own types: pure functions of a parsed
 * JSON body, no I/O. Anything unexpected throws ChainResponseError: a format change at TronGrid
 * must fail loudly, never look like a quiet chain.
 */

/**
 * TronGrid answered, but with a refusal (4xx other than 429, `success: false`, an `Error` field)
 * or with something this adapter cannot read. Repeating the same request would not help.
 */
export class ChainResponseError extends Error {
  readonly path: string;
  readonly status?: number;

  constructor(message: string, { path, status, cause }: { path: string; status?: number; cause?: unknown }) {
    super(message, { cause });
    this.name = 'ChainResponseError';
    this.path = path;
    this.status = status;
  }
}

export const TX_HASH_PATTERN = /^[0-9a-fA-F]{64}$/;
const UINT_PATTERN = /^\d+$/;

/** One item of `data` from GET /v1/contracts/{address}/events (developers.tron.network, Events). */
export interface RawEvent {
  transaction_id?: unknown;
  event_index?: unknown;
  block_number?: unknown;
  block_timestamp?: unknown;
  contract_address?: unknown;
  event_name?: unknown;
  result?: unknown;
}

/** java-tron reports failures as HTTP 200 with {"Error": "..."}; TronGrid v1 with success: false. */
export function refusalIn(body: unknown): string | undefined {
  if (!isObject(body) || (body.success !== false && !('Error' in body))) return undefined;
  const detail = body.Error ?? body.error ?? body.message;
  return excerpt(typeof detail === 'string' ? detail : JSON.stringify(detail ?? null));
}

export function parseBlock(body: unknown, path: string): ChainBlock {
  const header = isObject(body) && isObject(body.block_header) && isObject(body.block_header.raw_data) ? body.block_header.raw_data : undefined;
  if (!isObject(body) || !header || typeof body.blockID !== 'string' || !isBlockNumber(header.number) || !isBlockNumber(header.timestamp)) {
    throw new ChainResponseError(`${path} answered no readable block (blockID, block_header.raw_data.number/timestamp)`, { path });
  }
  return { number: header.number, hash: body.blockID, timestamp: new Date(header.timestamp).toISOString() };
}

/** wallet/getblock's answer for block `number`, header only. */
export function parseBlockByNumber(body: unknown, number: number, path: string): ChainBlock {
  if (isObject(body) && Object.keys(body).length === 0) {
    throw new ChainResponseError(`${path}: block ${number} does not exist (yet)`, { path });
  }
  const block = parseBlock(body, path);
  if (block.number !== number) throw new ChainResponseError(`${path} answered block ${block.number}, asked for ${number}`, { path });
  return block;
}

export function parseEventPage(body: unknown, path: string): { events: RawEvent[]; fingerprint?: string } {
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

/**
 * The block of /v1/blocks/latest/events: the newest block with events in TronGrid's event database
 * (its events all carry its `block_number`). An empty answer is an error, not "nothing indexed":
 * mainnet has events in every block, and a scan capped at an invented height would stall or skip.
 */
export function parseLatestIndexedBlock(body: unknown, path: string): Pick<ChainBlock, 'number' | 'timestamp'> {
  const { events } = parseEventPage(body, path);
  if (events.length === 0) throw new ChainResponseError(`${path} answered no event: the event index's newest block is unknown`, { path });
  const newest = events.reduce((a, b) => (Number(b.block_number) > Number(a.block_number) ? b : a));
  if (!isBlockNumber(newest.block_number) || !isBlockNumber(newest.block_timestamp)) {
    throw new ChainResponseError(`${path} answered an event without its block_number and block_timestamp`, { path });
  }
  return { number: newest.block_number, timestamp: new Date(newest.block_timestamp).toISOString() };
}

function fingerprintOf(nextUrl: string): string | undefined {
  try {
    return new URL(nextUrl).searchParams.get('fingerprint') || undefined;
  } catch {
    return undefined;
  }
}

/** The TokenTransfer in one TronGrid event, or undefined when it is not a Transfer of `contract`. */
export function toTransfer(raw: RawEvent, contract: string, path: string): TokenTransfer | undefined {
  const fail = (what: string) => new ChainResponseError(`${path}: event ${describe(raw.transaction_id)}#${describe(raw.event_index)} has ${what}`, { path });
  if (raw.event_name !== 'Transfer') return undefined;
  // An unreadable emitter fails the call rather than dropping the event.
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

/** java-tron's TransactionInfo, the same shape from /wallet and /walletsolidity; null for {}. */
export function parseTransactionInfo(body: unknown, txHash: string, path: string): TransactionReceipt | null {
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
  // `fee`: the TRX (sun) burnt for the energy and bandwidth the sender had not staked; absent when none.
  if (body.fee !== undefined && !(Number.isSafeInteger(body.fee) && (body.fee as number) >= 0)) throw new ChainResponseError(`${path} answered fee ${describe(body.fee)}`, { path });
  const feePayerCost = inCoin(tron.feeAsset, BigInt((body.fee as number | undefined) ?? 0));
  const { transfers, unreadable } = transferLogs(body.log, path);
  return { txHash: body.id, blockNumber: body.blockNumber, result, tokenTransfers: transfers, ...(unreadable.length && { unreadableTransfers: unreadable }), feePayerCost };
}

/** keccak256("Transfer(address,address,uint256)"): a TRC-20 Transfer event's first topic. */
const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/**
 * The Transfer events among a TransactionInfo's `log` entries ({address, topics, data}, hex without
 * 0x; the address without its 41): what the transaction delivered, the fee to Tether's issuer
 * included as its own event. USDT on TRON has 6 decimals, as amounts outside. A log with the
 * Transfer topic that is not one (any contract can emit one, without data: java-tron then leaves
 * `data` out) is listed by its emitter in `unreadable`: a payer's contract emitting one beside its
 * real USDT transfer made every final deposit's receipt throw, and no TRON deposit of any company
 * was credited while it stood.
 */
function transferLogs(log: unknown, path: string): { transfers: { contract: string; to: string; amount: bigint }[]; unreadable: string[] } {
  if (log === undefined) return { transfers: [], unreadable: [] };
  if (!Array.isArray(log)) throw new ChainResponseError(`${path} answered log ${describe(log)}, expected a list`, { path });
  const transfers: { contract: string; to: string; amount: bigint }[] = [];
  const unreadable: string[] = [];
  for (const entry of log) {
    if (!isObject(entry) || !Array.isArray(entry.topics) || entry.topics[0] !== TRANSFER_TOPIC || entry.topics.length !== 3) continue;
    if (typeof entry.address !== 'string' || !/^(41)?[0-9a-f]{40}$/i.test(entry.address)) {
      throw new ChainResponseError(`${path} answered a log without its contract's address: ${describe(entry)}`, { path });
    }
    const contract = tronAddressFromHex(`0x${entry.address.slice(-40)}`);
    const [, , toTopic] = entry.topics as unknown[];
    if (typeof toTopic !== 'string' || typeof entry.data !== 'string' || !/^[0-9a-f]{64}$/i.test(entry.data) || !/^[0-9a-f]{64}$/i.test(toTopic)) {
      unreadable.push(contract);
      continue;
    }
    transfers.push({ contract, to: tronAddressFromHex(`0x${toTopic.slice(24)}`), amount: BigInt(`0x${entry.data}`) });
  }
  return { transfers, unreadable };
}

/**
 * wallet/broadcasttransaction's verdict. A rebroadcast of one the network already has answers
 * DUP_TRANSACTION_ERROR: that is success for us (../shared/tron-notes.md, Sending).
 */
export function parseBroadcast(body: unknown, path: string): 'accepted' | 'duplicate' {
  if (isObject(body) && body.result === true) return 'accepted';
  if (isObject(body) && body.code === 'DUP_TRANSACTION_ERROR') return 'duplicate';
  const code = isObject(body) ? body.code : undefined;
  const message = isObject(body) && typeof body.message === 'string' ? Buffer.from(body.message, 'hex').toString('utf8') : '';
  throw new ChainResponseError(`${path} refused the transaction: ${describe(code)} ${message}`.trim(), { path });
}

/** The one 32-byte word of a constant `balanceOf(address)` call. */
export function parseTokenBalance(body: unknown, path: string): bigint {
  const result = isObject(body) && Array.isArray(body.constant_result) ? body.constant_result[0] : undefined;
  if (typeof result !== 'string' || !/^[0-9a-fA-F]{64}$/.test(result)) {
    throw new ChainResponseError(`${path} answered ${describe(isObject(body) ? body.constant_result : body)}, expected one 32-byte word`, { path });
  }
  return BigInt(`0x${result}`);
}

/**
 * The answer of a constant call to a `bool` view (TetherToken's `isBlackListed(address)`,
 * `paused()`): one 32-byte word, 0 or 1. A reverted or refused call (no word, a revert reason, a
 * `result` without `result: true`) throws: a token whose controls cannot be read is never taken
 * for one that has frozen nothing.
 */
export function parseConstantBool(body: unknown, path: string): boolean {
  const outcome = isObject(body) && isObject(body.result) ? body.result : undefined;
  const word = isObject(body) && Array.isArray(body.constant_result) ? body.constant_result[0] : undefined;
  if (outcome?.result !== true || typeof word !== 'string' || !/^0{63}[01]$/.test(word)) {
    const message = typeof outcome?.message === 'string' ? hexText(outcome.message) : '';
    const code = outcome?.code === undefined ? '' : ` ${describe(outcome.code)}`;
    throw new ChainResponseError(
      `${path} answered${code}${message ? ` (${excerpt(message)})` : ''} ${describe(isObject(body) ? body.constant_result : body)}, expected one 32-byte bool word`,
      { path },
    );
  }
  return word.endsWith('1');
}

/** A constant call's one address word (`upgradedAddress()`), as base58 `T…`. */
export function parseConstantAddress(body: unknown, path: string): string {
  const outcome = isObject(body) && isObject(body.result) ? body.result : undefined;
  const word = isObject(body) && Array.isArray(body.constant_result) ? body.constant_result[0] : undefined;
  if (outcome?.result !== true || typeof word !== 'string' || !/^0{24}[0-9a-fA-F]{40}$/.test(word)) {
    throw new ChainResponseError(`${path} answered ${describe(isObject(body) ? body.constant_result : body)}, expected one address word`, { path });
  }
  return tronAddressFromHex(`0x${word.slice(24)}`);
}

/** java-tron's messages come hex-encoded; anything else is kept as it is. */
function hexText(message: string): string {
  return /^(?:[0-9a-fA-F]{2})+$/.test(message) ? Buffer.from(message, 'hex').toString('utf8') : message;
}

/** wallet/getaccount's `balance` in sun: java-tron leaves it out at zero and answers {} for an
 * account that was never activated. */
export function parseTrxBalance(body: unknown, path: string): bigint {
  if (!isObject(body)) throw new ChainResponseError(`${path} answered ${describe(body)}, expected an object`, { path });
  if (body.balance === undefined) return 0n;
  if (typeof body.balance !== 'number' || !Number.isSafeInteger(body.balance) || body.balance < 0) {
    throw new ChainResponseError(`${path} answered balance ${describe(body.balance)}, expected a whole number of sun`, { path });
  }
  return BigInt(body.balance);
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
