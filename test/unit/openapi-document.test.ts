import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '#functions/routes';
import { ERROR_STATUS } from '#http/error-status';
import { EVENT_TYPES } from '#functions/shared/events';
import { AmountFormatError, parseAmount } from '#functions/shared/money';
import { amountPattern } from '#http/fields';
import { CLIENT_TYPES_FILE, clientTypes, OPENAPI_FILE, openApiJson } from '#functions/openapi/artifacts';
import { ROUTE_DOCS } from '#functions/openapi/route-docs';
import { NETWORK_NAMES, registeredNetworks } from '#functions/networks/registry';
import { envelopeName, routeKey } from '#functions/openapi/document';
import { documentedPath } from '#functions/openapi/servers';
import { loadOpenApi, openApiValidators, type OpenApiDocument } from '../support/openapi.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const committed = (file: string) => readFileSync(`${ROOT}${file}`, 'utf8');
const REGENERATE = 'generated from the code and committed: run `npm run openapi` and commit the result, never edit it by hand';

describe('openapi.json', () => {
  it('is exactly what the code generates', () => {
    expect(committed(OPENAPI_FILE), `${OPENAPI_FILE} is ${REGENERATE}`).toBe(openApiJson());
  });

  it('gives the Node client the types generated from it', async () => {
    expect(committed(CLIENT_TYPES_FILE), `${CLIENT_TYPES_FILE} is ${REGENERATE}`).toBe(await clientTypes(committed(OPENAPI_FILE)));
  });

  it('is a valid OpenAPI 3.1 document for a third-party validator (swagger-parser)', async () => {
    const api = await SwaggerParser.validate(loadOpenApi() as never);
    expect((api as { openapi?: string }).openapi).toBe('3.1.0');
  });

  it('names no host of its own: a deployed stage is its API Gateway URL, else the local runtime', () => {
    const doc = loadOpenApi() as OpenApiDocument & { servers: { url: string; variables?: Record<string, { default: string; enum?: string[] }> }[] };
    // Each server is exactly the base URL a client is given (ApiUrl, ending in /v1) and the paths
    // are relative to it, so a generated client calls …/v1/company, never …/v1/v1/company.
    expect(doc.servers.map((server) => server.url)).toEqual(['https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}/v1', 'http://127.0.0.1:{port}/v1']);
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/v1'))).toEqual([]);
    expect(Object.keys(doc.paths).map((path) => `/v1${path}`).sort()).toEqual([...new Set(ROUTES.map((route) => route.path))].sort());
    const [stage, local] = doc.servers;
    expect(Object.keys(stage!.variables!).sort()).toEqual(['region', 'restApiId', 'stage']);
    expect(stage!.variables!.stage).toMatchObject({ enum: ['sandbox', 'production'], default: 'sandbox' });
    expect(local!.variables!.port!.default).toBe('3000');
  });

  it('documents every route of the route table, and nothing else', () => {
    const doc = loadOpenApi();
    const documented = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(ROUTES.map((route) => `${route.method} ${documentedPath(route.path)}`).sort());
    expect(Object.keys(ROUTE_DOCS).sort()).toEqual(ROUTES.map(routeKey).sort());
  });

  it('requires both X-Api-Key and X-Api-Secret on every route', () => {
    const doc = loadOpenApi();
    expect(doc.components.securitySchemes).toEqual({
      ApiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Api-Key' }),
      ApiSecret: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Api-Secret' }),
    });
    // One requirement object naming both: both are needed (two objects would mean either).
    expect(doc.security).toEqual([{ ApiKey: [], ApiSecret: [] }]);
    for (const route of ROUTES) {
      const operation = doc.paths[documentedPath(route.path)]![route.method.toLowerCase()];
      expect(operation.security, routeKey(route)).toBeUndefined();
      expect(Object.keys(operation.responses)).toContain('401');
    }
  });

  it('offers Idempotency-Key on every POST, and Idempotent-Replayed on its answers', () => {
    const doc = loadOpenApi();
    for (const route of ROUTES.filter((r) => r.method === 'POST')) {
      const operation = doc.paths[documentedPath(route.path)]!.post;
      expect(operation.parameters, routeKey(route)).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
      for (const response of Object.values<any>(operation.responses)) expect(response.headers).toHaveProperty('Idempotent-Replayed');
    }
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false });
  });

  it('pages list routes with limit and cursor, and pagination.nextCursor in the envelope', () => {
    const doc = loadOpenApi();
    const lists = Object.entries(ROUTE_DOCS).filter(([, d]) => d.success.list);
    expect(lists.map(([key]) => key).sort()).toEqual(['GET /v1/conversions', 'GET /v1/webhooks']);
    for (const [key, routeDoc] of lists) {
      const operation = doc.paths[documentedPath(key.split(' ')[1]!)]!.get;
      expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual(['limit', 'cursor']);
      expect(operation.parameters[0].schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
      expect(operation.responses['200'].content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${envelopeName(routeDoc)}` });
      expect(doc.components.schemas[envelopeName(routeDoc)].properties.pagination.properties.nextCursor.type).toEqual(['string', 'null']);
    }
    expect(lists.map(([, routeDoc]) => envelopeName(routeDoc)).sort()).toEqual(['ConversionList', 'WebhookList']);
  });

  it('documents every contract error code on some route, each under its HTTP status', () => {
    const doc = loadOpenApi();
    const seen = new Set<string>();
    for (const item of Object.values(doc.paths)) {
      for (const operation of Object.values<any>(item)) {
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          if (Number(status) < 400) continue;
          expect(response.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
          const codes: string[] = response['x-error-codes'];
          expect(codes.length).toBeGreaterThan(0);
          for (const code of codes) {
            expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS]).toBe(Number(status));
            seen.add(code);
          }
        }
      }
    }
    expect([...seen].sort()).toEqual(Object.keys(ERROR_STATUS).sort());
    expect(doc.components.schemas.ErrorResponse.properties.error.properties.code.enum.sort()).toEqual(Object.keys(ERROR_STATUS).sort());
  });

  it('answers every route with a named envelope: DepositResponse, ConversionList, ErrorResponse, …', () => {
    const doc = loadOpenApi();
    const inline: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          const ref: unknown = response.content?.['application/json']?.schema?.$ref;
          if (typeof ref !== 'string' || !doc.components.schemas[ref.replace('#/components/schemas/', '')]) inline.push(`${method} ${path} ${status}`);
        }
      }
    }
    expect(inline).toEqual([]);
    expect(doc.paths['/deposits/{id}']!.get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/DepositResponse' });
    expect(doc.components.schemas.DepositResponse).toMatchObject({
      required: ['success', 'data'],
      properties: { success: { const: true }, data: { $ref: '#/components/schemas/Deposit' } },
    });
  });

  // For generated types, openapi-types.typecheck.ts: `npm test` type-checks it.
  it('takes a deposit split as exactly one of percent and amount', () => {
    const validate = openApiValidators().component('CreateDepositRequest');
    const deposit = { method: 'usdt', network: 'tron', reference: 'order-1' };
    const address = 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui';

    expect(validate({ ...deposit, split: { address, percent: 10 } })).toBe(true);
    expect(validate({ ...deposit, split: { address, amount: '5' } })).toBe(true);
    expect(validate({ ...deposit, split: { address, percent: 10, amount: '5' } })).toBe(false);
    expect(validate({ ...deposit, split: { address } })).toBe(false);
  });

  it("names every registered network in `network`, and takes each network's example address where an address goes", () => {
    const doc = loadOpenApi();
    for (const name of ['CreateDepositRequest', 'CreateWithdrawalRequest', 'Deposit', 'Withdrawal']) {
      expect(doc.components.schemas[name].properties.network.enum, name).toEqual([...NETWORK_NAMES]);
    }
    const validate = openApiValidators().component('CreateWithdrawalRequest');
    for (const network of registeredNetworks()) {
      const body = { method: 'usdt', network: network.name, address: network.address.example, amount: '5', reference: 'payout-1' };
      expect(validate(body), network.name).toBe(true);
      expect(doc.components.schemas.CreateWithdrawalRequest.properties.address.description).toContain(network.title);
    }
  });

  it('shows examples that its own schemas accept (ids in Crockford base32, as the id patterns say)', () => {
    const doc = loadOpenApi();
    const validators = openApiValidators(doc);
    const failures: string[] = [];
    const visit = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      if (Array.isArray(schema.examples) && (schema.type || schema.pattern || schema.enum || schema.const)) {
        const { examples, ...rules } = schema;
        const check = validators.schema(rules);
        for (const example of examples) if (!check(example)) failures.push(`${at}: ${JSON.stringify(example)}`);
      }
      for (const [key, child] of Object.entries(schema)) visit(child, `${at}/${key}`);
    };
    visit(doc.components.schemas, '#/components/schemas');
    for (const [type, item] of Object.entries(doc.webhooks)) {
      for (const parameter of item.post.parameters) {
        if (!validators.schema(parameter.schema)(parameter.example)) failures.push(`webhook ${type} header ${parameter.name}`);
      }
    }
    expect(failures).toEqual([]);
    // Ids shown anywhere else (request examples, descriptions): a ULID is Crockford base32, no I, L, O or U.
    const ids = JSON.stringify(doc).match(/\b(?:cmp|dep|wdr|qte|cnv|whk|evt)_[0-9A-Za-z]{26}\b/g) ?? [];
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.filter((id) => !/^[a-z]{3}_[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(id))).toEqual([]);
  });

  it('describes every event type as a webhook, and the dashboard\'s test event, with the Standard Webhooks signature headers', () => {
    const doc = loadOpenApi();
    expect(Object.keys(doc.webhooks)).toEqual([...EVENT_TYPES, 'webhook.test']);
    // A test event is documented as delivered, but no webhook can subscribe to it.
    expect(doc.components.schemas.WebhookRequest.properties.events.items.enum).not.toContain('webhook.test');
    for (const type of [...EVENT_TYPES, 'webhook.test'] as const) {
      const headers = doc.webhooks[type]!.post.parameters.map((p: { name: string; in: string; required: boolean }) => `${p.in}:${p.name}:${p.required}`);
      expect(headers).toEqual(['header:webhook-id:true', 'header:webhook-timestamp:true', 'header:webhook-signature:true']);
    }
  });

  it('shows request examples that its own schemas accept', () => {
    const doc = loadOpenApi();
    const validators = openApiValidators(doc);
    for (const route of ROUTES) {
      const path = documentedPath(route.path);
      const body = doc.paths[path]![route.method.toLowerCase()].requestBody;
      if (!body) continue;
      const validate = validators.requestBody(path, route.method);
      expect(validate(body.content['application/json'].example), `${routeKey(route)}: ${validators.errorsText(validate)}`).toBe(true);
    }
  });

  it('states the amount rule with a pattern that agrees with the parser', () => {
    const samples = ['1', '0.5', '10.50', '25.123456', '999999999999.999999', '0', '0.000000', '00.5', '1.', '.5', '-1', '1e3', '+1', ' 1', '1.1234567', '1000000000000'];
    for (const currency of ['USDT', 'BRL'] as const) {
      const pattern = new RegExp(amountPattern(currency));
      for (const sample of samples) {
        let parses = true;
        try {
          parseAmount(sample, currency);
        } catch (error) {
          if (!(error instanceof AmountFormatError)) throw error;
          parses = false;
        }
        expect(pattern.test(sample), `${currency} ${JSON.stringify(sample)}`).toBe(parses);
      }
    }
  });
});
