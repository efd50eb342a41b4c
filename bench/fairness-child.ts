import { randomUUID } from 'node:crypto';
import { STAGES } from '../config/stages.ts';
import { startLocalRuntime } from '#local/runtime';
import { newCompany } from './support.ts';

/**
 * The fairness scenario's API (bench/scenarios/fairness.ts), in a process of its own: a local runtime
 * on `npm start`'s throttles (the sandbox stage's; the bench's own runtime lifts them, and the
 * handlers' modules hold one table per process), over the bench's DynamoDB Local with a table of its
 * own, and two companies. Prints one JSON line (the API's URL and both companies' credentials), then
 * serves until its standard input closes.
 */
const [dynamoEndpoint] = process.argv.slice(2) as [string];
const runtime = await startLocalRuntime({
  dataDir: null,
  port: 0,
  pollIntervalMs: 0,
  webhookIntervalMs: 0,
  dynamoEndpoint,
  tableName: `CambioFairness${randomUUID().slice(0, 8)}`,
  throttle: STAGES.local.throttle,
  companyRateLimit: STAGES.local.companyRateLimit,
});
const busy = await newCompany(runtime, 'Fairness Busy Co');
const quiet = await newCompany(runtime, 'Fairness Quiet Co');
process.stdout.write(`${JSON.stringify({ apiUrl: runtime.apiUrl, busy, quiet })}\n`);
process.stdin.resume();
process.stdin.on('end', () => void runtime.stop().then(() => process.exit(0)));
