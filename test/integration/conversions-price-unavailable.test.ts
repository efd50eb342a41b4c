import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { itemsUnder } from '#adapters/dynamo/queries';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import type { IssuedCredentials } from '#functions/api-keys/api-keys';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { ROUTES } from '#functions/routes';
import { STAGES } from '../../config/stages.ts';
import { freshTable } from '../support/dynamo.ts';
import { quoteItem } from '#adapters/dynamo/items/conversion';

/**
 * The quote route over a price source that is down (an HTTP ticker answering 503 on loopback),
 * through the local gateway and a real socket. The local runtime always quotes on its static
 * rate, so this file serves the real handler module with its own environment.
 */
let ticker: Server;
let api: Server;
let baseUrl: string;
let credentials: IssuedCredentials;
let companyId: string;
let table: Awaited<ReturnType<typeof freshTable>>;
let tickerCalls = 0;

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

beforeAll(async () => {
  ticker = createServer((_, res) => {
    tickerCalls++;
    res.writeHead(503).end('upstream down');
  });
  const tickerPort = await listen(ticker);
  table = await freshTable();
  Object.assign(process.env, STAGES.local.functionEnvironment, {
    STAGE: 'local',
    TABLE_NAME: table.tableName,
    DYNAMODB_ENDPOINT: table.endpoint,
    PRICE_SOURCE: 'http',
    PRICE_SOURCE_URL: `http://127.0.0.1:${tickerPort}`,
  });
  let company;
  ({ company, credentials } = await createCompany(new DynamoCompanyStore(table.db, table.tableName), { name: 'No Price', environment: 'sandbox' }));
  companyId = company.id;
  const { createLocalApi } = await import('#local/api-server');
  api = await createLocalApi({ config: STAGES.local, routes: ROUTES.filter((route) => route.path === '/v1/conversions/quote') });
  baseUrl = `http://127.0.0.1:${await listen(api)}/v1`;
});

afterAll(async () => {
  for (const server of [api, ticker]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
});

it('answers 503 PRICE_UNAVAILABLE without upstream details when no current price can be had, and stores no quote', async () => {
  const response = await fetch(`${baseUrl}/conversions/quote`, {
    method: 'POST',
    headers: { 'X-Api-Key': credentials.apiKey, 'X-Api-Secret': credentials.apiSecret, 'Content-Type': 'application/json' },
    body: JSON.stringify({ sourceCurrency: 'USDT', settlementCurrency: 'BRL', sourceAmount: '10' }),
  });
  const text = await response.text();

  expect(response.status).toBe(503);
  expect(JSON.parse(text)).toEqual({
    success: false,
    error: { code: 'PRICE_UNAVAILABLE', message: 'No current USDT/BRL price is available; retry shortly', details: null },
  });
  expect(text).not.toContain('127.0.0.1');
  expect(tickerCalls).toBe(2);
  expect(await itemsUnder(table.db, table.tableName, quoteItem.ofCompany(companyId))).toEqual([]);
});
