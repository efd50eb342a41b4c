import { request } from 'node:http';
import type { LocalRuntime } from '#local/runtime';

export interface RawAnswer {
  status: number;
  body: any;
  setCookies: string[];
}

/**
 * One request to the dashboard API through node:http, for what fetch and the browser helper do not
 * send: a Host header of the caller's choosing (as a request straight to the API would carry), or a
 * source address of its own on the loopback network (127.0.0.2, …), which the local API, as API
 * Gateway, reports as the caller's source IP.
 */
export function rawDashboardRequest(
  runtime: LocalRuntime,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; from?: string } = {},
): Promise<RawAnswer> {
  const url = new URL(`/dashboard/api${path}`, runtime.apiUrl);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(payload)) } : {}), ...options.headers };
  return new Promise((resolve, reject) => {
    const sent = request({ host: url.hostname, port: url.port, path: url.pathname, method, headers, localAddress: options.from }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        const setCookie = res.headers['set-cookie'];
        resolve({ status: res.statusCode ?? 0, body, setCookies: setCookie ?? [] });
      });
    });
    sent.on('error', reject);
    sent.end(payload);
  });
}

/** `name=value` of each Set-Cookie line that sets (not clears) a cookie. */
export const cookiesSet = (setCookies: string[]): Record<string, string> =>
  Object.fromEntries(setCookies.filter((line) => !/Max-Age=0/.test(line)).map((line) => line.split(';')[0]!.split('=') as [string, string]));
