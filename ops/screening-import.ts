process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { createReadStream, existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { NETWORK_CHOICE, NETWORK_NAMES, type NetworkName } from '#functions/networks/names';
import { importScreeningFile, readScreeningFile, ScreeningImportRefused, type ImportSummary, type ScreeningFile } from '#functions/screening/screening-import';
import { DynamoScreeningStore } from '#adapters/dynamo/screening-store';
import { JavaMissingError } from '#local/dynamodb-local';
import { argumentsOf, operator, refuser, screeningTarget, TARGET_OPTIONS, TARGET_USAGE } from './screening-target.ts';

/**
 * `npm run screening:import -- --file <f> [--network <name>]`: imports into the screening list
 * (README, Screening) OFAC's official sdn_advanced.xml (its "Digital Currency Address - <ASSET>"
 * features: TRX on tron, ETH and the other EVM assets on every EVM network, USDT and USDC by the
 * address's form; other assets counted and left out), or a plain list of addresses, one a line
 * (`--network` names its network where the form does not). The SDN file is OFAC's whole list, so
 * what it no longer names is delisted; a plain list only adds. Invalid addresses are reported and
 * skipped. Idempotent: importing the same file again writes nothing.
 *
 * Locally by default (the running `npm start`'s table, or .data/); on a deployed stage with
 * `--stage … --table …` (in AWS the screening refresh job imports OFAC's file daily). Exits 2 on
 * bad usage or a refused file (nothing written), 1 on a failure.
 */
const USAGE = `Usage: npm run screening:import -- --file <sdn_advanced.xml | list.txt> [--network ${NETWORK_NAMES.join('|')}] [--allow-shrink] [--allow-older] ${TARGET_USAGE}`;
const refuse: (message: string) => never = refuser(USAGE);

const { values } = argumentsOf({ file: { type: 'string' }, network: { type: 'string' }, 'allow-shrink': { type: 'boolean', default: false }, 'allow-older': { type: 'boolean', default: false }, ...TARGET_OPTIONS }, refuse);
if (!values.file) refuse('--file is needed: OFAC\'s sdn_advanced.xml, or a list of addresses one a line.');
if (!existsSync(values.file) || !statSync(values.file).isFile()) refuse(`--file ${values.file}: no such file.`);
if (values.network !== undefined && !(NETWORK_NAMES as readonly string[]).includes(values.network)) refuse(`Unknown network "${values.network}": --network ${NETWORK_CHOICE}.`);
const network = values.network as NetworkName | undefined;
const onTable = screeningTarget(values, refuse);

function report(file: ScreeningFile, summary: ImportSummary): string {
  const kind = file.format === 'sdn_advanced' ? `OFAC SDN advanced XML${file.issuedOn ? `, issued ${file.issuedOn}` : ''}` : 'plain list';
  const ignored = Object.entries(file.ignored)
    .map(([asset, count]) => `${asset} ${count}`)
    .join(', ');
  const lines = [
    `Imported ${summary.from} (${kind}): ${summary.added} entries added, ${summary.updated} updated, ${summary.removed} delisted, ${summary.unchanged} unchanged` +
      ` (an entry is an address on one network; an EVM address is listed on each EVM network).`,
    ...(ignored ? [`Ignored (assets Cambio does not screen): ${ignored}.`] : []),
    ...(file.invalid.length > 0 ? [`Skipped ${file.invalid.length} invalid, not stored:`, ...file.invalid.map(({ value, where, reason }) => `  ${where}: ${JSON.stringify(value)} (${reason})`)] : []),
    summary.added + summary.updated + summary.removed === 0 ? 'Nothing changed: the list held it already.' : 'Running API functions see the change within a minute.',
  ];
  return lines.join('\n');
}

try {
  const file = await readScreeningFile(createReadStream(values.file), { network });
  const summary = await onTable((db, tableName) => importScreeningFile(new DynamoScreeningStore(db, tableName), file, { from: basename(values.file!), actor: operator(), allowShrink: values['allow-shrink'], allowOlder: values['allow-older'] }));
  console.log(report(file, summary));
} catch (error) {
  if (error instanceof ScreeningImportRefused) refuse(`Not imported, nothing written: ${error.message}.`);
  console.error(error instanceof JavaMissingError ? error.message : `screening:import failed: ${String(error)}`);
  process.exitCode = 1;
}
