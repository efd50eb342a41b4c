import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { executeConversion, type ConversionStore, type Quote } from '#functions/conversions/conversions';
import type { ApiError } from '#functions/shared/errors';
import { newId } from '#functions/shared/ids';
import { formatAmount, parseAmount } from '#functions/shared/money';
import { applySpread, formatRate, parseRate, QUOTE_VALIDITY_SECONDS, settlementAmount } from '#functions/conversions/pricing';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoConversionStore } from '#adapters/dynamo/conversion-store';
import { eventItem } from '#adapters/dynamo/items/event';
import { itemsUnder } from '#adapters/dynamo/queries';
import { ERROR_STATUS } from '#http/error-status';
import { STAGES } from '../../config/stages.ts';
import { apiClient, useTestApi } from '../support/local-api.ts';
import { creditAvailable, expectLedgerMatchesBalances } from '../support/money.ts';
import { quoteItem as storedQuoteItem } from '#adapters/dynamo/items/conversion';

const api = useTestApi((db, tableName) => ({ store: new DynamoConversionStore(db, tableName) }));

/** The customer rate the local api.runtime quotes: its static mid less its spread, as the domain computes it. */
const localRate = applySpread(
  parseRate(STAGES.local.functionEnvironment.STATIC_USDT_BRL_RATE!),
  Number(STAGES.local.functionEnvironment.CONVERSION_SPREAD_BPS),
);
const expectedBrl = (usdt: string) => formatAmount(settlementAmount(parseAmount(usdt, 'USDT'), localRate), 'BRL');

async function newCompany(name: string) {
  const { company, credentials } = await createCompany(new DynamoCompanyStore(api.db, api.runtime.tableName), { name, environment: 'sandbox' });
  return { companyId: company.id, call: apiClient(api.runtime, credentials) };
}

type Call = ReturnType<typeof apiClient>;

/** A company with `usdt` available. */
async function fundedCompany(name: string, usdt: string) {
  const company = await newCompany(name);
  await creditAvailable(api.db, api.runtime.tableName, company.companyId, 'USDT', usdt);
  return company;
}

/** A company with `usdt` available and a quote to convert 10 of it. */
async function quotedCompany(name: string, usdt: string) {
  const company = await fundedCompany(name, usdt);
  return { ...company, quoteId: await quote(company.call, '10') };
}

const quoteBody = (sourceAmount: unknown) => ({ sourceCurrency: 'USDT', settlementCurrency: 'BRL', sourceAmount });

async function quote(call: Call, sourceAmount: string): Promise<string> {
  const response = await call('POST', '/conversions/quote', { body: quoteBody(sourceAmount) });
  expect(response.status).toBe(201);
  return response.body.data.id;
}

async function balances(call: Call) {
  const response = await call('GET', '/company/balance');
  const of = (currency: string) => response.body.data.balances.find((b: { currency: string }) => b.currency === currency);
  return { USDT: of('USDT'), BRL: of('BRL') };
}

const eventsOf = (companyId: string) => itemsUnder(api.db, api.runtime.tableName, eventItem.ofCompany(companyId));

async function quoteItem(companyId: string, quoteId: string) {
  const { Item } = await api.db.send(new GetCommand({ TableName: api.runtime.tableName, Key: storedQuoteItem.key(companyId, quoteId), ConsistentRead: true }));
  return Item;
}

/**
 * The real api.store, except that the domain's read of a quote sees it as `seen` says: how a race with
 * another execution or with the clock looks from the request that loses it. The transaction, and
 * its own re-read when refused, still use the table.
 */
function readingQuotesAs(seen: (quote: Quote) => Quote): ConversionStore {
  return {
    saveQuote: (quote) => api.store.saveQuote(quote),
    getQuote: async (companyId, quoteId) => {
      const found = await api.store.getQuote(companyId, quoteId);
      return found && seen(found);
    },
    executeConversion: (...args) => api.store.executeConversion(...args),
    getConversion: (companyId, id) => api.store.getConversion(companyId, id),
    listConversions: (companyId, page) => api.store.listConversions(companyId, page),
  };
}

