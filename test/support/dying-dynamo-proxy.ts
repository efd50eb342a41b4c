import { createServer, request as forward, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * DynamoDB Local behind a process that can die mid-step, as a Lambda's can (a timeout, an out of
 * memory, a host lost): armed with a test on a request (its operation, from `X-Amz-Target`, and its
 * body), the proxy forwards the first request that passes it, hands its answer back, and from then
 * on drops every connection until revived. What the process would have written next never reaches
 * the table, and it learns nothing more from it. Or it stalls (a long pause, a slow network): the
 * first request that passes `pauseBefore`'s test waits, unsent, until resumed.
 */
export interface DyingDynamoProxy {
  url: string;
  /** Dies right after the next request for which `matches` is true has been answered. */
  dieAfter(matches: (operation: string, body: string) => boolean): void;
  /** Holds the next request for which `matches` is true until `resume`; `reached` once it arrived. */
  pauseBefore(matches: (operation: string, body: string) => boolean): { reached: Promise<void>; resume(): void };
  /** Whether it has died since it was armed. */
  readonly dead: boolean;
  revive(): void;
  stop(): Promise<void>;
}

const bodyOf = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

export async function startDyingDynamoProxy(dynamoEndpoint: string): Promise<DyingDynamoProxy> {
  const target = new URL(dynamoEndpoint);
  let armed: ((operation: string, body: string) => boolean) | null = null;
  let dead = false;
  let pause: { matches: (operation: string, body: string) => boolean; arrived: () => void; resumed: Promise<void> } | null = null;
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    if (dead) {
      req.socket.destroy();
      return;
    }
    const operation = String(req.headers['x-amz-target'] ?? '').split('.').pop() ?? '';
    if (pause?.matches(operation, body.toString('utf8'))) {
      const { arrived, resumed } = pause;
      pause = null;
      arrived();
      await resumed;
    }
    const last = armed !== null && armed(operation, body.toString('utf8'));
    const upstream = forward({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 500, answer.headers);
      answer.pipe(res);
      if (last) {
        answer.on('end', () => {
          dead = true;
          armed = null;
        });
      }
    });
    upstream.on('error', () => req.socket.destroy());
    upstream.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    dieAfter(matches) {
      armed = matches;
    },
    pauseBefore(matches) {
      let arrived!: () => void;
      let resume!: () => void;
      const reached = new Promise<void>((resolve) => (arrived = resolve));
      pause = { matches, arrived, resumed: new Promise<void>((resolve) => (resume = resolve)) };
      return { reached, resume };
    },
    get dead() {
      return dead;
    },
    revive() {
      dead = false;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
