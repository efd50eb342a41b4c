import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { PostResult, WebhookPoster } from '#functions/webhooks/webhook-delivery';

/** How long one of a host's addresses may take to accept the connection before the next is tried
 * (Node's happy eyeballs, autoSelectFamily): long enough for a receiver across an ocean, short
 * enough that a dead first address leaves most of the delivery's timeout to the others. */
const CONNECT_ATTEMPT_MS = 1_000;

/**
 * POSTs a webhook with node:http(s), connecting only to the addresses the URL check approved: the
 * `lookup` below answers with them instead of asking DNS again, so a host that re-resolves to a
 * private address between check and connect (DNS rebinding) is still never reached. A host with
 * several addresses (a receiver behind a load balancer, IPv4 and IPv6) is tried on each in turn
 * until one accepts, as a browser would: one dead address does not fail the delivery. TLS keeps
 * the hostname for SNI and certificate checks. No redirects are followed; no connection is reused.
 */
export const postWebhook: WebhookPoster = (target, request) =>
  new Promise<PostResult>((resolve) => {
    const checked = target.addresses;
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, checked);
      else callback(null, checked[0]!.address, checked[0]!.family);
    };
    const client = target.url.protocol === 'https:' ? https : http;
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    // Node's net.connect options, which http.request hands on (@types/node's RequestOptions lacks them).
    const connecting: https.RequestOptions & { autoSelectFamily: boolean; autoSelectFamilyAttemptTimeout: number } = {
      method: 'POST',
      headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
      lookup,
      autoSelectFamily: true,
      autoSelectFamilyAttemptTimeout: CONNECT_ATTEMPT_MS,
      agent: false,
    };
    const req = client.request(target.url, connecting);
    const timer = setTimeout(() => {
      finish({ error: `no answer within ${request.timeoutMs} ms` });
      req.destroy();
    }, request.timeoutMs);
    req.on('response', (res) => {
      const retryAfter = res.headers['retry-after'];
      finish({ statusCode: res.statusCode ?? 0, retryAfter: typeof retryAfter === 'string' ? retryAfter : null });
      // Only the status counts; the body is not read or kept.
      res.destroy();
    });
    req.on('error', (error) => finish({ error: connectionError(error) }));
    req.end(request.body);
  });

/** What a failed try shows: when every address refused, Node's AggregateError has no message of
 * its own, only each attempt's. */
function connectionError(error: Error): string {
  const attempts = error instanceof AggregateError ? error.errors.map((attempt: Error) => attempt.message) : [];
  return error.message || attempts.join('; ') || String((error as { code?: string }).code ?? error.name);
}
