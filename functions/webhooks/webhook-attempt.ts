/** One HTTP try of one event to one endpoint, as the dashboard's endpoint page lists it. */
export interface WebhookAttempt {
  eventId: string;
  eventType: string;
  attemptedAt: string;
  attempt: number;
  /** Null when no HTTP answer came (timeout, refused connection: `error` says which). */
  httpStatus: number | null;
  durationMs: number;
  result: 'succeeded' | 'failed';
  error: string | null;
}
