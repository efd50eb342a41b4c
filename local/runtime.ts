import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Context } from 'aws-lambda';
import { createCompany } from '#domain/company';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { STAGES } from '../lib/stages.ts';
import { ensureTable, startDynamoDbLocal, type DynamoDbLocal } from './dynamodb-local.ts';

export const LOCAL_TABLE_NAME = 'cambio-local';

export interface SandboxCredentials {
  companyId: string;
  apiKey: string;
  apiSecret: string;
}

export interface LocalRuntime {
  apiUrl: string;
  dynamoEndpoint: string;
  tableName: string;
  sandbox: SandboxCredentials;
  /** True when this start created the sandbox company (first start on this data folder). */
  seeded: boolean;
  stop(): Promise<void>;
}

export interface LocalRuntimeOptions {
  /** Where DynamoDB Local keeps its files and the runtime its state; null keeps all in memory. */
  dataDir: string | null;
  port: number;
  host?: string;
  /** Use a DynamoDB Local that is already running (tests) instead of starting one. */
  dynamoEndpoint?: string;
  tableName?: string;
  /** Overrides of the local stage's function settings (tests use faster sandbox blocks). */
  environment?: Partial<Record<string, string>>;
  /** How often the chain pollers run; 0 turns them off. Default 1 s. */
  pollIntervalMs?: number;
  /** How often the webhook dispatcher sweeps for new events; 0 turns the dispatcher and the
   * sender off. Default 250 ms, so an event reaches its webhook well within 2 s. */
  webhookIntervalMs?: number;
}

/**
 * Everything `npm start` runs, in this process: DynamoDB Local, the table, the seeded sandbox
 * company and the API. Handlers read their environment when first imported, so it is set before
 * the API loads them.
 */
export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  const tableName = options.tableName ?? LOCAL_TABLE_NAME;
  let dynamo: DynamoDbLocal | undefined;
  const dynamoEndpoint =
    options.dynamoEndpoint ??
    (dynamo = await startDynamoDbLocal({ dbPath: options.dataDir ? join(options.dataDir, 'dynamodb') : undefined })).endpoint;
  try {
    await ensureTable(dynamoEndpoint, tableName);
    const { sandbox, seeded } = await sandboxCompany(dynamoEndpoint, tableName, options.dataDir);

    process.env.TABLE_NAME = tableName;
    process.env.DYNAMODB_ENDPOINT = dynamoEndpoint;
    process.env.STAGE = 'local';
    // No CloudWatch here to read embedded metrics: leave them out of the console. Logs follow
    // LOG_LEVEL (INFO: a line per API request and per job run that did something).
    process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
    Object.assign(process.env, STAGES.local.functionEnvironment, options.environment);
    if ('value' in STAGES.local.depositAccountXpub) process.env.DEPOSIT_ACCOUNT_XPUB = STAGES.local.depositAccountXpub.value;
    const { createLocalApi } = await import('./api-server.ts');
    const server = await createLocalApi({ config: STAGES.local });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host ?? '127.0.0.1', resolve);
    });
    const { port } = server.address() as AddressInfo;
    const apiUrl = `http://${options.host ?? '127.0.0.1'}:${port}/v1`;
    const pollers = startPollers(options.pollIntervalMs ?? 1000);
    const webhooks = await startWebhookLoops(options.webhookIntervalMs ?? 250);
    const stateFile = options.dataDir ? join(options.dataDir, 'runtime.json') : null;
    if (stateFile) writeFileSync(stateFile, JSON.stringify({ pid: process.pid, apiUrl, dynamoEndpoint, tableName }, null, 2));

    return {
      apiUrl,
      dynamoEndpoint,
      tableName,
      sandbox,
      seeded,
      stop: async () => {
        await pollers.stop();
        await webhooks.stop();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        if (stateFile) rmSync(stateFile, { force: true });
        await dynamo?.stop();
      },
    };
  } catch (error) {
    await dynamo?.stop();
    throw error;
  }
}

/**
 * The jobs EventBridge runs in AWS, on a timer here: the same handler modules, one run at a time
 * (the next starts when the last has finished), errors logged and the loop kept going.
 */
/** The scheduled chain jobs, in the order EventBridge would run them each minute, through their
 * Lambda handlers (so each run logs and counts as in AWS: a line when it did something). */
