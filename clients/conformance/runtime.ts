/**
 * The live half of the conformance suite: the local runtime `npm start` runs (same authorizer,
 * handlers, sandbox chain, pollers and webhook sender), on a free port with 50 ms sandbox blocks,
 * over the test run's DynamoDB Local, plus a small control endpoint that pays a deposit the way
 * `npm run sandbox:pay` does. A client's scenario reads everything it needs from the environment
 * this returns (see README.md).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createDocumentClient } from '../../functions/adapters/dynamo/client.ts';
import { SandboxChain } from '../../functions/networks/tron/sandbox-chain.ts';
import { sandboxPayer } from '../../functions/networks/tron/sandbox-payer.ts';
import { AmountFormatError, parseAmount } from '../../functions/shared/money.ts';
import { isTronAddress } from '../../functions/networks/tron/tron-address.ts';
import { LOAD_TEST_RATE_LIMITS, startLocalRuntime, type LocalRuntime } from '../../local/runtime.ts';
import { STAGES } from '../../config/stages.ts';

export const VECTORS_PATH = fileURLToPath(new URL('./vectors.json', import.meta.url));
const BLOCK_MS = 50;

export interface ConformanceRuntime {
  runtime: LocalRuntime;
  /** CAMBIO_API_URL, CAMBIO_API_KEY, CAMBIO_API_SECRET, CAMBIO_SANDBOX_PAY_URL, CAMBIO_CONFORMANCE_VECTORS. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startConformanceRuntime(dynamoEndpoint: string): Promise<ConformanceRuntime> {
  const runtime = await startLocalRuntime({
    dataDir: null,
    port: 0,
    dynamoEndpoint,
    tableName: `conformance-${randomUUID()}`,
    environment: { SANDBOX_BLOCK_INTERVAL_MS: String(BLOCK_MS) },
    pollIntervalMs: 100,
    webhookIntervalMs: 100,
    // Each client's suite drives the sandbox company hard; its 429 handling is tested on its own.
    ...LOAD_TEST_RATE_LIMITS,
  });
  const chain = new SandboxChain(createDocumentClient(runtime.dynamoEndpoint), runtime.tableName, { blockIntervalMs: BLOCK_MS, solidifyAfter: 19 });
  const payer = sandboxPayer(chain, STAGES.local.functionEnvironment.USDT_CONTRACT);
  const control = await listen(
    createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const reply = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        if (req.method !== 'POST' || req.url !== '/pay') return reply(404, { error: 'POST /pay {"address","amount"} is the only route' });
        let address: unknown;
        let amount: bigint;
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { address?: unknown; amount?: unknown };
          address = body.address;
          amount = parseAmount(body.amount, 'USDT');
        } catch (error) {
          return reply(400, { error: error instanceof AmountFormatError ? `amount ${error.message}` : 'body must be JSON {"address","amount"}' });
        }
        if (typeof address !== 'string' || !isTronAddress(address)) return reply(400, { error: 'address must be a TRON address' });
        // What `npm run sandbox:pay -- --address … --amount … --json` does, on this runtime's chain.
        payer
          .pay(address, amount)
          .then(({ txHash }) => reply(200, { txHash }), (error: unknown) => reply(500, { error: String(error) }));
      });
    }),
  );
  return {
    runtime,
    env: {
      CAMBIO_API_URL: runtime.apiUrl,
      CAMBIO_API_KEY: runtime.sandbox.apiKey,
      CAMBIO_API_SECRET: runtime.sandbox.apiSecret,
      CAMBIO_SANDBOX_PAY_URL: `http://127.0.0.1:${(control.address() as AddressInfo).port}/pay`,
      CAMBIO_CONFORMANCE_VECTORS: VECTORS_PATH,
    },
    stop: async () => {
      control.closeAllConnections();
      await new Promise<void>((resolve) => control.close(() => resolve()));
      await runtime.stop();
    },
  };
}

function listen(server: Server): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}
