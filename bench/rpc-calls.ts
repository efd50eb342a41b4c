import { countsSince } from './harness.ts';

/**
 * JSON-RPC calls this process sends through fetch (viem's HTTP transport), by method: the EVM
 * payouts scenario reports what each payout asks of its node, as the route scenarios report their
 * DynamoDB requests. The AWS SDK does not use fetch, so DynamoDB is not counted here.
 */
export const rpcCallCounts = new Map<string, number>();

let installed = false;

/** Counts every JSON-RPC call (each call of a batch) from now on. */
export function countRpcCalls(): void {
  if (installed) return;
  installed = true;
  const send = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    if (typeof init?.body === 'string' && init.body.includes('"jsonrpc"')) {
      try {
        const body = JSON.parse(init.body) as { method?: string } | { method?: string }[];
        for (const call of Array.isArray(body) ? body : [body]) {
          const method = call.method ?? 'unknown';
          rpcCallCounts.set(method, (rpcCallCounts.get(method) ?? 0) + 1);
        }
      } catch {
        // not JSON: not a call to count
      }
    }
    return send(input, init);
  };
}

/** Calls sent since `before` (a copy of rpcCallCounts), by method, sorted by name. */
export const rpcCallsSince = (before: ReadonlyMap<string, number>): Record<string, number> => countsSince(rpcCallCounts, before);
