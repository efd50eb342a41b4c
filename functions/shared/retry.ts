/**
 * The one retry policy every loop that tries again uses (TronGrid, the price source, DynamoDB's
 * conflicts and unprocessed keys, SQS's failed entries): a cap on attempts, and a capped, jittered
 * exponential wait between them, as stripe-node's RequestSender does (../shared/STYLE.md).
 * Webhook deliveries are not a loop but a schedule of queued tries (functions/webhooks/webhook-delivery.ts); they
 * share only parseRetryAfter.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included: no loop retries without end. */
  maxAttempts: number;
  /** The first retry waits at most this; each later one twice as long, up to maxDelayMs. 0: no wait. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * The wait before retry number `retry` (1 for the second attempt): equal jitter, between half and
 * all of min(maxDelayMs, baseDelayMs·2^(retry-1)), so that callers that failed together spread out
 * while none of them retries at once.
 */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return ceiling / 2 + random() * (ceiling / 2);
}

/** Checked where a policy comes from options, so that a typo fails at construction. */
export function checkRetryPolicy(policy: RetryPolicy): RetryPolicy {
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) throw new Error(`maxAttempts must be a positive integer, got ${policy.maxAttempts}`);
  return policy;
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: Date | number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - (typeof now === 'number' ? now : now.getTime()));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until the clock reads `time` (epoch ms), if it does not already. */
export const sleepUntil = async (time: number): Promise<void> => {
  const wait = time - Date.now();
  if (wait > 0) await sleep(wait);
};
