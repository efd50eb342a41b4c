import * as v from 'valibot';
import { amountField, listQuery, literalField, referenceField } from '#http/fields';

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

/** GET list query: the one every list route takes. */
export const listConversionsQuery = listQuery;
