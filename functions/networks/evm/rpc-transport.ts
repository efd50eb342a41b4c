import { BaseError, createTransport, http, HttpRequestError, RpcRequestError, shouldThrow, TimeoutError, type EIP1193RequestFn, type Transport } from 'viem';
import { withoutUrlPaths } from '../../shared/url-masking.ts';

/**
 * An EVM network's nodes as one JSON-RPC transport: a network may list several URLs (a provider's and
 * a second provider's, say), and a request a node fails (an HTTP error or 429, a timeout, a dropped
 * connection, a JSON-RPC "internal error" or "limit exceeded") is asked of the next. A node that
 * failed is asked last for FAILED_NODE_BENCHED_MS, by every client of the process: a node that hangs
 * would otherwise cost its timeout on every request of every run. The node is a provider, not a truth
 * (../shared/networks.md): what it answers is read by the domain as possibly behind; this only keeps
 * a failing one from holding up the run.
 */

/** A network's JSON-RPC URLs, tried in this order; or how to get them (a provider's URL carries its
 * key, so it lives in Secrets Manager). */
export type RpcUrls = string | readonly string[];
export type RpcEndpoints = RpcUrls | (() => Promise<RpcUrls>);

/** How long one node may take over a request before the next is asked (viem's default): an
 * eth_getLogs over a thousand busy blocks takes seconds on a hosted node. */
export const DEFAULT_RPC_TIMEOUT_MS = 10_000;
/** A failed node is asked after the others for this long: a run is a minute. */
const FAILED_NODE_BENCHED_MS = 60_000;
/** A Retry-After above this is not waited for: a scheduled job's run must end (a Lambda's is 55 s),
 * and its next run asks again. */
const MAX_RETRY_AFTER_SECONDS = 2;
const RETRY_DELAY_MS = 150;

/** When each URL last failed, for every client in the process (EvmChain's and EvmPayoutNode's). */
const failedAt = new Map<string, number>();

export const rpcUrlList = (urls: RpcUrls): string[] => (typeof urls === 'string' ? [urls] : [...urls]);

/**
 * The URLs as one transport. Each request goes to the nodes not benched first, in the network's
 * order; one a node fails goes to the next. Rounds over all of them are retried with viem's backoff
 * (150 ms, then 300: its classification of what may pass), twice with one URL as before, once with
 * several (each round already asks every node). Worst case a request takes rounds × nodes × timeout.
 * An answer about the request itself (a revert, "nonce too low", a range too wide) is no failure of
 * the node: it is not benched for it, and when every node failed that answer is the one thrown.
 */
export function failoverTransport(urls: RpcUrls, { timeoutMs = DEFAULT_RPC_TIMEOUT_MS, now = Date.now }: { timeoutMs?: number; now?: () => number } = {}): Transport {
  const list = rpcUrlList(urls);
  if (list.length === 0) throw new Error('No JSON-RPC URL for the network');
  // batch: the scanner's and reconcile's parallel reads go out as one HTTP request per node.
  const nodes = list.map((url) => ({ url, transport: http(url, { batch: true, retryCount: 0, timeout: timeoutMs, fetchFn: boundedRetryAfter }) }));
  return ({ chain }) => {
    const made = nodes.map(({ url, transport }) => ({ url, request: transport({ chain, retryCount: 0, timeout: timeoutMs }).request }));
    return createTransport({
      key: 'failover',
      name: 'Failover JSON-RPC',
      type: 'failover',
      retryCount: made.length > 1 ? 1 : 2,
      retryDelay: RETRY_DELAY_MS,
      timeout: timeoutMs,
      request: (async ({ method, params }: { method: string; params?: unknown }, options?: unknown) => {
        // The nodes not benched in the network's order, then the benched, the one benched longest first.
        const benched = (node: { url: string }) => (failedAt.get(node.url) ?? -Infinity) + FAILED_NODE_BENCHED_MS > now();
        const order = [...made.filter((node) => !benched(node)), ...made.filter(benched).sort((a, b) => failedAt.get(a.url)! - failedAt.get(b.url)!)];
        let answer: unknown;
        let fault: unknown;
        for (const node of order) {
          try {
            const result = await node.request({ method, params } as never, options as never);
            failedAt.delete(node.url);
            return result;
          } catch (caught) {
            const error = withoutNodeUrls(caught);
            // A revert or a refused signature: the same on every node.
            if (error instanceof Error && shouldThrow(error)) throw error;
            if (nodeFault(error)) {
              failedAt.set(node.url, now());
              fault ??= error;
            } else answer ??= error;
          }
        }
        throw answer ?? fault;
      }) as EIP1193RequestFn,
    });
  };
}

/**
 * The error, its causes' texts and their `url` with each URL cut to its scheme and host: a provider's
 * URL carries its key, and viem's HTTP, JSON-RPC and timeout errors (and the errors viem wraps them
 * in above this transport, whose texts are made of these) print it whole into the logs and traces of
 * whatever fails on them. The error is changed in place, so its class, name, code and status, which
 * callers and nodeFault tell errors apart by, stay what they were.
 */
function withoutNodeUrls(error: unknown): unknown {
  const seen = new Set<object>();
  for (let link: unknown = error; link !== null && typeof link === 'object' && !seen.has(link); link = (link as { cause?: unknown }).cause) {
    seen.add(link);
    // message and stack are own properties of an Error, though not enumerable.
    for (const key of Object.getOwnPropertyNames(link)) {
      const value = (link as Record<string, unknown>)[key];
      const masked =
        typeof value === 'string' ? withoutUrlPaths(value)
        : Array.isArray(value) && value.every((item) => typeof item === 'string') ? value.map(withoutUrlPaths)
        : value;
      if (String(masked) === String(value)) continue;
      try {
        (link as Record<string, unknown>)[key] = masked;
      } catch {
        // A read-only property (none of viem's is): left as it is rather than fail the request on it.
      }
    }
  }
  return error;
}

/** A failure of the node rather than its answer to the request: no HTTP answer or an HTTP error
 * status, a timeout, or JSON-RPC's internal error (-32603), resource unavailable (-32002), limit
 * exceeded (-32005, and QuickNode's -32007), 429 in the body (Alchemy's batches). */
export function nodeFault(error: unknown): boolean {
  if (!(error instanceof BaseError)) return true;
  if (error.walk((cause) => cause instanceof TimeoutError)) return true;
  const code = (error.walk((cause) => typeof (cause as { code?: unknown }).code === 'number') as { code?: number } | null)?.code;
  if (code !== undefined && [-32603, -32002, -32005, -32007, 429, -1].includes(code)) return true;
  const httpError = error.walk((cause) => cause instanceof HttpRequestError || cause instanceof RpcRequestError) as HttpRequestError | RpcRequestError | null;
  if (httpError instanceof HttpRequestError) return true; // no JSON-RPC answer at all
  return httpError?.status !== undefined && httpError.status >= 400;
}

/** fetch, with a 429's or 503's Retry-After above MAX_RETRY_AFTER_SECONDS dropped: viem waits as
 * long as the node says before it asks again, and a provider may say a minute. */
const boundedRetryAfter: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const retryAfter = response.headers.get('retry-after');
  if (retryAfter === null || Number(retryAfter) <= MAX_RETRY_AFTER_SECONDS) return response;
  const headers = new Headers(response.headers);
  headers.delete('retry-after');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
};
