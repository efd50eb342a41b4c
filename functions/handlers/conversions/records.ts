import * as v from 'valibot';
import { RATE_SCALE } from '#functions/conversions/pricing';
import { amountOutField, idField, timeField } from '#http/fields';

const rateField = v.pipe(
  v.string(),
  v.regex(new RegExp(`^\\d+\\.\\d{${RATE_SCALE}}$`)),
  v.description(`BRL per USDT with ${RATE_SCALE} decimals, Cambio's spread included`),
);

/** POST /v1/conversions/quote (../shared/api-contract.md, Conversions): valid 30 s. */
export const quoteRecord = v.strictObject({
  id: idField('qte'),
  sourceCurrency: v.literal('USDT'),
  settlementCurrency: v.literal('BRL'),
  sourceAmount: amountOutField('USDT'),
  settlementAmount: v.pipe(amountOutField('BRL'), v.description('sourceAmount × rate, rounded down to the cent')),
  rate: rateField,
  expiresAt: timeField,
  createdAt: timeField,
});

/** The conversion record; also the `data` of conversion.completed. */
export const conversionRecord = v.strictObject({
  id: idField('cnv'),
  quoteId: idField('qte'),
  reference: v.nullable(v.string()),
  sourceCurrency: v.literal('USDT'),
  settlementCurrency: v.literal('BRL'),
  sourceAmount: amountOutField('USDT'),
  settlementAmount: amountOutField('BRL'),
  rate: rateField,
  status: v.literal('completed'),
  createdAt: timeField,
  completedAt: timeField,
});
