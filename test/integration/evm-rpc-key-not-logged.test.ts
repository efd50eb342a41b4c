import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { BaseError, HttpRequestError, InternalRpcError, RpcRequestError, TimeoutError } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvmChain } from '#functions/networks/evm/evm-chain';
import { nodeFault } from '#functions/networks/evm/rpc-transport';

/**
 * A node provider's key never leaves the process in an error: it is in the RPC URL's path (Alchemy's
 * /v2/<key>), and viem's HTTP, JSON-RPC and timeout errors print the URL, into the Lambdas' logs and
 * traces. The node here is a local HTTP server that fails as a provider does: a 500, a hang past the
 * client's timeout, a JSON-RPC error. The error a read throws names the node's host and is still the
 * kind of error it was, for the callers that tell a timeout from a refusal.
 */
const KEY = 'SECRET-KEY-123';
const TIMEOUT_MS = 300;
type Failure = '500' | 'hang' | 'json-rpc error';
let failure: Failure = '500';
let host: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      if (failure === 'hang') return setTimeout(() => response.end(), TIMEOUT_MS * 4).unref();
      if (failure === '500') return response.writeHead(500, { 'Content-Type': 'text/plain' }).end('upstream failed');
      // A batch (the transport batches) answered request by request.
      const body = JSON.parse(text) as { id: number } | { id: number }[];
      const answer = (call: { id: number }) => ({ jsonrpc: '2.0', id: call.id, error: { code: -32603, message: 'internal error' } });
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
});
afterAll(() => close?.());

const chainOverKeyedNode = () =>
  new EvmChain({ rpcUrl: `http://${host}/v2/${KEY}`, rpcTimeoutMs: TIMEOUT_MS, finalizedTag: true, confirmations: 2, maxBlockRange: 1000, tokenDecimals: 6, tokenControls: 'tether' });

/** Everything a log line, a trace or a JSON serialiser could print of the error: String(), the stack,
 * each own property (enumerable or not) of every error in the cause chain, and util.inspect's whole
 * tree. */
function everythingPrintable(error: unknown): string {
  const texts = [String(error), (error as Error).stack ?? '', inspect(error, { depth: Infinity, showHidden: true })];
  for (let link: unknown = error; link !== null && typeof link === 'object'; link = (link as { cause?: unknown }).cause) {
    texts.push(JSON.stringify(link, (_, value: unknown) => (typeof value === 'bigint' ? String(value) : value)));
    for (const key of Object.getOwnPropertyNames(link)) {
      const value = (link as Record<string, unknown>)[key];
      texts.push(`${key}: ${typeof value === 'string' ? value : JSON.stringify(value, (_, inner: unknown) => (typeof inner === 'bigint' ? String(inner) : inner))}`);
    }
  }
  return texts.join('\n');
}

async function latestBlockFailure(as: Failure): Promise<BaseError> {
  failure = as;
  const error = await chainOverKeyedNode()
    .latestBlock()
    .then(
      () => null,
      (thrown: unknown) => thrown,
    );
  expect(error).toBeInstanceOf(BaseError);
  return error as BaseError;
}

describe("an EVM node's failure, as the error the read throws", () => {
  it('a 500: names the host, not the key in the path; still an HTTP error with its status', async () => {
    const error = await latestBlockFailure('500');
    const printable = everythingPrintable(error);
    expect(printable).not.toContain(KEY);
    expect(printable).toContain(host);
    const http = error.walk((cause) => cause instanceof HttpRequestError) as HttpRequestError | null;
    expect(http?.status).toBe(500);
    expect(http?.name).toBe('HttpRequestError');
    expect(new URL(http!.url).host).toBe(host);
    expect(nodeFault(error)).toBe(true);
  });

  it('a hang past the timeout: names the host, not the key; still a TimeoutError', async () => {
    const error = await latestBlockFailure('hang');
    const printable = everythingPrintable(error);
    expect(printable).not.toContain(KEY);
    expect(printable).toContain(host);
    expect(error.walk((cause) => cause instanceof TimeoutError)?.name).toBe('TimeoutError');
    expect(nodeFault(error)).toBe(true);
  });

  it('a JSON-RPC error: names the host, not the key; still the JSON-RPC error with its code', async () => {
    const error = await latestBlockFailure('json-rpc error');
    const printable = everythingPrintable(error);
    expect(printable).not.toContain(KEY);
    expect(printable).toContain(host);
    expect(error).toBeInstanceOf(InternalRpcError);
    expect((error as InternalRpcError).code).toBe(-32603);
    expect(error.details).toBe('internal error');
    expect(error.walk((cause) => cause instanceof RpcRequestError)?.name).toBe('RpcRequestError');
  });
});