describe('POST /v1/conversions/quote', () => {
  it('prices sourceAmount at the static mid less the spread, settlement rounded down to the cent, valid 30 s', async () => {
    const { call } = await newCompany('Quoter');

    const response = await call('POST', '/conversions/quote', { body: quoteBody('12.345678') });

    expect(response.status).toBe(201);
    const data = response.body.data;
    expect(Object.keys(data).sort()).toEqual(
      ['createdAt', 'expiresAt', 'id', 'rate', 'settlementAmount', 'settlementCurrency', 'sourceAmount', 'sourceCurrency'].sort(),
    );
    expect(data).toMatchObject({
      id: expect.stringMatching(/^qte_[0-9A-HJKMNP-TV-Z]{26}$/),
      sourceCurrency: 'USDT',
      settlementCurrency: 'BRL',
      sourceAmount: '12.345678',
      settlementAmount: expectedBrl('12.345678'),
      rate: formatRate(localRate),
    });
    expect(data.rate).toMatch(/^\d+\.\d{8}$/);
    // 12.345678 × 5.373 = 66.333327894: the fraction of a cent is not paid.
    expect(data.settlementAmount).toBe('66.33');
    expect(data.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(data.expiresAt) - Date.parse(data.createdAt)).toBe(QUOTE_VALIDITY_SECONDS * 1000);
  });

  it('keeps an unused quote a week past its expiry through the table TTL', async () => {
    const { companyId, call } = await newCompany('Retention');
    const quoteId = await quote(call, '10');

    const item = await quoteItem(companyId, quoteId);

    expect(Number(item?.ttl)).toBe(Math.floor(Date.parse(item?.expiresAt as string) / 1000) + 7 * 24 * 3600);
  });

  it.each([
    ['"0"', '0'],
    ['"-1"', '-1'],
    ['"1e3"', '1e3'],
    ['a JSON number', 1],
    ['"0.0000001" (7 decimals)', '0.0000001'],
    ['a huge amount', '1'.repeat(40)],
    ['an amount worth less than 0.01 BRL', '0.001'],
  ])('refuses sourceAmount %s with 400 VALIDATION_FAILED on sourceAmount', async (_, sourceAmount) => {
    const { call } = await newCompany('Amounts');

    const refused = await call('POST', '/conversions/quote', { body: quoteBody(sourceAmount) });

    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_FAILED');
    expect(refused.body.error.details.map((d: { path: string }) => d.path)).toContain('sourceAmount');
  });

  it.each([
    ['another source currency', { sourceCurrency: 'BTC' }, 'sourceCurrency'],
    ['another settlement currency', { settlementCurrency: 'USD' }, 'settlementCurrency'],
    ['an unknown field', { memo: 'x' }, 'memo'],
  ])('refuses %s with 400 naming the path', async (_, change, path) => {
    const { call } = await newCompany('Fields');

    const refused = await call('POST', '/conversions/quote', { body: { ...quoteBody('10'), ...change } });

    expect(refused.status).toBe(400);
    expect(refused.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });
});

describe('POST /v1/conversions', () => {
  it('debits the USDT, credits the BRL of the quote exactly, marks the quote used, and the record reads back', async () => {
    const { companyId, call } = await fundedCompany('Converter', '100');
    const quoted = await call('POST', '/conversions/quote', { body: quoteBody('12.345678') });

    const created = await call('POST', '/conversions', { body: { quoteId: quoted.body.data.id, reference: 'fx-1' } });

    expect(created.status).toBe(201);
    const data = created.body.data;
    expect(Object.keys(data).sort()).toEqual(
      [
        'completedAt',
        'createdAt',
        'id',
        'quoteId',
        'rate',
        'reference',
        'settlementAmount',
        'settlementCurrency',
        'sourceAmount',
        'sourceCurrency',
        'status',
      ].sort(),
    );
    expect(data).toMatchObject({
      id: expect.stringMatching(/^cnv_/),
      quoteId: quoted.body.data.id,
      reference: 'fx-1',
      sourceCurrency: 'USDT',
      settlementCurrency: 'BRL',
      sourceAmount: '12.345678',
      settlementAmount: quoted.body.data.settlementAmount,
      rate: quoted.body.data.rate,
      status: 'completed',
    });
    expect(data.completedAt).toBe(data.createdAt);
    expect(await balances(call)).toEqual({
      USDT: { currency: 'USDT', available: '87.654322', pending: '0.000000', locked: '0.000000' },
      BRL: { currency: 'BRL', available: '66.33', pending: '0.00', locked: '0.00' },
    });
    const read = await call('GET', `/conversions/${data.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(data);
    const usedQuote = await quoteItem(companyId, quoted.body.data.id);
    expect(usedQuote).toMatchObject({ usedAt: data.createdAt, conversionId: data.id });
    expect(usedQuote?.ttl).toBeUndefined();
    await expectLedgerMatchesBalances(api.db, api.runtime.tableName, companyId);
  });

  it('writes one conversion.completed event whose data is the conversion record, in the same transaction', async () => {
    const { companyId, call, quoteId } = await quotedCompany('Evented', '10');

    const created = await call('POST', '/conversions', { body: { quoteId } });

    const events = await eventsOf(companyId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ eventType: 'conversion.completed', companyId });
    const payload = JSON.parse(events[0]!.payload as string);
    expect(payload).toMatchObject({ id: events[0]!.id, type: 'conversion.completed', createdAt: events[0]!.createdAt });
    expect(payload.id).toMatch(/^evt_/);
    expect(payload.data).toEqual(created.body.data);
    expect(created.body.data.reference).toBeNull();
  });

  it('executes a quote exactly once: 10 concurrent requests give one 201 and nine 409 QUOTE_ALREADY_USED', async () => {
    const { companyId, call, quoteId } = await quotedCompany('Racer', '100');

    const responses = await Promise.all(Array.from({ length: 10 }, () => call('POST', '/conversions', { body: { quoteId } })));

    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = responses.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.error.code])).toEqual(Array(9).fill([409, 'QUOTE_ALREADY_USED']));
    expect(await balances(call)).toMatchObject({ USDT: { available: '90.000000' }, BRL: { available: expectedBrl('10') } });
    expect((await call('GET', '/conversions')).body.data).toHaveLength(1);
    expect(await eventsOf(companyId)).toHaveLength(1);
    await expectLedgerMatchesBalances(api.db, api.runtime.tableName, companyId);
  });

  it('refuses a quote executed before with 409 QUOTE_ALREADY_USED, naming the conversion that used it', async () => {
    const { call, quoteId } = await quotedCompany('Twice', '100');
    const first = await call('POST', '/conversions', { body: { quoteId } });
    expect(first.status).toBe(201);

    const again = await call('POST', '/conversions', { body: { quoteId } });

    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'QUOTE_ALREADY_USED', details: { conversionId: first.body.data.id } });
  });

  it.each([
    ['100', 'USDT enough for all of them', '90.000000'],
    // Once one commits, the balance refuses every other before the quote's guard is reached: the
    // quote read again still answers 409, never a 422 INSUFFICIENT_BALANCE saying nothing converted.
    ['10', 'only the USDT it covers', '0.000000'],
  ])('guards the quote in the transaction: 10 executions that all read it unused (%s USDT: %s) convert once, the others 409 naming the conversion', async (funds, _what, left) => {
    const { companyId, call, quoteId } = await quotedCompany(`Guarded ${funds}`, funds);
    // Every read answers "unused", as a retry's read taken just before another execution committed would.
    const staleReads = readingQuotesAs((found) => ({ ...found, usedAt: null, conversionId: null }));

    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => executeConversion(staleReads, companyId, { quoteId })));

    const converted = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    expect(converted).toHaveLength(1);
    const reasons = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    expect(reasons.map((r) => [r.code, r.details])).toEqual(Array(9).fill(['QUOTE_ALREADY_USED', { conversionId: converted[0]!.id }]));
    expect(await balances(call)).toMatchObject({ USDT: { available: left }, BRL: { available: expectedBrl('10') } });
    await expectLedgerMatchesBalances(api.db, api.runtime.tableName, companyId);
  });

  it('refuses an expired quote with 422 QUOTE_EXPIRED and moves nothing', async () => {
    const { companyId, call } = await fundedCompany('Late', '100');
    const past = new Date(Date.now() - 60_000);
    const quoteId = newId('quote', past.getTime());
    await api.store.saveQuote({
      id: quoteId,
      companyId,
      sourceCurrency: 'USDT',
      settlementCurrency: 'BRL',
      sourceAmount: parseAmount('10', 'USDT'),
      settlementAmount: settlementAmount(parseAmount('10', 'USDT'), localRate),
      rate: localRate,
      rateSource: 'static',
      expiresAt: new Date(past.getTime() + QUOTE_VALIDITY_SECONDS * 1000).toISOString(),
      createdAt: past.toISOString(),
      usedAt: null,
      conversionId: null,
    });

    const refused = await call('POST', '/conversions', { body: { quoteId } });

    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('QUOTE_EXPIRED');
    expect(await balances(call)).toMatchObject({ USDT: { available: '100.000000' }, BRL: { available: '0.00' } });
    expect(await eventsOf(companyId)).toHaveLength(0);
  });

  it('honours expiresAt to the millisecond: executable at expiresAt, expired 1 ms later', async () => {
    const { companyId, call } = await fundedCompany('Boundary', '100');
    const late = await call('POST', '/conversions/quote', { body: quoteBody('10') });
    const onTime = await call('POST', '/conversions/quote', { body: quoteBody('10') });

    const refusal = executeConversion(api.store, companyId, { quoteId: late.body.data.id }, new Date(Date.parse(late.body.data.expiresAt) + 1));
    await expect(refusal).rejects.toMatchObject({ code: 'QUOTE_EXPIRED' });
    // The status is the HTTP layer's (one table maps code to status): 422.
    expect(ERROR_STATUS[((await refusal.catch((error: unknown) => error)) as ApiError).code]).toBe(422);
    const done = await executeConversion(api.store, companyId, { quoteId: onTime.body.data.id }, new Date(onTime.body.data.expiresAt));
    expect(done.status).toBe('completed');
  });

  it('refuses in the transaction a quote that expires between the read and the write', async () => {
    const { companyId, call } = await fundedCompany('Slow', '100');
    const quoted = await call('POST', '/conversions/quote', { body: quoteBody('10') });
    const afterExpiry = new Date(Date.parse(quoted.body.data.expiresAt) + 1);
    // The read answers as it would have just before expiry; only the transaction's condition is left to refuse.
    const readBeforeExpiry = readingQuotesAs((found) => ({ ...found, expiresAt: new Date(afterExpiry.getTime() + 60_000).toISOString() }));

    const refusal = executeConversion(readBeforeExpiry, companyId, { quoteId: quoted.body.data.id }, afterExpiry);

    await expect(refusal).rejects.toMatchObject({ code: 'QUOTE_EXPIRED' });
    expect(await balances(call)).toMatchObject({ USDT: { available: '100.000000' }, BRL: { available: '0.00' } });
    expect((await quoteItem(companyId, quoted.body.data.id))?.usedAt).toBeNull();
  });

  it('refuses more USDT than available with 422 INSUFFICIENT_BALANCE, writes nothing, and leaves the quote usable', async () => {
    const { companyId, call, quoteId } = await quotedCompany('Short', '9.999999');

    const refused = await call('POST', '/conversions', { body: { quoteId } });

    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('INSUFFICIENT_BALANCE');
    expect(await balances(call)).toMatchObject({ USDT: { available: '9.999999' }, BRL: { available: '0.00' } });
    expect((await call('GET', '/conversions')).body.data).toEqual([]);
    expect(await eventsOf(companyId)).toHaveLength(0);
    expect((await quoteItem(companyId, quoteId))?.usedAt).toBeNull();

    await creditAvailable(api.db, api.runtime.tableName, companyId, 'USDT', '0.000001');
    const funded = await call('POST', '/conversions', { body: { quoteId } });
    expect(funded.status).toBe(201);
    expect(await balances(call)).toMatchObject({ USDT: { available: '0.000000' }, BRL: { available: expectedBrl('10') } });
    await expectLedgerMatchesBalances(api.db, api.runtime.tableName, companyId);
  });

  it('answers 404 for another company’s quote and conversion, as for unknown or malformed ids', async () => {
    const owner = await newCompany('Owner');
    const other = await newCompany('Other');
    await creditAvailable(api.db, api.runtime.tableName, owner.companyId, 'USDT', '100');
    await creditAvailable(api.db, api.runtime.tableName, other.companyId, 'USDT', '100');
    const ownersQuote = await quote(owner.call, '10');
    const ownersUnusedQuote = await quote(owner.call, '10');
    const conversion = await owner.call('POST', '/conversions', { body: { quoteId: ownersQuote } });

    for (const quoteId of [ownersUnusedQuote, ownersQuote, 'qte_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'nonsense', conversion.body.data.id]) {
      const response = await other.call('POST', '/conversions', { body: { quoteId } });
      expect(response.status, quoteId).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
    for (const id of [conversion.body.data.id, 'cnv_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'nonsense', ownersQuote]) {
      const response = await other.call('GET', `/conversions/${id}`);
      expect(response.status, id).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
    expect((await other.call('GET', '/conversions')).body.data).toEqual([]);
    expect(await balances(other.call)).toMatchObject({ USDT: { available: '100.000000' }, BRL: { available: '0.00' } });
    // The owner's quote is still unused after the other company's attempt.
    expect((await owner.call('POST', '/conversions', { body: { quoteId: ownersUnusedQuote } })).status).toBe(201);
  });

  it.each([
    ['a missing quoteId', {}, 'quoteId'],
    ['a numeric quoteId', { quoteId: 42 }, 'quoteId'],
    ['a reference with spaces', { quoteId: 'qte_01ARZ3NDEKTSV4RRFFQ69G5FAV', reference: 'has space' }, 'reference'],
    ['a reference over 128 characters', { quoteId: 'qte_01ARZ3NDEKTSV4RRFFQ69G5FAV', reference: 'r'.repeat(129) }, 'reference'],
    ['an unknown field', { quoteId: 'qte_01ARZ3NDEKTSV4RRFFQ69G5FAV', amount: '1' }, 'amount'],
  ])('refuses %s with 400 naming the path', async (_, body, path) => {
    const { call } = await newCompany('Body');

    const refused = await call('POST', '/conversions', { body });

    expect(refused.status).toBe(400);
    expect(refused.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('lets two conversions share a reference: it is the integrator’s label, not a key', async () => {
    const { call } = await fundedCompany('Labels', '100');

    const first = await call('POST', '/conversions', { body: { quoteId: await quote(call, '10'), reference: 'batch-7' } });
    const second = await call('POST', '/conversions', { body: { quoteId: await quote(call, '10'), reference: 'batch-7' } });

    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.data.id).not.toBe(first.body.data.id);
  });

  it('replays a retried request with the same Idempotency-Key instead of answering 409', async () => {
    const { call, quoteId } = await quotedCompany('Retry', '100');
    const send = () => call('POST', '/conversions', { body: { quoteId }, headers: { 'Idempotency-Key': 'cnv-retry-1' } });

    const first = await send();
    const replay = await send();

    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await balances(call)).toMatchObject({ USDT: { available: '90.000000' } });
  });
});

describe('GET /v1/conversions', () => {
  async function companyWithConversions(count: number) {
    const company = await newCompany('Lister');
    await creditAvailable(api.db, api.runtime.tableName, company.companyId, 'USDT', '1000');
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const created = await company.call('POST', '/conversions', { body: { quoteId: await quote(company.call, `${i + 1}`) } });
      ids.push(created.body.data.id);
    }
    return { ...company, newestFirst: ids.reverse() };
  }

  it('lists newest first, 20 by default, with nextCursor null when all fit', async () => {
    const { call, newestFirst } = await companyWithConversions(3);

    const response = await call('GET', '/conversions');

    expect(response.status).toBe(200);
    expect(response.body.data.map((c: { id: string }) => c.id)).toEqual(newestFirst);
    expect(response.body.pagination).toEqual({ nextCursor: null });
    expect(response.body.data[0]).toEqual((await call('GET', `/conversions/${newestFirst[0]}`)).body.data);
  });

  it('pages through 5 conversions with limit 2: pages of 2, 2 and 1, the last with nextCursor null', async () => {
    const { call, newestFirst } = await companyWithConversions(5);

    const pages: string[][] = [];
    const cursors: (string | null)[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2';
      const response = await call('GET', `/conversions${query}`);
      expect(response.status).toBe(200);
      pages.push(response.body.data.map((c: { id: string }) => c.id));
      cursor = response.body.pagination.nextCursor;
      cursors.push(cursor);
    } while (cursor && pages.length < 10);

    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(newestFirst);
    expect(cursors.slice(0, 2).every((c) => typeof c === 'string' && /^[A-Za-z0-9_-]+$/.test(c))).toBe(true);
    expect(cursors[2]).toBeNull();
  });

  it('reads a cursor against the caller’s own conversions only', async () => {
    const owner = await companyWithConversions(3);
    const other = await newCompany('Snooper');
    const ownersCursor = (await owner.call('GET', '/conversions?limit=1')).body.pagination.nextCursor;

    const response = await other.call('GET', `/conversions?cursor=${ownersCursor}`);

    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
  });

  it.each([
    ['limit 0', 'limit=0', 'limit'],
    ['limit 101', 'limit=101', 'limit'],
    ['limit "abc"', 'limit=abc', 'limit'],
    ['limit 1.5', 'limit=1.5', 'limit'],
    ['an empty limit', 'limit=', 'limit'],
    ['a cursor that is not base64url', 'cursor=not*a*cursor', 'cursor'],
    ['a cursor naming another kind of item', `cursor=${Buffer.from('WITHDRAWAL#wdr_01ARZ3NDEKTSV4RRFFQ69G5FAV').toString('base64url')}`, 'cursor'],
    ['a cursor naming another partition', `cursor=${Buffer.from('COMPANY#cmp_01ARZ3NDEKTSV4RRFFQ69G5FAV').toString('base64url')}`, 'cursor'],
    ['a cursor with a malformed id', `cursor=${Buffer.from('CONVERSION#cnv_nonsense').toString('base64url')}`, 'cursor'],
    ['an unknown parameter', 'limt=5', 'limt'],
    // Names of Object prototype members are plain parameter names: 400, never a 500.
    ['constructor', 'constructor=1', 'constructor'],
    ['__proto__', '__proto__=1', '__proto__'],
    ['toString twice', 'toString=1&toString=2', 'toString'],
  ])('refuses %s with 400 VALIDATION_FAILED naming the parameter', async (_, query, path) => {
    const { call } = await newCompany('BadQuery');

    const refused = await call('GET', `/conversions?${query}`);

    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_FAILED');
    expect(refused.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });
});
