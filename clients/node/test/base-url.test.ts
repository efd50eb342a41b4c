import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Cambio, type CambioOptions } from '../src/index.ts';

/**
 * Where the key and secret go: only to the base URL the integrator gave. The API has no custom
 * domain, so the client names no host of its own and guesses none from the key; a URL that would
 * carry the credentials in clear text over the network is refused before any request.
 */
const credentials = { apiKey: 'ck_live_k', apiSecret: 'cs_live_s' };
const WHERE = /`ApiUrl` output of your Cambio stack.*`npm start` prints/;

function refusal(options: Partial<CambioOptions> & Record<string, unknown>): TypeError {
  let made: Cambio | undefined;
  try {
    made = new Cambio({ ...credentials, ...options } as CambioOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return error as TypeError;
  }
  throw new Error(`expected a TypeError, got a client for ${made.baseUrl}`);
}

describe('the base URL', () => {
  it('is required: without one the client throws and says where the URL comes from, whatever the key', () => {
    expect(refusal({}).message).toMatch(WHERE);
    expect(refusal({ baseUrl: '' }).message).toMatch(WHERE);
    expect(refusal({ apiKey: 'ck_test_k', apiSecret: 'cs_test_s' }).message).toMatch(WHERE);
  });

  it('is not a named environment: the old `environment` option is refused, pointing at baseUrl', () => {
    for (const environment of ['sandbox', 'production', 'https://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox/v1']) {
      const error = refusal({ environment });
      expect(error.message).toMatch(/`environment` is gone.*baseUrl/);
      expect(error.message).toMatch(WHERE);
    }
  });

  it('must be an http(s) URL', () => {
    for (const baseUrl of ['sandbox', 'api.example.com/v1', 'ftp://127.0.0.1/v1', 'file:///tmp/v1', 'javascript:alert(1)']) {
      expect(refusal({ baseUrl }).message, baseUrl).toMatch(/must be an http\(s\) URL/);
      expect(refusal({ baseUrl }).message, baseUrl).toMatch(WHERE);
    }
  });

  it('is refused as plain http unless it is loopback, so credentials never cross the network in clear text', () => {
    for (const baseUrl of [
      'http://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox/v1',
      'http://10.0.0.5:3000/v1',
      'http://192.168.1.10:3000',
      'http://localhost.example.com:3000',
      'http://127.0.0.1.nip.io:3000',
      'http://[::2]:3000',
      'http://0.0.0.0:3000',
    ]) {
      expect(refusal({ baseUrl }).message, baseUrl).toMatch(/plain http.*clear text.*loopback/);
    }
  });

  it('is accepted as https anywhere, and as http on 127.0.0.0/8, ::1 and localhost', () => {
    const accepted = (baseUrl: string) => new Cambio({ ...credentials, baseUrl }).baseUrl;
    expect(accepted('https://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox/v1')).toBe('https://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox');
    expect(accepted('https://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox/v1/')).toBe('https://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox');
    expect(accepted('https://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox')).toBe('https://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox');
    expect(accepted('http://127.0.0.1:3000/v1')).toBe('http://127.0.0.1:3000');
    expect(accepted('http://127.8.9.10:3000')).toBe('http://127.8.9.10:3000');
    expect(accepted('http://localhost:3000/v1')).toBe('http://localhost:3000');
    expect(accepted('http://[::1]:3000/v1')).toBe('http://[::1]:3000');
  });

  it('carries no credentials, query or fragment (the paths are appended to it)', () => {
    for (const baseUrl of ['https://user:pass@example.com/v1', 'https://example.com/v1?stage=sandbox', 'https://example.com/v1#x']) {
      const { message } = refusal({ baseUrl });
      expect(message, baseUrl).toMatch(/no credentials, query or fragment/);
      expect(message, baseUrl).not.toContain('pass');
      expect(message, baseUrl).not.toContain('sandbox');
    }
    expect(refusal({ baseUrl: 'https://user:pass@example.com/v1' }).message).toContain('https://***@example.com/v1');
  });

  it('is never echoed with the user and password it carries, whatever else is wrong with it', () => {
    for (const baseUrl of ['ftp://user:pass@127.0.0.1/v1', 'https://user:pass@exa mple.com/v1', 'https://user:pass@[::1/v1']) {
      const { message } = refusal({ baseUrl });
      expect(message, baseUrl).toMatch(/must be an http\(s\) URL/);
      expect(message, baseUrl).not.toContain('pass');
      expect(message, baseUrl).toContain('***@');
    }
  });
});

describe('requests', () => {
  let server: Server | undefined;

  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it('go to the given base URL, under its path (an API Gateway stage), with the key and secret', async () => {
    const seen: { url: string; host: string | undefined; key: unknown; secret: unknown }[] = [];
    server = createServer((req, res) => {
      seen.push({ url: req.url!, host: req.headers.host, key: req.headers['x-api-key'], secret: req.headers['x-api-secret'] });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ success: true, data: { balances: [] } }));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Shaped like the ApiUrl output: https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}/v1
    const cambio = new Cambio({ ...credentials, baseUrl: `http://${host}/sandbox/v1` });

    await cambio.company.balance();
    await cambio.deposits.get('dep_00000000000000000000000000');

    expect(seen).toEqual([
      { url: '/sandbox/v1/company/balance', host, key: credentials.apiKey, secret: credentials.apiSecret },
      { url: '/sandbox/v1/deposits/dep_00000000000000000000000000', host, key: credentials.apiKey, secret: credentials.apiSecret },
    ]);
  });
});
