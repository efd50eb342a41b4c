import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { gatewayResponse, type GatewayResponseType } from '#http/gateway-responses';
import { JSON_HEADERS } from '#http/envelope';
import { VIEWER_ADDRESS_HEADER } from '#http/viewer-address';

/**
 * What the local gateway (./api-server.ts) does at the HTTP edge, as API Gateway does before any
 * route runs: its quotas on a request's head and body, its answers to requests it refuses or
 * cannot parse, and a request's headers and query as a proxy event carries them.
 */

/** API Gateway's own payload limit; the handlers enforce the contract's smaller one. */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;
/** API Gateway's REST API quotas: the request line and the header values together, and the URL of
 * a regional API, at most 10,240 bytes each. */
const GATEWAY_MAX_REQUEST_HEAD_BYTES = 10_240;
const GATEWAY_MAX_URL_BYTES = 10_240;
/** Node's parser counts header names and separators as well, so its own limit sits above the
 * gateway's and the gateway's measure decides; a head beyond it fails in the parser and gets the
 * same answer through 'clientError'. */
export const NODE_MAX_HEADER_BYTES = 32 * 1024;
/** How long a refused connection may keep sending before it is closed (see answerClientError). */
const CLIENT_ERROR_LINGER_MS = 2_000;

export function sendGateway(res: ServerResponse, type: GatewayResponseType, requestId: string, gatewayStatus?: number, extraHeaders: Record<string, string> = {}): void {
  const { status, body, headers } = gatewayResponse(type, gatewayStatus);
  res.writeHead(status, { ...JSON_HEADERS, ...headers, ...extraHeaders, 'X-Request-Id': requestId });
  res.end(body);
}

/** THROTTLED, with the exact wait where API Gateway's static answer says a second. */
export function sendThrottled(res: ServerResponse, requestId: string, retryAfterSeconds: number): void {
  sendGateway(res, 'THROTTLED', requestId, undefined, { 'Retry-After': String(retryAfterSeconds) });
}

/** A refusal before the body is read: the connection closes after it, so the unread body is not
 * taken for the next request. */
export function refuseUnread(req: IncomingMessage, res: ServerResponse, status: number, requestId: string): void {
  res.shouldKeepAlive = false;
  sendGateway(res, 'DEFAULT_4XX', requestId, status);
  req.resume();
}

/**
 * The gateway's quotas on the request's head: 414 for a URL over the limit, 431 for the request
 * line and header values together over it. API Gateway documents the limits but not the status
 * it answers with; these are HTTP's own statuses for the two cases (RFC 9110 §15.5.15, RFC 6585
 * §5), in its DEFAULT_4XX envelope (docs/api-notes.md).
 */
export function requestHeadTooLong(req: IncomingMessage): 414 | 431 | null {
  const url = req.url ?? '/';
  if (Buffer.byteLength(url) > GATEWAY_MAX_URL_BYTES) return 414;
  let size = Buffer.byteLength(`${req.method ?? ''} ${url} HTTP/${req.httpVersion}`);
  for (let i = 1; i < req.rawHeaders.length; i += 2) size += Buffer.byteLength(req.rawHeaders[i]!);
  return size > GATEWAY_MAX_REQUEST_HEAD_BYTES ? 431 : null;
}

export function parseUrl(target: string): URL | null {
  try {
    return new URL(target, 'http://localhost');
  } catch {
    return null;
  }
}

const answeredSockets = new WeakSet<Duplex>();
/** A method token (RFC 9110 §5.6.2), a target and a version: a method, not garbage. */
const WELL_FORMED_REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ \S+ HTTP\/\d\.\d$/;

/**
 * A request Node's parser refused, answered as API Gateway would, in the envelope: a head past
 * Node's own limit as the gateway's quota (414 when the request line alone fills what was read,
 * else 431); a method no HTTP parser knows as any method without a route (404, the stack's answer
 * for API Gateway's "Missing Authentication Token"); a request that never finished arriving 408;
 * anything else malformed 400. The connection then closes, but what the client still sends is read
 * and dropped for a moment first: closing with unread data is a reset, which may reach the client
 * before it has read the answer.
 */
export function answerClientError(error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void {
  if (answeredSockets.has(socket)) return;
  answeredSockets.add(socket);
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const raw = error.rawPacket ?? Buffer.alloc(0);
  let type: GatewayResponseType = 'DEFAULT_4XX';
  let gatewayStatus = 400;
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    gatewayStatus = raw.indexOf('\r\n') === -1 ? 414 : 431;
  } else if (error.code === 'HPE_INVALID_METHOD' && WELL_FORMED_REQUEST_LINE.test(raw.toString('latin1').split('\r\n')[0]!)) {
    type = 'MISSING_AUTHENTICATION_TOKEN';
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'HPE_HEADER_TIMEOUT') {
    gatewayStatus = 408;
  }
  const { status, body } = gatewayResponse(type, gatewayStatus);
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    `Content-Type: ${JSON_HEADERS['Content-Type']}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${randomUUID()}`,
    'Connection: close',
  ];
  socket.on('error', () => socket.destroy());
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  socket.resume();
  setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS).unref();
}

export async function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > GATEWAY_MAX_BODY_BYTES) return 'too-large';
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * A request's headers as API Gateway's REST API puts them in `headers`: names as the client spelled
 * them (it tells `Cookie` from `cookie`: two keys), and the last value of a name sent more than once.
 * So a request can reach the authorizer and the handler with two Cookie lines, as in AWS; both read
 * them the same way and refuse two (functions/http/cookies.ts sessionCookieOf).
 */
export function singleValueHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers[req.rawHeaders[i]!] = req.rawHeaders[i + 1]!;
  return headers;
}

/**
 * What CloudFront adds in front of the dashboard API in AWS (lib/dashboard.ts): the viewer's address
 * and port in `CloudFront-Viewer-Address`, set by CloudFront over any the viewer sent
 * (functions/http/viewer-address.ts reads it). The /v1 API has no CloudFront before it.
 */
export function asCloudFrontForwards(headers: Record<string, string>, req: IncomingMessage): Record<string, string> {
  const forwarded = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== VIEWER_ADDRESS_HEADER));
  const address = req.socket.remoteAddress ?? '127.0.0.1';
  return { ...forwarded, 'CloudFront-Viewer-Address': `${address}:${req.socket.remotePort ?? 0}` };
}

export function groupQuery(params: URLSearchParams): Record<string, string[]> {
  // Own keys only: a query naming an Object prototype member (`?constructor=1`) is a plain key,
  // for the route's schema to refuse, not the prototype's function to push to (a 500).
  const grouped = new Map<string, string[]>();
  for (const [key, value] of params) grouped.set(key, [...(grouped.get(key) ?? []), value]);
  return Object.fromEntries(grouped);
}

export function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
