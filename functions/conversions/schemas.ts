import * as v from 'valibot';
import { LIST_LIMIT } from '#domain/conversions';
import { amountField, literalField, referenceField } from '#http/fields';

/** POST /v1/conversions/quote (../shared/api-contract.md, Conversions). */
export const createQuoteBody = v.strictObject({
  sourceCurrency: literalField('USDT'),
  settlementCurrency: literalField('BRL'),
  sourceAmount: amountField('USDT'),
});

/** POST /v1/conversions. `reference` is informative: unlike deposits and withdrawals, not unique. */
export const createConversionBody = v.strictObject({
  quoteId: v.string('must be a quote id string'),
  reference: v.optional(referenceField),
});

/** GET /v1/conversions query (contract, Conventions: list routes). Query values arrive as strings. */
export const listConversionsQuery = v.strictObject({
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, `must be an integer from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}`),
      v.transform(Number),
      v.minValue(LIST_LIMIT.min, `must be an integer from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}`),
      v.maxValue(LIST_LIMIT.max, `must be an integer from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}`),
    ),
  ),
  cursor: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,256}$/, 'is not a cursor returned by this list'))),
});
