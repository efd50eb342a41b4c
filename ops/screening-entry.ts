process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { NETWORK_CHOICE, NETWORK_NAMES, type NetworkName } from '#functions/networks/names';
import { addressInWords, networkNamed } from '#functions/networks/registry';
import { addStageEntry, removeStageEntry } from '#functions/screening/screening-import';
import { DynamoScreeningStore } from '#adapters/dynamo/screening-store';
import { JavaMissingError } from '#local/dynamodb-local';
import { argumentsOf, operator, refuser, screeningTarget, TARGET_OPTIONS, TARGET_USAGE } from './screening-target.ts';

/**
 * `npm run screening:add|remove -- --network <n> --address <a> --reason "<text>"`: the stage's own
 * entries on the screening list (README, Screening), beside OFAC's: an address the stage refuses to
 * send to though OFAC does not list it (a court order, an investigation). The entry holds on every
 * network the address is an address of (an EVM address on each EVM network). Each change is written
 * with its operator audit entry (who, when, why) in one transaction. `remove` takes off the stage's
 * own entry only: OFAC's stay until OFAC delists them.
 *
 * Locally by default; on a deployed stage with `--stage … --table …`. Exits 2 on bad usage or a
 * refusal (nothing written), 1 on a failure.
 */
const USAGE =
  `Usage: npm run screening:add -- --network ${NETWORK_NAMES.join('|')} --address <address> --reason "<why>" ${TARGET_USAGE}\n` +
  `       npm run screening:remove -- --network ${NETWORK_NAMES.join('|')} --address <address> --reason "<why>" ${TARGET_USAGE}`;
const refuse: (message: string) => never = refuser(USAGE);

/** Enough for a case number and a sentence; the audit log is no place for a file. */
const MAX_REASON_LENGTH = 500;

const { values, positionals } = argumentsOf({ network: { type: 'string' }, address: { type: 'string' }, reason: { type: 'string' }, ...TARGET_OPTIONS }, refuse, true);
const [action, ...extra] = positionals;
if ((action !== 'add' && action !== 'remove') || extra.length > 0) refuse(`Run it as npm run screening:add or npm run screening:remove (got ${JSON.stringify(positionals.join(' '))}).`);
if (!(NETWORK_NAMES as readonly string[]).includes(values.network ?? '')) refuse(`Unknown network "${values.network ?? ''}": --network ${NETWORK_CHOICE}.`);
const network = values.network as NetworkName;
const address = values.address?.trim() ?? '';
if (!networkNamed(network).address.is(address)) refuse(`--address ${JSON.stringify(address)} is not an address of ${network} (expected: ${addressInWords(networkNamed(network))}).`);
const reason = values.reason?.trim() ?? '';
if (reason.length === 0 || reason.length > MAX_REASON_LENGTH) refuse(`--reason is needed, 1-${MAX_REASON_LENGTH} characters: why the stage ${action === 'add' ? 'lists' : 'no longer lists'} it, for the audit log.`);
const onTable = screeningTarget(values, refuse);

try {
  const input = { network, address, reason, actor: operator() };
  if (action === 'add') {
    const { outcome, networks } = await onTable((db, tableName) => addStageEntry(new DynamoScreeningStore(db, tableName), input));
    console.log(
      outcome === 'added'
        ? `Listed ${address} on ${networks.join(', ')} (the stage's entry: ${reason}). Withdrawals, splits and allowlist entries to it are refused; running API functions see it within a minute.`
        : `Already the stage's entry on ${networks.join(', ')}: nothing written.`,
    );
  } else {
    const { outcome, stillOnOfac } = await onTable((db, tableName) => removeStageEntry(new DynamoScreeningStore(db, tableName), input));
    if (outcome === 'not-listed') {
      refuse(stillOnOfac ? `${address} is on OFAC's list, not a stage entry: a stage cannot remove OFAC's entries. Nothing written.` : `${address} is not a stage entry on ${network}: nothing written.`);
    }
    console.log(`Removed the stage's entry for ${address}.${stillOnOfac ? ' It stays listed: OFAC lists it too.' : ''}`);
  }
} catch (error) {
  console.error(error instanceof JavaMissingError ? error.message : `screening:${action} failed: ${String(error)}`);
  process.exitCode = 1;
}
