/**
 * Money is integer minor units (bigint) inside and a decimal string with the currency's full
 * scale outside (../shared/api-contract.md, Conventions). Never a JS number: a float cannot
 * hold 0.1 USDT exactly, and a company's balance must sum to the unit.
 */
export const CURRENCIES = ['USDT', 'BRL'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const SCALE: Record<Currency, number> = { USDT: 6, BRL: 2 };

/**
 * An amount of a network's own coin (its `feeAsset`: TRX, ETH, SOL…), which pays its transactions'
 * fees: what a payout cost Cambio on its network is told in one (a withdrawal's `networkCost`).
 * Not a currency: no company's balance or ledger entry holds it. It carries its coin's decimals, as
 * the network that told it gave them, so nothing outside the network's folder lists the coins.
 */
export interface CoinAmount {
  asset: string;
  decimals: number;
  /** The coin's base units: sun, wei, lamports. */
  amount: bigint;
}

/** `amount` base units of a network's coin, as its `feeAsset` names it. */
export const inCoin = (coin: { symbol: string; decimals: number }, amount: bigint): CoinAmount => ({ asset: coin.symbol, decimals: coin.decimals, amount });

/** Largest amount accepted at the edge: 10^12 units of the currency, far above any real payment,
 * and small enough that sums of many of them stay exact in DynamoDB's 38-digit numbers. */
const MAX_WHOLE_DIGITS = 12;

export class AmountFormatError extends Error {}

/**
 * Parses a positive decimal string into minor units. Rejects what the contract rejects: more
 * decimals than the currency has, zero, a sign, exponent notation, spaces, leading '+' or '.',
 * and anything that is not a string.
 */
export function parseAmount(value: unknown, currency: Currency): bigint {
  if (typeof value !== 'string') throw new AmountFormatError('must be a decimal string, e.g. "10.50"');
  const scale = SCALE[currency];
  const match = /^(0|[1-9]\d*)(?:\.(\d+))?$/.exec(value);
  if (!match) throw new AmountFormatError('must be a positive decimal string such as "10.50", without sign or exponent');
  const whole = match[1]!;
  const fraction = match[2] ?? '';
  if (fraction.length > scale) throw new AmountFormatError(`must have at most ${scale} decimal places for ${currency}`);
  if (whole.length > MAX_WHOLE_DIGITS) throw new AmountFormatError(`must be below 10^${MAX_WHOLE_DIGITS}`);
  const minor = BigInt(whole + fraction.padEnd(scale, '0'));
  if (minor === 0n) throw new AmountFormatError('must be greater than zero');
  return minor;
}

/** A USDT fee as a setting writes it: parseAmount's amount, or zero ("0", "0.00"), which waives it. */
export function parseFeeAmount(value: string): bigint {
  return /^0(\.0+)?$/.test(value) ? 0n : parseAmount(value, 'USDT');
}

/** Formats minor units with the currency's full scale: 10500000n USDT → "10.500000". */
export function formatAmount(minor: bigint, currency: Currency): string {
  return formatUnits(minor, SCALE[currency]);
}

/** Formats a network coin's base units with all its decimals: 2044280n lamports, 9 → "0.002044280". */
export function formatCoinAmount({ amount, decimals }: Pick<CoinAmount, 'amount' | 'decimals'>): string {
  return formatUnits(amount, decimals);
}

function formatUnits(minor: bigint, scale: number): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}
