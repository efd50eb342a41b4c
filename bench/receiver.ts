import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

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
export class BenchReceiver {
  readonly verified: Received[] = [];
  readonly eventIds = new Set<string>();
  rejected = 0;
  secret = '';
  /** Several webhooks to one receiver: a delivery verifies with any of these (or `secret`). */
  secrets: string[] = [];
  private server: Server | null = null;
  port = 0;

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        try {
          const event = this.verify(body, req.headers as Record<string, string>);
          this.verified.push({ eventId: event.id, type: event.type, createdAt: event.createdAt, receivedAt: Date.now(), dataId: event.data?.id ?? null });
          this.eventIds.add(event.id);
        } catch {
          this.rejected++;
        }
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
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

  url(path = '/hooks'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async waitForEvents(count: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.eventIds.size < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    return this.eventIds.size >= count;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
