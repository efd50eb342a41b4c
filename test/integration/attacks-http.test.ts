import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#local/runtime';
import { startTestApi } from '../support/local-api.ts';

/**
 * Issue #12: Node's HTTP server answered some requests itself, outside the envelope (431 for big
 * headers, a reset for a 100 KB query string, 400 for an unknown method). Every path by which the
 * local runtime answers, driven byte for byte through a raw socket: the status API Gateway would
 * give, and the envelope.
 */
let runtime: LocalRuntime;
let port: number;
let auth: string;

beforeAll(async () => {
  runtime = await startTestApi();
  port = Number(new URL(runtime.apiUrl).port);
  auth = `X-Api-Key: ${runtime.sandbox.apiKey}\r\nX-Api-Secret: ${runtime.sandbox.apiSecret}\r\n`;
});

afterAll(async () => {
  await runtime?.stop();
});

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** Writes `raw` as is and reads the whole answer (every request here ends its connection). */
async function rawRequest(raw: string | Buffer): Promise<RawResponse> {
  const received = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.on('error', (error) => (chunks.length ? resolve(Buffer.concat(chunks)) : reject(error)));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
  });
  const text = received.toString('utf8');
  const split = text.indexOf('\r\n\r\n');
  expect(split, `no complete answer: ${JSON.stringify(text.slice(0, 200))}`).toBeGreaterThan(0);
  const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n');
  const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  let body = text.slice(split + 4);
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body) };
}

function dechunk(body: string): string {
  let out = '';
  for (let rest = body; ; ) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 4 + size);
  }
}

function expectEnvelope(response: RawResponse, status: number, code: string): void {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.headers['x-request-id']).toMatch(/\S/);
  expect(response.body).toEqual({ success: false, error: { code, message: expect.any(String), details: response.body.error?.details ?? null } });
}

const get = (target: string, extraHeaders = '') => `GET ${target} HTTP/1.1\r\nHost: localhost\r\n${auth}${extraHeaders}Connection: close\r\n\r\n`;
const post = (target: string, contentType: string, body: string) =>
  `POST ${target} HTTP/1.1\r\nHost: localhost\r\n${auth}Content-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;

describe('answers of the handlers and of the gateway', () => {
  it('a success: 200 in the envelope', async () => {
    const response = await rawRequest(get('/v1/company'));

    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toMatchObject({ success: true, data: { id: runtime.sandbox.companyId } });
  });

  it('no credentials: 401 AUTH_FAILED', async () => {
    expectEnvelope(await rawRequest('GET /v1/company HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'), 401, 'AUTH_FAILED');
  });

  it('an unknown path, a known method with no route on it, a known but unused method: 404 NOT_FOUND', async () => {
    expectEnvelope(await rawRequest(get('/v1/nothing-here')), 404, 'NOT_FOUND');
    expectEnvelope(await rawRequest(`PATCH /v1/company HTTP/1.1\r\nHost: localhost\r\n${auth}Connection: close\r\n\r\n`), 404, 'NOT_FOUND');
    expectEnvelope(await rawRequest(`PROPFIND /v1/company HTTP/1.1\r\nHost: localhost\r\n${auth}Connection: close\r\n\r\n`), 404, 'NOT_FOUND');
  });

  it('a body the handler refuses: 400 INVALID_JSON, 400 VALIDATION_FAILED, 413 PAYLOAD_TOO_LARGE, 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    expectEnvelope(await rawRequest(post('/v1/deposits', 'application/json', '{"method":')), 400, 'INVALID_JSON');
    expectEnvelope(await rawRequest(post('/v1/deposits', 'application/json', '{}')), 400, 'VALIDATION_FAILED');
    expectEnvelope(await rawRequest(post('/v1/deposits', 'application/json', `{"reference":"${'x'.repeat(17 * 1024)}"}`)), 413, 'PAYLOAD_TOO_LARGE');
    expectEnvelope(await rawRequest(post('/v1/deposits', 'text/plain', 'hello')), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('a body over API Gateway’s 10 MB: 413 PAYLOAD_TOO_LARGE', async () => {
    const size = 10 * 1024 * 1024 + 1;
    const head = `POST /v1/deposits HTTP/1.1\r\nHost: localhost\r\n${auth}Content-Type: application/json\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n`;

    expectEnvelope(await rawRequest(Buffer.concat([Buffer.from(head), Buffer.alloc(size, 0x20)])), 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('requests Node’s own parser refuses, or that pass API Gateway’s limits on the head', () => {
  it('an unknown method: 404 NOT_FOUND, as any method with no route (was 400 without the envelope)', async () => {
    expectEnvelope(await rawRequest(`FOO /v1/company HTTP/1.1\r\nHost: localhost\r\n${auth}Connection: close\r\n\r\n`), 404, 'NOT_FOUND');
  });

  it('headers of 9 KB pass; over the gateway’s 10,240 bytes of request line and header values, 431 (17 KB was Node’s own 431)', async () => {
    expect((await rawRequest(get('/v1/company', `X-Padding: ${'a'.repeat(9_000)}\r\n`))).status).toBe(200);
    expectEnvelope(await rawRequest(get('/v1/company', `X-Padding: ${'a'.repeat(10_300)}\r\n`)), 431, 'VALIDATION_FAILED');
    expectEnvelope(await rawRequest(get('/v1/company', `X-Padding: ${'a'.repeat(17 * 1024)}\r\n`)), 431, 'VALIDATION_FAILED');
    expectEnvelope(await rawRequest(get('/v1/company', `X-Padding: ${'a'.repeat(100 * 1024)}\r\n`)), 431, 'VALIDATION_FAILED');
    const many = Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'b'.repeat(30)}\r\n`).join('');
    expectEnvelope(await rawRequest(get('/v1/company', many)), 431, 'VALIDATION_FAILED');
  });

  it('a URL over the gateway’s 10,240 bytes: 414 (a 100 KB query string was a reset)', async () => {
    expectEnvelope(await rawRequest(get(`/v1/deposits?q=${'a'.repeat(11 * 1024)}`)), 414, 'VALIDATION_FAILED');
    expectEnvelope(await rawRequest(get(`/v1/deposits?q=${'a'.repeat(100 * 1024)}`)), 414, 'VALIDATION_FAILED');
  });

  it('a malformed request: 400 VALIDATION_FAILED, the gateway’s DEFAULT_4XX', async () => {
    const malformed = [
      '\x01\x02\x03 nonsense\r\n\r\n',
      'GET /v1/company HTTP/9.9\r\nHost: localhost\r\n\r\n',
      'GET /v1/company HTTP/1.1\r\nBad Header Name: x\r\n\r\n',
      `POST /v1/deposits HTTP/1.1\r\nHost: localhost\r\n${auth}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      `POST /v1/deposits HTTP/1.1\r\nHost: localhost\r\n${auth}Content-Length: 2\r\nContent-Length: 5\r\nConnection: close\r\n\r\n{}`,
      `GET http://[bad HTTP/1.1\r\nHost: localhost\r\n${auth}Connection: close\r\n\r\n`,
    ];
    for (const raw of malformed) expectEnvelope(await rawRequest(raw), 400, 'VALIDATION_FAILED');
  });

  it('an Expect other than 100-continue: 417 (Node’s own answer had no body)', async () => {
    expectEnvelope(await rawRequest(get('/v1/company', 'Expect: something-else\r\n')), 417, 'VALIDATION_FAILED');
  });
});
