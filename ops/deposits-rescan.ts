process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { parseArgs } from 'node:util';
import { NETWORK_CHOICE, NETWORK_NAMES, type NetworkName } from '#functions/networks/names';
import { chainsOf } from '#functions/networks/chain-registry';
import { DynamoRescanCursor, DynamoScanCursor, type RescanProgress } from '#adapters/dynamo/deposit-chain-store';
import { JavaMissingError } from '#local/dynamodb-local';
import { onStageTable, stageChainSettings, stageTableOf } from './stage-table.ts';
import { errorText } from './error-text.ts';

/**
 * `npm run deposits:rescan -- --network <n> --from-block <b> [--to-block <c>] [--stage sandbox|production --table <TableName>] [--json]`:
 * has the network's deposit poller read blocks `b`–`c` again (by default up to the newest block its
 * live scan has read), beside its live scan and in the time that scan leaves each run, so new
 * payments are not held back (docs/reconciliation.md, "USDT no scan recorded"). A payment no scan
 * recorded (an event index or a provider that missed it: the poller logs `USDT at an unpaid deposit
 * address that no scan recorded` and counts it in UnrecordedDepositUsdt) is then recorded and
 * credited as any other; what was recorded already is not recorded again. One rescan at a time per
 * network: `--status` says how far the last one has come. Locally it works on the running `npm
 * start` (or .data/); on a deployed stage pass the stage and its table with your AWS credentials
 * (a table without its stage is refused: it would rescan the local data, not the stage's).
 * Exits 2 on bad usage, 1 on a failure or while another rescan of the network is under way.
 */
const USAGE = `Usage: npm run deposits:rescan -- --network <${NETWORK_CHOICE}> (--from-block <block> [--to-block <block>] | --status) [--stage sandbox|production --table <TableName>] [--json]`;

function refuse(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

let values: { network?: string; 'from-block'?: string; 'to-block'?: string; status?: boolean; stage?: string; table?: string; json?: boolean };
try {
  ({ values } = parseArgs({ options: { network: { type: 'string' }, 'from-block': { type: 'string' }, 'to-block': { type: 'string' }, status: { type: 'boolean' }, stage: { type: 'string', default: 'local' }, table: { type: 'string' }, json: { type: 'boolean' } } }));
} catch (error) {
  refuse((error as Error).message);
}
if (!(NETWORK_NAMES as readonly string[]).includes(values.network ?? '')) refuse(`--network must be one of ${NETWORK_NAMES.join(', ')}, got ${JSON.stringify(values.network ?? '')}.`);
const network = values.network as NetworkName;

function blockArgument(name: 'from-block' | 'to-block'): number | undefined {
  const text = values[name];
  if (text === undefined) return undefined;
  if (!/^\d{1,15}$/.test(text)) refuse(`--${name} must be a block number (a whole number), got ${JSON.stringify(text)}.`);
  return Number(text);
}
const fromBlock = blockArgument('from-block');
const toBlock = blockArgument('to-block');
if (values.status ? fromBlock !== undefined || toBlock !== undefined : fromBlock === undefined) refuse('Give --from-block (and perhaps --to-block) to start a rescan, or --status alone to see the last one.');
if (fromBlock !== undefined && toBlock !== undefined && toBlock < fromBlock) refuse(`--to-block (${toBlock}) must not be before --from-block (${fromBlock}).`);
const { stage, table } = stageTableOf(values, refuse);

type Outcome =
  | { result: 'started' | 'in_progress'; rescan: RescanProgress }
  | { result: 'status'; rescan: RescanProgress | null }
  | { result: 'not_started' }
  | { result: 'not_read_yet'; scannedTo: number };

const describe = (rescan: RescanProgress) => {
  const blocks = `${network} blocks ${rescan.fromBlock}–${rescan.untilBlock}`;
  if (rescan.nextBlock > rescan.untilBlock) return `The last rescan of ${blocks} (asked ${rescan.requestedAt}) has finished.`;
  return `A rescan of ${blocks} (asked ${rescan.requestedAt}) is under way: at block ${rescan.nextBlock}, ${rescan.untilBlock - rescan.nextBlock + 1} blocks left.`;
};

try {
  const outcome = await onStageTable(stage, table)(async (db, tableName): Promise<Outcome> => {
    let cursorName: string;
    let previousCursorNames: string[] | undefined;
    try {
      ({ cursorName, previousCursorNames } = chainsOf(network).connect(db, tableName, stageChainSettings(stage)).settings);
    } catch (error) {
      refuse(`${network} is not open on the ${stage} stage: ${(error as Error).message}.`);
    }
    const rescans = new DynamoRescanCursor(db, tableName, cursorName);
    if (fromBlock === undefined) return { result: 'status', rescan: await rescans.progress() };
    // Only blocks the live scan has read: it reads the rest anyway.
    const scannedTo = await new DynamoScanCursor(db, tableName, cursorName, previousCursorNames).position();
    if (scannedTo === null) return { result: 'not_started' };
    const untilBlock = Math.min(toBlock ?? scannedTo - 1, scannedTo - 1);
    if (untilBlock < fromBlock) return { result: 'not_read_yet', scannedTo };
    return rescans.start(fromBlock, untilBlock, new Date());
  });
  // Refused while another rescan of the network has blocks left, in either form.
  if (outcome.result === 'in_progress') process.exitCode = 1;
  if (values.json) console.log(JSON.stringify({ network, ...outcome }));
  else {
    switch (outcome.result) {
      case 'not_started':
        console.log(`The ${network} deposit scan has not started yet: nothing to read again.`);
        break;
      case 'not_read_yet':
        console.log(`The ${network} deposit scan has read up to block ${outcome.scannedTo - 1}, not block ${fromBlock} yet: it reads it anyway.`);
        break;
      case 'status':
        console.log(outcome.rescan ? describe(outcome.rescan) : `No rescan of ${network} was asked.`);
        break;
      case 'started':
        console.log(
          `The ${network} deposit poller reads blocks ${outcome.rescan.fromBlock}–${outcome.rescan.untilBlock} again (${outcome.rescan.untilBlock - outcome.rescan.fromBlock + 1} blocks), beside its live scan and in the time that scan leaves each run: new payments are not held back, and what was recorded already is not recorded twice. --status says how far it has come.`,
        );
        break;
      case 'in_progress':
        console.error(`${describe(outcome.rescan)} Another can start once it has finished.`);
    }
  }
} catch (error) {
  if (error instanceof JavaMissingError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error(`deposits:rescan failed: ${errorText(error)}`);
  process.exitCode = 1;
}
