import type { Conversion, Quote } from '#functions/conversions/conversions';
import { toBigInt } from '../client.ts';
import { companyRecord, type Item } from './item.ts';

/** An unused quote is worthless after its 30 s, but kept a week so support can see what was
 * offered; DynamoDB's TTL then deletes it. A used quote loses its TTL: it is the conversion's audit
 * trail (price source included). */
const QUOTE_RETENTION_SECONDS = 7 * 24 * 60 * 60;

/** The one owner of a stored `Quote` and `Conversion` (docs/data-model.md). */
export const quoteItem = {
  ...companyRecord('Quote', 'QUOTE#'),

  toItem: (quote: Quote): Item => ({
    ...quoteItem.head(quote.companyId, quote.id),
    ...quote,
    ttl: Math.floor(Date.parse(quote.expiresAt) / 1000) + QUOTE_RETENTION_SECONDS,
  }),
  fromItem: (item: Item): Quote => ({
    id: item.id as string,
    companyId: item.companyId as string,
    sourceCurrency: 'USDT',
    settlementCurrency: 'BRL',
    sourceAmount: toBigInt(item.sourceAmount),
    settlementAmount: toBigInt(item.settlementAmount),
    rate: toBigInt(item.rate),
    rateSource: item.rateSource as string,
    expiresAt: item.expiresAt as string,
    createdAt: item.createdAt as string,
    usedAt: (item.usedAt as string | null | undefined) ?? null,
    conversionId: (item.conversionId as string | null | undefined) ?? null,
  }),
};

export const conversionItem = {
  ...companyRecord('Conversion', 'CONVERSION#'),

  toItem: (conversion: Conversion): Item => ({
    ...conversionItem.head(conversion.companyId, conversion.id),
    ...conversion,
  }),
  fromItem: (item: Item): Conversion => ({
    id: item.id as string,
    companyId: item.companyId as string,
    quoteId: item.quoteId as string,
    reference: (item.reference as string | null | undefined) ?? null,
    sourceCurrency: 'USDT',
    settlementCurrency: 'BRL',
    sourceAmount: toBigInt(item.sourceAmount),
    settlementAmount: toBigInt(item.settlementAmount),
    rate: toBigInt(item.rate),
    status: 'completed',
    createdAt: item.createdAt as string,
    completedAt: item.completedAt as string,
  }),
};
