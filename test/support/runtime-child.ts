import type { EvmNetworkName } from '#functions/networks/names';
import { LOAD_TEST_RATE_LIMITS, startLocalRuntime } from '#local/runtime';

/**
 * The local runtime in a process of its own, for tests that kill it (SIGKILL: no cleanup runs) or
 * stop it as Ctrl-C stops `npm start` (SIGTERM: it stops everything it started, then exits).
 * Its table lives on the run's DynamoDB Local, which outlives it as .data/ outlives `npm start`.
 * Chain jobs off unless CHILD_POLL_INTERVAL_MS says how often; EVM networks (each an anvil that
 * dies with it, as `npm start`'s) as CHILD_EVM_NETWORKS names them, comma-separated. CHILD_DATA_DIR:
 * a data folder, as `npm start`'s .data/ (its EVM chains kept there, saved every
 * CHILD_EVM_SAVE_EVERY_MS when given); none by default.
 * Prints one JSON line once it serves: the API's URL, the sandbox company it seeded and its EVM nodes.
 */
const runtime = await startLocalRuntime({
  dataDir: process.env.CHILD_DATA_DIR || null,
  port: 0,
  dynamoEndpoint: process.env.CHILD_DYNAMODB_ENDPOINT!,
  tableName: process.env.CHILD_TABLE_NAME!,
  pollIntervalMs: Number(process.env.CHILD_POLL_INTERVAL_MS ?? 0),
  webhookIntervalMs: 50,
  evmNetworks: (process.env.CHILD_EVM_NETWORKS?.split(',').filter(Boolean) ?? []) as EvmNetworkName[],
  ...(process.env.CHILD_EVM_SAVE_EVERY_MS && { evmChainSaveEveryMs: Number(process.env.CHILD_EVM_SAVE_EVERY_MS) }),
  ...LOAD_TEST_RATE_LIMITS,
});
process.once('SIGTERM', () => void runtime.stop().then(() => process.exit(0)));
process.stdout.write(`${JSON.stringify({ apiUrl: runtime.apiUrl, sandbox: runtime.sandbox, evmNetworks: runtime.evmNetworks })}\n`);
