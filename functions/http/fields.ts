import * as v from 'valibot';
import { AmountFormatError, parseAmount, SCALE, type Currency } from '#functions/shared/money';
import { NETWORK_CHOICE, NETWORK_NAMES } from '#functions/networks/names';
import { LIST_LIMIT } from '#functions/shared/pagination';

/**
 * Field schemas shared by the routes' bodies (and the OpenAPI document). Each one says
 * in its message what a correct value looks like.
 */

/** A decimal string in the currency's scale, turned into minor units (bigint). */
export const amountField = (currency: Currency) =>
  v.pipe(
    v.unknown(),
    // What the OpenAPI document shows for this field (the parsing below is the real rule).
    v.metadata({
      type: 'string',
      pattern: amountPattern(currency),
      description: `${currency} amount: a decimal string greater than zero with at most ${SCALE[currency]} decimals, never a JSON number`,
      examples: [currency === 'USDT' ? '25.50' : '54.00'],
    }),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      try {
        return parseAmount(dataset.value, currency);
      } catch (error) {
        if (!(error instanceof AmountFormatError)) throw error;
        addIssue({ message: error.message });
        return NEVER;
      }
    }),
  );

/** parseAmount's rule as a JSON Schema pattern: no sign, exponent or leading zeros, not zero, at
 * most 12 whole digits and the currency's scale in decimals. */
export function amountPattern(currency: Currency): string {
  return `^(?!0+(\\.0+)?$)(0|[1-9]\\d{0,11})(\\.\\d{1,${SCALE[currency]}})?$`;
}

export const REFERENCE_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export const referenceField = v.pipe(
  v.string('must be a string'),
  v.regex(REFERENCE_PATTERN, 'must be 1 to 128 characters of A-Z, a-z, 0-9, ".", "_", ":" or "-"'),
);

/**
 * A withdrawal's `reference`: `split:` starts the references of the withdrawals that forward a
 * deposit's split share (`split:<dep_id>:<txHash>:<eventIndex>`), unique per company as every
 * withdrawal reference is; a withdrawal that took one first would keep that share from being
 * forwarded, and its deposit confirming, for good. So they are reserved (../shared/networks.md).
 */
export const withdrawalReferenceField = v.pipe(
  referenceField,
  v.check((reference) => !reference.toLowerCase().startsWith('split:'), 'must not start with "split:", which is reserved for the withdrawals that forward deposit splits'),
);

/** The record's `network`: one of the registered networks (functions/networks/names.ts). */
export const networkField = v.picklist(NETWORK_NAMES, NETWORK_CHOICE);

export const literalField = <T extends string>(value: T) => v.literal(value, `must be "${value}"`);

/*
 * Record fields: the shapes of what the API answers (functions/handlers/<area>/records.ts), from which the
 * OpenAPI document describes each response (functions/openapi/document.ts). Tests parse every
 * handler's real answer with them, so a view and its documented record cannot drift apart.
 */

/** An id of one kind: its prefix, then a ULID (../shared/api-contract.md, Conventions). */
export const idField = (prefix: string) =>
  v.pipe(v.string(), v.regex(new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`)), v.metadata({ examples: [`${prefix}_01JBZ6W1V7Q8R9S0T1A2V3W4X5`] }));

/** Money as answered: the currency's full scale (`"10.500000"`, `"54.00"`). */
export const amountOutField = (currency: Currency) =>
  v.pipe(
    v.string(),
    v.regex(new RegExp(`^\\d+\\.\\d{${SCALE[currency]}}$`)),
    v.description(`${currency} amount as a decimal string with all ${SCALE[currency]} decimals`),
    v.metadata({ examples: [currency === 'USDT' ? '25.500000' : '54.00'] }),
  );

/** ISO 8601 UTC with milliseconds. */
export const timeField = v.pipe(v.string(), v.isoTimestamp(), v.metadata({ examples: ['2026-01-15T12:00:00.000Z'] }));

const LIMIT_MESSAGE = `must be an integer from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}`;

/** Every list route's query (contract, Conventions: list routes). Query values arrive as strings. */
export const listQuery = v.strictObject({
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, LIMIT_MESSAGE),
      v.transform(Number),
      v.minValue(LIST_LIMIT.min, LIMIT_MESSAGE),
      v.maxValue(LIST_LIMIT.max, LIMIT_MESSAGE),
    ),
  ),
  cursor: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,256}$/, 'is not a cursor returned by this list'))),
});
