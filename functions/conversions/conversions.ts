import { pageRequest, type Page, type PageRequest } from '../shared/pagination.ts';
import type { Alongside, AlongsideOf } from '../shared/alongside.ts';
import { ApiError } from '../shared/errors.ts';
import { domainEvent, type DomainEvent } from '../shared/events.ts';
import { foundById, newId } from '../shared/ids.ts';
import { companyAccount, EXTERNAL_ACCOUNTS, ledgerEntry, type LedgerEntry } from '../ledger/ledger.ts';
import { formatAmount } from '../shared/money.ts';
import { formatRate, PriceUnavailableError, quoteTerms, type PriceSource, type QuoteTerms, type Rate } from './pricing.ts';

/**
 * USDT → BRL conversions (../shared/api-contract.md, Conversions): a quote fixes the rate for
 * 30 s; executing it debits USDT, credits BRL and marks the quote used, all in one transaction.
 */
export interface Quote {
  id: string;
  companyId: string;
  sourceCurrency: 'USDT';
  settlementCurrency: 'BRL';
  /** USDT minor units. */
  sourceAmount: bigint;
  /** BRL minor units: sourceAmount × rate, rounded down to the cent. */
  settlementAmount: bigint;
  rate: Rate;
  /** Where the mid price came from; kept for audit, not shown. */
  rateSource: string;
  expiresAt: string;
  createdAt: string;
  usedAt: string | null;
  conversionId: string | null;
}

export interface Conversion {
  id: string;
  companyId: string;
  quoteId: string;
  /** The integrator's own label; informative, not unique (unlike deposit and withdrawal references). */
  reference: string | null;
  sourceCurrency: 'USDT';
  settlementCurrency: 'BRL';
  sourceAmount: bigint;
  settlementAmount: bigint;
  rate: Rate;
  status: 'completed';
  createdAt: string;
  completedAt: string;
}



export interface ConversionStore {
  saveQuote(quote: Quote): Promise<void>;
  getQuote(companyId: string, quoteId: string): Promise<Quote | null>;
  /**
   * One transaction: the quote marked used (refused unless it is still unused and unexpired at
   * `conversion.createdAt`), the conversion, its ledger entry with the guarded USDT debit, and the
   * event. Throws QUOTE_ALREADY_USED, QUOTE_EXPIRED or INSUFFICIENT_BALANCE as the guards say.
   */
  /** `alongside`: written in the same transaction (the request's answer: functions/shared/alongside.ts). */
  executeConversion(quote: Quote, conversion: Conversion, entry: LedgerEntry, event: DomainEvent, alongside?: Alongside): Promise<void>;
  getConversion(companyId: string, conversionId: string): Promise<Conversion | null>;
  /** Newest first. An unreadable cursor is VALIDATION_FAILED on `cursor`. */
  listConversions(companyId: string, page: PageRequest): Promise<Page<Conversion>>;
}

export interface QuotePricing {
  priceSource: PriceSource;
  spreadBps: number;
}

export async function createQuote(
  store: ConversionStore,
  pricing: QuotePricing,
  companyId: string,
  input: { sourceAmount: bigint },
  now = new Date(),
): Promise<Quote> {
  let terms: QuoteTerms;
  try {
    terms = await quoteTerms(pricing.priceSource, { sourceAmountMinor: input.sourceAmount, spreadBps: pricing.spreadBps, now });
  } catch (error) {
    if (!(error instanceof PriceUnavailableError)) throw error;
    // Refuse rather than quote on a guess (pricing.ts); the upstream's failure is the cause, for the log only.
    throw new ApiError('PRICE_UNAVAILABLE', 'No current USDT/BRL price is available; retry shortly', null, { cause: error });
  }
  const quote: Quote = {
    id: newId('quote', now.getTime()),
    companyId,
    sourceCurrency: 'USDT',
    settlementCurrency: 'BRL',
    sourceAmount: input.sourceAmount,
    settlementAmount: terms.settlementAmountMinor,
    rate: terms.rate,
    rateSource: terms.rateSource,
    expiresAt: terms.expiresAt.toISOString(),
    createdAt: now.toISOString(),
    usedAt: null,
    conversionId: null,
  };
  await store.saveQuote(quote);
  return quote;
}

