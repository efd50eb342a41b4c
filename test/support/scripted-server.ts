import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/**
 * An HTTP server on loopback that answers from a script and records what it was asked, so the
 * adapters that call other services (TronGrid, the price source) are tested over a real socket:
 * retries, timeouts, paging and concurrency included, not against a fetch mock.
 */
export interface SeenRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON, or undefined when there was none. */
  body: any;
}

export interface ScriptedReply {
  status?: number;
  /** Sent as is when a string, else as JSON. */
  body: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

export interface ScriptedServer {
  baseUrl: string;
  requests: SeenRequest[];
  /** The most requests it was answering at the same moment. */
  maxInFlight: number;
  /** One reply per request, in order (599 once exhausted), or a function that answers by request. */
  script: ScriptedReply[] | ((request: SeenRequest) => ScriptedReply);
  /** Forgets the requests seen and the in-flight peak; the script stays. */
  reset(): void;
  close(): Promise<void>;
}

export async function startScriptedServer(script: ScriptedServer['script'] = []): Promise<ScriptedServer> {
  const scripted = scriptedServer(script);
  await scripted.listen();
  return scripted;
}

/**
 * The scripted server of a whole test file: listening before its first test, its script and what it
 * saw cleared before each test, closed after the last. `baseUrl` is set once it listens.
 */
export function useScriptedServer(): ScriptedServer {
  const scripted = scriptedServer([]);
  beforeAll(() => scripted.listen());
  afterAll(() => scripted.close());
  beforeEach(() => {
    scripted.script = [];
    scripted.reset();
  });
  return scripted;
}

function scriptedServer(script: ScriptedServer['script']): ScriptedServer & { listen(): Promise<void> } {
  let inFlight = 0;
  const scripted: ScriptedServer & { listen(): Promise<void> } = {
    baseUrl: '',
    requests: [],
    maxInFlight: 0,
    script,
    reset() {
      scripted.requests = [];
      scripted.maxInFlight = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    listen: async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      scripted.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
  };
  const server: Server = createServer((req, res) => {
    inFlight++;
    scripted.maxInFlight = Math.max(scripted.maxInFlight, inFlight);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const raw = Buffer.concat(chunks).toString('utf8');
      const request: SeenRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: raw ? JSON.parse(raw) : undefined,
      };
      scripted.requests.push(request);
      const current = scripted.script;
      const reply = (typeof current === 'function' ? current(request) : current.shift()) ?? { status: 599, body: 'script exhausted' };
      setTimeout(() => {
        inFlight--;
        // The client may have given up (a timeout test): nothing to answer.
        if (res.destroyed) return;
        const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers }).end(text);
      }, reply.delayMs ?? 0);
    });
  });
  return scripted;
}
