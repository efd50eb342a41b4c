import { LOAD_TEST_RATE_LIMITS, startLocalRuntime } from '#local/runtime';

/**
 * The local runtime in a process of its own, for tests that kill it (SIGKILL: no cleanup runs).
 * Its table lives on the run's DynamoDB Local, which outlives it as .data/ outlives `npm start`.
 * Prints one JSON line once it serves: the API's URL and the sandbox company it seeded.
 */
const runtime = await startLocalRuntime({
  dataDir: null,
  port: 0,
  dynamoEndpoint: process.env.CHILD_DYNAMODB_ENDPOINT!,
  tableName: process.env.CHILD_TABLE_NAME!,
  pollIntervalMs: 0,
  webhookIntervalMs: 50,
  ...LOAD_TEST_RATE_LIMITS,
});
process.stdout.write(`${JSON.stringify({ apiUrl: runtime.apiUrl, sandbox: runtime.sandbox })}\n`);
