import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '#adapters/dynamo/client';
import { runJob } from '#adapters/observability';
import { tracer } from '#adapters/tracing';

/**
 * A job as the Lambda jobs run one, in a process of its own so that test/integration/tracing.test.ts
 * chooses the environment the X-Ray SDK and the tracer see when they load: one run that reads
 * DynamoDB through the shared client factory, one that fails. Prints what the tracer decided.
 * Usage: node --import tsx test/support/trace-probe.ts <dynamodb endpoint> <table>
 */
const [endpoint, tableName] = process.argv.slice(2);
const db = createDocumentClient(endpoint);

await runJob('trace probe', { awsRequestId: 'probe-run' }, async () => {
  await db.send(new GetCommand({ TableName: tableName, Key: { PK: 'PROBE', SK: 'PROBE' } }));
  return { read: 1 };
});
await runJob('failing probe', { awsRequestId: 'failing-run' }, async () => {
  throw new Error('probe failure');
}).catch(() => undefined);
db.destroy();

process.stdout.write(`${JSON.stringify({ probe: { tracingEnabled: tracer.isTracingEnabled(), manualMode: process.env.AWS_XRAY_MANUAL_MODE ?? null } })}\n`);
