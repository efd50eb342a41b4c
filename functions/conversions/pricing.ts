import { validationFailed } from '../shared/errors.ts';
import { SCALE } from '../shared/money.ts';

/**
 * The exchange-rate side of USDT → BRL conversions (../shared/api-contract.md, Conversions).
 * A rate is BRL per 1 USDT as an integer at RATE_SCALE decimals, like money: never a JS number,
 * because a float cannot hold 5.41234567 exactly and the settlement must be reproducible to the
 * cent from the sourceAmount and rate shown to the customer.
 */
export const RATE_SCALE = 8;

/** BRL per 1 USDT × 10^RATE_SCALE. */
export type Rate = bigint;

export type Pair = 'USDT/BRL';

/** The contract: a quote is valid 30 s. */
export const QUOTE_VALIDITY_SECONDS = 30;

/** A mid price older than this is not quoted on: the market may have moved past the spread. */
export const MAX_PRICE_AGE_MS = 60_000;

export const MAX_SPREAD_BPS = 10_000;

/** Far above any plausible USDT/BRL price; bounds the input like MAX_WHOLE_DIGITS does for money. */
const MAX_RATE_WHOLE_DIGITS = 12;

export class RateFormatError extends Error {
  override name = 'RateFormatError';
}

/**
 * No trustworthy price right now (upstream down, slow, stale or answering garbage). The HTTP layer
 * maps it to a 5xx: a quote is refused rather than priced on a guess.
 */
export class PriceUnavailableError extends Error {
  override name = 'PriceUnavailableError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export interface MidPrice {
  rate: Rate;
  source: string;
  asOf: Date;
}

/** The port: where the market's mid price comes from. */
export interface PriceSource {
  midRate(pair: Pair): Promise<MidPrice>;
}

/** Parses a positive decimal string with at most RATE_SCALE decimals: "5.412" → 541_200_000n. */
export function parseRate(value: string): Rate {
  if (typeof value !== 'string') throw new RateFormatError('rate must be a decimal string');
  const match = /^(0|[1-9]\d*)(?:\.(\d+))?$/.exec(value);
  if (!match) throw new RateFormatError(`rate must be a positive decimal string such as "5.41200000", got ${JSON.stringify(value)}`);
  const whole = match[1]!;
  const fraction = match[2] ?? '';
  if (fraction.length > RATE_SCALE) throw new RateFormatError(`rate must have at most ${RATE_SCALE} decimal places`);
  if (whole.length > MAX_RATE_WHOLE_DIGITS) throw new RateFormatError(`rate must be below 10^${MAX_RATE_WHOLE_DIGITS}`);
  const rate = BigInt(whole + fraction.padEnd(RATE_SCALE, '0'));
  if (rate === 0n) throw new RateFormatError('rate must be greater than zero');
  return rate;
}

/** Always RATE_SCALE decimals: 541_200_000n → "5.41200000". */
export function formatRate(rate: Rate): string {
  if (rate < 0n) throw new RangeError('rate cannot be negative');
  const digits = rate.toString().padStart(RATE_SCALE + 1, '0');
  return `${digits.slice(0, -RATE_SCALE)}.${digits.slice(-RATE_SCALE)}`;
}

/**
 * The customer's rate when Cambio buys USDT and pays BRL: mid less the spread, rounded down so
 * that any remainder falls in Cambio's favour, never the customer's by accident.
 */
export function applySpread(mid: Rate, spreadBps: number): Rate {
  if (!Number.isInteger(spreadBps) || spreadBps < 0 || spreadBps > MAX_SPREAD_BPS) {
    throw new RangeError(`spread must be an integer number of basis points in 0..${MAX_SPREAD_BPS}, got ${spreadBps}`);
  }
  if (mid <= 0n) throw new RangeError('mid rate must be positive');
  return (mid * BigInt(MAX_SPREAD_BPS - spreadBps)) / BigInt(MAX_SPREAD_BPS);
}

/** USDT minor × rate has 6 + 8 decimals; BRL minor units keep 2. */
const SETTLEMENT_DIVISOR = 10n ** BigInt(SCALE.USDT + RATE_SCALE - SCALE.BRL);

/**
 * BRL minor units for a USDT amount: "settlementAmount = sourceAmount × rate, rounded down to the
 * cent" (contract, Conversions). Inputs are non-negative, so bigint truncation is the floor.
 */
export function settlementAmount(sourceUsdtMinor: bigint, rate: Rate): bigint {
  if (sourceUsdtMinor < 0n || rate < 0n) throw new RangeError('amount and rate must be non-negative');
  return (sourceUsdtMinor * rate) / SETTLEMENT_DIVISOR;
}

export interface QuoteTermsInput {
  sourceAmountMinor: bigint;
  spreadBps: number;
  now: Date;
  /** Refuse a mid price older than this, measured against `now`. */
  maxPriceAgeMs?: number;
}

export interface QuoteTerms {
  /** The customer rate (mid less spread): the one shown in the quote and used for settlement. */
  rate: Rate;
  settlementAmountMinor: bigint;
  expiresAt: Date;
  rateSource: string;
}

/**
 * Prices a quote. Any failure to get a fresh mid price becomes PriceUnavailableError, so the only
 * outcomes are a quote on a current price, a validation error, or a 5xx: never a quote on a stale one.
 */
export async function quoteTerms(priceSource: PriceSource, input: QuoteTermsInput): Promise<QuoteTerms> {
  const { sourceAmountMinor, spreadBps, now, maxPriceAgeMs = MAX_PRICE_AGE_MS } = input;

  let mid: MidPrice;
  try {
    mid = await priceSource.midRate('USDT/BRL');
  } catch (error) {
    if (error instanceof PriceUnavailableError) throw error;
    throw new PriceUnavailableError('USDT/BRL price source failed', { cause: error });
  }
  // A source's clock may run a little ahead of `now` (the static source stamps its own time), so
  // only age is checked, not a future asOf.
  const ageMs = now.getTime() - mid.asOf.getTime();
  if (!(ageMs <= maxPriceAgeMs)) {
    throw new PriceUnavailableError(`USDT/BRL price from ${mid.source} is stale (as of ${mid.asOf.toISOString()}, ${ageMs} ms old)`);
  }
  if (mid.rate <= 0n) throw new PriceUnavailableError(`USDT/BRL price from ${mid.source} is not positive`);

  const rate = applySpread(mid.rate, spreadBps);
  if (rate === 0n) throw new PriceUnavailableError('USDT/BRL customer rate is zero after the spread');

  const settlementAmountMinor = settlementAmount(sourceAmountMinor, rate);
  if (settlementAmountMinor === 0n) {
    throw validationFailed([{ path: 'sourceAmount', message: 'is too small to convert to at least 0.01 BRL' }]);
  }

  return {
    rate,
    settlementAmountMinor,
    expiresAt: new Date(now.getTime() + QUOTE_VALIDITY_SECONDS * 1000),
    rateSource: mid.source,
  };
}
