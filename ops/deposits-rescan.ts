process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { NETWORK_CHOICE, NETWORK_NAMES, type NetworkName } from '#functions/networks/names';
import { chainsOf } from '#functions/networks/chain-registry';
import { DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { SLICES, type SliceSettings } from '#functions/settings/functions';
import { parseSettings } from '#functions/settings/schema';
import { JavaMissingError } from '#local/dynamodb-local';
import { runningRuntime } from '#local/local-data';
import { STAGES } from '../config/stages.ts';
import { onStageTable, stageTableOf } from './stage-table.ts';

/**
 * `npm run deposits:rescan -- --network <n> --from-block <b> [--stage <s> --table <TableName>] [--json]`:
 * moves the network's deposit scan back to block `b`, so the poller reads every block from there
 * again over its next runs (docs/reconciliation.md, "USDT no scan recorded"). A payment no scan
 * recorded (an event index or a provider that missed it: the poller logs `USDT at an unpaid deposit
 * address that no scan recorded` and counts it in UnrecordedDepositUsdt) is then recorded and
 * credited as any other; what was recorded already is not recorded again. Never moves the scan
 * forward; waits up to a minute for a run in progress to end. Locally it works on the running
 * `npm start` (or .data/); on a deployed stage pass the stage and its table with your AWS
 * credentials. Exits 2 on bad usage, 1 on a failure.
 */
const USAGE = `Usage: npm run deposits:rescan -- --network <${NETWORK_CHOICE}> --from-block <block> [--stage <local|sandbox|production> --table <TableName>] [--json]`;
/** A scan's lease lasts a minute (deposit-scan.ts): a run in progress ends within it. */
const WAIT_FOR_RUN_MS = 70_000;
const RETRY_EVERY_MS = 2_000;

function refuse(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

let values: { network?: string; 'from-block'?: string; stage?: string; table?: string; json?: boolean };
try {
  ({ values } = parseArgs({ options: { network: { type: 'string' }, 'from-block': { type: 'string' }, stage: { type: 'string', default: 'local' }, table: { type: 'string' }, json: { type: 'boolean' } } }));
} catch (error) {
  refuse((error as Error).message);
}
if (!(NETWORK_NAMES as readonly string[]).includes(values.network ?? '')) refuse(`--network must be one of ${NETWORK_NAMES.join(', ')}, got ${JSON.stringify(values.network ?? '')}.`);
const network = values.network as NetworkName;
const fromText = values['from-block'] ?? '';
if (!/^\d{1,15}$/.test(fromText)) refuse(`--from-block must be a block number (a whole number), got ${JSON.stringify(fromText)}.`);
const fromBlock = Number(fromText);
const { stage, table } = stageTableOf(values, refuse);

/** The stage's chain settings: a deployed stage's from config/stages.ts; locally, the EVM and Solana
 * nodes the running `npm start` opened (their addresses change with each start). */
function chainSettingsOf(): SliceSettings<'chain'> {
  const environment: Record<string, string | undefined> = { ...STAGES[stage].functionEnvironment };
  if (stage === 'local') {
    const running = runningRuntime();
    environment.EVM_NETWORKS = JSON.stringify(running?.evmNetworks ?? {});
    environment.SOLANA = running?.solana ? JSON.stringify(running.solana) : undefined;
  }
  return parseSettings(SLICES.chain, environment) as SliceSettings<'chain'>;
}

try {
  const outcome = await onStageTable(stage, table)(async (db, tableName) => {
    let cursorName: string;
    let previousCursorNames: string[] | undefined;
    try {
      ({ cursorName, previousCursorNames } = chainsOf(network).connect(db, tableName, chainSettingsOf()).settings);
    } catch (error) {
      refuse(`${network} is not open on the ${stage} stage: ${(error as Error).message}.`);
    }
    const cursor = new DynamoScanCursor(db, tableName, cursorName, previousCursorNames);
    const before = await cursor.position();
    const waitUntil = Date.now() + WAIT_FOR_RUN_MS;
    for (;;) {
      const result = await cursor.rewind(fromBlock, new Date());
      if (result !== 'leased' || Date.now() > waitUntil) return { result, before };
      await sleep(RETRY_EVERY_MS);
    }
  });
  const { result, before } = outcome;
  if (values.json) console.log(JSON.stringify({ network, result, fromBlock, wasAt: before }));
  else if (result === 'rewound') {
    console.log(`Moved the ${network} deposit scan back from block ${before} to block ${fromBlock}: the poller reads the ${before! - fromBlock} blocks again over its next runs; what was recorded already is not recorded twice.`);
  } else if (result === 'not_past') {
    console.log(before === null ? `The ${network} deposit scan has not started yet: nothing to read again.` : `The ${network} deposit scan is at block ${before}, not past ${fromBlock}: it reads that block anyway.`);
  } else {
    console.error(`A ${network} deposit scan kept running for over a minute; nothing changed. Try again.`);
    process.exitCode = 1;
  }
} catch (error) {
  if (error instanceof JavaMissingError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error(`deposits:rescan failed: ${String(error)}`);
  process.exitCode = 1;
}
