import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
  /** What standardwebhooks made of it with the webhook's secret: the parsed body, or the error. */
  verified: unknown;
  verifyError: string | null;
  receivedAt: number;
}

/** Whether `secret` verifies the delivery (any of its signatures), as a receiver holding it would check. */
export function verifiesWith(delivery: ReceivedDelivery, secret: string): boolean {
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

/**
 * An HTTP endpoint on 127.0.0.1 that reads each request's body whole and hands it to `receive`:
 * what the test receiver and the benchmarks' receiver share. `stop` closes the port, so a sender's
 * connection is then refused; `start` again (on the same port) opens it.
 */
export abstract class LoopbackEndpoint {
  private server: Server | null = null;
  port = 0;

  protected abstract receive(body: string, headers: IncomingHttpHeaders, res: ServerResponse): void;

  async start(port = this.port): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => this.receive(Buffer.concat(chunks).toString('utf8'), req.headers, res));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  url(path = '/hooks'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }
}

/**
 * An integrator's endpoint: every request verified with the `standardwebhooks` package (the
 * Standard Webhooks reference library), answering as `respond` says.
 */
export class WebhookReceiver extends LoopbackEndpoint {
  readonly deliveries: ReceivedDelivery[] = [];
  secret = '';
  respond: (delivery: ReceivedDelivery, res: ServerResponse) => void = (_, res) => res.writeHead(204).end();

  protected receive(body: string, headers: IncomingHttpHeaders, res: ServerResponse): void {
    let verified: unknown = null;
    let verifyError: string | null = null;
    try {
      verified = new Webhook(this.secret).verify(body, headers as Record<string, string>);
    } catch (error) {
      verifyError = (error as Error).message;
    }
    const delivery = { headers, body, verified, verifyError, receivedAt: Date.now() };
    this.deliveries.push(delivery);
    this.respond(delivery, res);
  }

  async waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedDelivery[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.deliveries.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return this.deliveries;
  }
}
