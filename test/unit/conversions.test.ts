import { describe, expect, it } from 'vitest';
import {
  conversionView,
  createQuote,
  executeConversion,
  quoteRefusal,
  quoteView,
  type Conversion,
  type ConversionStore,
  type Quote,
} from '#functions/conversions/conversions';
import type { DomainEvent } from '#functions/shared/events';
import { EXTERNAL_ACCOUNTS, companyAccount, type LedgerEntry } from '#functions/ledger/ledger';
import { parseRate, type PriceSource } from '#functions/conversions/pricing';
import { ERROR_STATUS } from '#http/error-status';

const NOW = new Date('2026-01-01T12:00:00.000Z');
const COMPANY = 'cmp_01ARZ3NDEKTSV4RRFFQ69G5FAV';
const pricing = {
  priceSource: { midRate: async () => ({ rate: parseRate('5.4'), source: 'test', asOf: NOW }) } satisfies PriceSource,
  spreadBps: 50,
};

/** Keeps what the domain hands the store, so the transaction's contents can be checked without a table. */
class MemoryStore implements ConversionStore {
  quotes = new Map<string, Quote>();
  reads = 0;
  executed: { quote: Quote; conversion: Conversion; entry: LedgerEntry; event: DomainEvent }[] = [];

  async saveQuote(quote: Quote) {
    this.quotes.set(quote.id, quote);
  }
  async getQuote(companyId: string, quoteId: string) {
    this.reads++;
    const quote = this.quotes.get(quoteId);
    return quote?.companyId === companyId ? quote : null;
  }
  async executeConversion(quote: Quote, conversion: Conversion, entry: LedgerEntry, event: DomainEvent) {
    this.executed.push({ quote, conversion, entry, event });
  }
  async getConversion() {
    return null;
  }
  async listConversions() {
    return { records: [], nextCursor: null };
  }
}

describe('createQuote', () => {
  it('stores a quote at mid less spread, valid 30 s, and shows exactly the contract fields', async () => {
    const store = new MemoryStore();

    const quote = await createQuote(store, pricing, COMPANY, { sourceAmount: 10_000_000n }, NOW);

    expect(store.quotes.get(quote.id)).toEqual(quote);
    expect(quoteView(quote)).toEqual({
      id: quote.id,
      sourceCurrency: 'USDT',
      settlementCurrency: 'BRL',
      sourceAmount: '10.000000',
      settlementAmount: '53.73',
      rate: '5.37300000',
      expiresAt: '2026-01-01T12:00:30.000Z',
      createdAt: '2026-01-01T12:00:00.000Z',
    });
    expect(quote).toMatchObject({ rateSource: 'test', usedAt: null, conversionId: null });
  });
});

describe('quoteRefusal', () => {
  const quote = (change: Partial<Quote> = {}): Quote => ({
    id: 'qte_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    companyId: COMPANY,
    sourceCurrency: 'USDT',
    settlementCurrency: 'BRL',
    sourceAmount: 1n,
    settlementAmount: 1n,
    rate: 1n,
    rateSource: 'test',
    expiresAt: '2026-01-01T12:00:30.000Z',
    createdAt: '2026-01-01T12:00:00.000Z',
    usedAt: null,
    conversionId: null,
    ...change,
  });

  it('accepts a quote up to and including expiresAt, and refuses it 1 ms later with 422 QUOTE_EXPIRED', () => {
    expect(quoteRefusal(quote(), new Date('2026-01-01T12:00:30.000Z'))).toBeNull();
    const expired = quoteRefusal(quote(), new Date('2026-01-01T12:00:30.001Z'));
    expect(expired).toMatchObject({ code: 'QUOTE_EXPIRED' });
    // The status is the HTTP layer's (one table maps code to status).
    expect(ERROR_STATUS[expired!.code]).toBe(422);
  });

  it('answers 409 QUOTE_ALREADY_USED for a used quote even once it has also expired', () => {
    const used = quote({ usedAt: '2026-01-01T12:00:10.000Z', conversionId: 'cnv_01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    const refusal = quoteRefusal(used, new Date('2026-01-02T00:00:00.000Z'));
    expect(refusal).toMatchObject({ code: 'QUOTE_ALREADY_USED' });
    expect(ERROR_STATUS[refusal!.code]).toBe(409);
  });
});

describe('executeConversion', () => {
  it('hands the store one entry moving the USDT to the desk and the BRL back, and an event carrying the record', async () => {
    const store = new MemoryStore();
    const quote = await createQuote(store, pricing, COMPANY, { sourceAmount: 10_000_000n }, NOW);
    const later = new Date(NOW.getTime() + 5_000);

    const conversion = await executeConversion(store, COMPANY, { quoteId: quote.id, reference: 'fx-1' }, later);

    const [{ entry, event }] = store.executed as [(typeof store.executed)[number]];
    const available = companyAccount(COMPANY, 'available');
    expect(entry.postings).toEqual([
      { source: available, destination: EXTERNAL_ACCOUNTS.conversionDesk, currency: 'USDT', amount: 10_000_000n },
      { source: EXTERNAL_ACCOUNTS.conversionDesk, destination: available, currency: 'BRL', amount: 5_373n },
    ]);
    expect(entry.reference).toBe(`conversion:${conversion.id}`);
    expect(event).toMatchObject({ companyId: COMPANY, type: 'conversion.completed', createdAt: later.toISOString() });
    expect(JSON.parse(event.payload).data).toEqual(conversionView(conversion));
    expect(conversionView(conversion)).toMatchObject({
      quoteId: quote.id,
      reference: 'fx-1',
      sourceAmount: '10.000000',
      settlementAmount: '53.73',
      rate: '5.37300000',
      status: 'completed',
      createdAt: later.toISOString(),
      completedAt: later.toISOString(),
    });
  });

  it('answers 404 for a malformed id without reading, and for another company’s quote', async () => {
    const store = new MemoryStore();
    const quote = await createQuote(store, pricing, COMPANY, { sourceAmount: 10_000_000n }, NOW);

    await expect(executeConversion(store, COMPANY, { quoteId: 'qte_../x' }, NOW)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(store.reads).toBe(0);
    await expect(executeConversion(store, 'cmp_01BX5ZZKBKACTAV9WEVGEMMVRZ', { quoteId: quote.id }, NOW)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(store.executed).toEqual([]);
  });
});