const noContext = {} as Context;
const CHAIN_JOBS = [
  { name: 'deposit poller', run: async () => (await import('../functions/jobs/deposit-poller.ts')).handler({}, noContext) },
  { name: 'withdrawal sender', run: async () => (await import('../functions/jobs/withdrawal-sender.ts')).handler({}, noContext) },
  { name: 'deposit sweeper', run: async () => (await import('../functions/jobs/deposit-sweeper.ts')).handler({}, noContext) },
];

function startPollers(intervalMs: number): { stop(): Promise<void> } {
  if (intervalMs <= 0) return { stop: async () => undefined };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    for (const job of CHAIN_JOBS) {
      try {
        await job.run();
      } catch (error) {
        console.error(JSON.stringify({ level: 'error', message: `${job.name} failed`, error: String(error) }));
      }
    }
    if (!stopped) timer = setTimeout(() => (running = tick()), intervalMs);
  };
  timer = setTimeout(() => (running = tick()), 0);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/**
 * Webhook delivery as the stack runs it, in this process: the dispatcher's sweep on a timer (the
 * stream's job in AWS), and the sender over the in-process queue with SQS's semantics, through the
 * same handler the SQS event source calls: the messages it reports as failed stay in the queue and
 * come back after the visibility timeout, the others are deleted.
 */
async function startWebhookLoops(intervalMs: number): Promise<{ stop(): Promise<void> }> {
  if (intervalMs <= 0) return { stop: async () => undefined };
  const dispatcher = await import('../functions/jobs/webhook-dispatcher.ts');
  const sender = await import('../functions/jobs/webhook-sender.ts');
  const { localDeliveryQueue } = await import('../functions/adapters/webhooks/in-process-queue.ts');
  const { queue } = localDeliveryQueue();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let dispatching: Promise<void> = Promise.resolve();
  const dispatch = async () => {
    try {
      await dispatcher.handler({});
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', message: 'webhook dispatcher failed', error: String(error) }));
    }
    if (!stopped) timer = setTimeout(() => (dispatching = dispatch()), intervalMs);
  };
  timer = setTimeout(() => (dispatching = dispatch()), 0);

  const send = async () => {
    while (!stopped) {
      const received = queue.receive(10);
      if (received.length === 0) {
        await queue.waitForMessage(Math.min(queue.nextVisibleInMs() ?? intervalMs, intervalMs));
        continue;
      }
      const records = received.map((message) => ({
        messageId: message.messageId,
        receiptHandle: message.receiptHandle,
        body: message.body,
        attributes: { ApproximateReceiveCount: String(message.receiveCount), SentTimestamp: String(message.sentAt) },
      }));
      try {
        const { batchItemFailures } = await sender.handler({ Records: records as never });
        const failed = new Set(batchItemFailures.map((failure) => failure.itemIdentifier));
        for (const message of received) if (!failed.has(message.messageId)) queue.delete(message.receiptHandle);
      } catch (error) {
        console.error(JSON.stringify({ level: 'error', message: 'webhook sender failed', error: String(error) }));
      }
    }
  };
  const sending = send();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      queue.wakeWaiters();
      await Promise.all([dispatching, sending]);
    },
  };
}

/** The sandbox company is made once per data folder; its credentials are kept beside the data so
 * later starts can print them again (a local convenience: deployed stages never store a secret). */
async function sandboxCompany(
  endpoint: string,
  tableName: string,
  dataDir: string | null,
): Promise<{ sandbox: SandboxCredentials; seeded: boolean }> {
  const file = dataDir ? join(dataDir, 'sandbox-company.json') : null;
  if (file && existsSync(file)) return { sandbox: JSON.parse(readFileSync(file, 'utf8')) as SandboxCredentials, seeded: false };
  const db = createDocumentClient(endpoint);
  const { company, credentials } = await createCompany(new DynamoCompanyStore(db, tableName), {
    name: 'Sandbox Company',
    environment: 'sandbox',
  });
  db.destroy();
  const sandbox = { companyId: company.id, apiKey: credentials.apiKey, apiSecret: credentials.apiSecret };
  if (file && dataDir) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(sandbox, null, 2), { mode: 0o600 });
  }
  return { sandbox, seeded: true };
}