/** `conversionId`: the conversion that used it (`details.conversionId`), so a client whose first
 * answer was lost learns which one without searching by its (not unique) reference. */
export const quoteAlreadyUsed = (conversionId: string | null): ApiError =>
  new ApiError('QUOTE_ALREADY_USED', 'This quote has already been executed', { conversionId });

export const quoteExpired = (expiresAt: string): ApiError =>
  new ApiError('QUOTE_EXPIRED', `This quote expired at ${expiresAt}; request a new one`);

/** Why the quote cannot be executed at `now`, or null. A used quote is 409 even once it has also
 * expired, so a client retrying a conversion that went through learns that it did. */
export function quoteRefusal(quote: Quote, now: Date): ApiError | null {
  if (quote.usedAt !== null) return quoteAlreadyUsed(quote.conversionId);
  if (now.getTime() > Date.parse(quote.expiresAt)) return quoteExpired(quote.expiresAt);
  return null;
}

export async function executeConversion(
  store: ConversionStore,
  companyId: string,
  input: { quoteId: string; reference?: string },
  now = new Date(),
  answer?: AlongsideOf<Conversion>,
): Promise<Conversion> {
  const quote = await foundById('quote', input.quoteId, (id) => store.getQuote(companyId, id), 'Quote');
  const refusal = quoteRefusal(quote, now);
  if (refusal) throw refusal;

  const createdAt = now.toISOString();
  const conversion: Conversion = {
    id: newId('conversion', now.getTime()),
    companyId,
    quoteId: quote.id,
    reference: input.reference ?? null,
    sourceCurrency: quote.sourceCurrency,
    settlementCurrency: quote.settlementCurrency,
    sourceAmount: quote.sourceAmount,
    settlementAmount: quote.settlementAmount,
    rate: quote.rate,
    status: 'completed',
    createdAt,
    completedAt: createdAt,
  };
  // The desk takes the USDT and pays the BRL: both legs in one entry, so the company's USDT debit
  // (guarded) and BRL credit cannot be split.
  const available = companyAccount(companyId, 'available');
  const entry = ledgerEntry(
    companyId,
    `conversion:${conversion.id}`,
    [
      { source: available, destination: EXTERNAL_ACCOUNTS.conversionDesk, currency: 'USDT', amount: quote.sourceAmount },
      { source: EXTERNAL_ACCOUNTS.conversionDesk, destination: available, currency: 'BRL', amount: quote.settlementAmount },
    ],
    now,
  );
  const event = domainEvent(companyId, 'conversion.completed', conversionView(conversion), now);
  await store.executeConversion(quote, conversion, entry, event, answer?.(conversion));
  return conversion;
}

export async function getConversion(store: ConversionStore, companyId: string, conversionId: string): Promise<Conversion> {
  return foundById('conversion', conversionId, (id) => store.getConversion(companyId, id), 'Conversion');
}

export async function listConversions(store: ConversionStore, companyId: string, query: { limit?: number; cursor?: string }): Promise<Page<Conversion>> {
  return store.listConversions(companyId, pageRequest(query));
}

/** The contract's quote. */
export function quoteView(quote: Quote) {
  return {
    id: quote.id,
    sourceCurrency: quote.sourceCurrency,
    settlementCurrency: quote.settlementCurrency,
    sourceAmount: formatAmount(quote.sourceAmount, 'USDT'),
    settlementAmount: formatAmount(quote.settlementAmount, 'BRL'),
    rate: formatRate(quote.rate),
    expiresAt: quote.expiresAt,
    createdAt: quote.createdAt,
  };
}

/** The contract's conversion record; also the `data` of `conversion.completed`. */
export function conversionView(conversion: Conversion) {
  return {
    id: conversion.id,
    quoteId: conversion.quoteId,
    reference: conversion.reference,
    sourceCurrency: conversion.sourceCurrency,
    settlementCurrency: conversion.settlementCurrency,
    sourceAmount: formatAmount(conversion.sourceAmount, 'USDT'),
    settlementAmount: formatAmount(conversion.settlementAmount, 'BRL'),
    rate: formatRate(conversion.rate),
    status: conversion.status,
    createdAt: conversion.createdAt,
    completedAt: conversion.completedAt,
  };
}
