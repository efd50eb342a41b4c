import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { LoopbackEndpoint } from '../test/support/webhook-receiver.ts';

export interface Received {
  eventId: string;
  type: string;
  createdAt: string;
  receivedAt: number;
  /** Deposit id for deposit events (data.id). */
  dataId: string | null;
}

/**
 * An integrator's endpoint on loopback (node:http), every request verified with `standardwebhooks`
 * as test/support/webhook-receiver.ts does, keeping only what the benchmarks count (no bodies, so
 * a soak's RSS is not the receiver's log).
 */
export class BenchReceiver extends LoopbackEndpoint {
  readonly verified: Received[] = [];
  readonly eventIds = new Set<string>();
  rejected = 0;
  secret = '';
  /** Several webhooks to one receiver: a delivery verifies with any of these (or `secret`). */
  secrets: string[] = [];

  protected receive(body: string, headers: IncomingHttpHeaders, res: ServerResponse): void {
    try {
      const event = this.verify(body, headers as Record<string, string>);
      this.verified.push({ eventId: event.id, type: event.type, createdAt: event.createdAt, receivedAt: Date.now(), dataId: event.data?.id ?? null });
      this.eventIds.add(event.id);
    } catch {
      this.rejected++;
    }
    res.writeHead(204).end();
  }

  private verify(body: string, headers: Record<string, string>): { id: string; type: string; createdAt: string; data?: { id?: string } } {
    const secrets = this.secrets.length ? this.secrets : [this.secret];
    for (const [i, secret] of secrets.entries()) {
      try {
        return new Webhook(secret).verify(body, headers) as { id: string; type: string; createdAt: string; data?: { id?: string } };
      } catch (error) {
        if (i === secrets.length - 1) throw error;
      }
    }
    throw new Error('no secret');
  }

  async waitForEvents(count: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.eventIds.size < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    return this.eventIds.size >= count;
  }
}
