import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { PostResult, WebhookPoster } from '#functions/webhooks/webhook-delivery';

/**
 * POSTs a webhook with node:http(s), connecting to the address the URL check approved: the
 * `lookup` below answers with it instead of asking DNS again, so a host that re-resolves to a
 * private address between check and connect (DNS rebinding) is still never reached. TLS keeps
 * the hostname for SNI and certificate checks. No redirects are followed; no connection is reused.
 */
export const postWebhook: WebhookPoster = (target, request) =>
  new Promise<PostResult>((resolve) => {
    const pinned = target.addresses[0]!;
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
      else callback(null, pinned.address, pinned.family);
    };
    const client = target.url.protocol === 'https:' ? https : http;
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = client.request(target.url, {
      method: 'POST',
      headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
      lookup,
      agent: false,
    });
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
    req.on('error', (error) => finish({ error: error.message }));
    req.end(request.body);
  });
