process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { operatorAuditEntry } from '#functions/operations/operator-audit';
import { EVENT_TYPES } from '#functions/shared/events';
import { isId } from '#functions/shared/ids';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoDispatchStore } from '#adapters/dynamo/event-dispatch-store';
import { parseSettings } from '#functions/settings/schema';
import { JavaMissingError } from '#local/dynamodb-local';
import { withLocalData } from '#local/local-data';
import { argumentsOf, operator, refuser } from './screening-target.ts';

/**
 * `npm run events:redeliver -- --company cmp_… --since <ISO time> [--type deposit.completed …] [--reason "<why>"]`:
 * for devops. Marks the company's events created since that time (of those types) for dispatch
 * again; the dispatcher (the local runtime's timer, the stack's scheduled catch-up pass) then sends each
 * to the webhooks subscribed to it now, with its original id and body, as a new round with a full
 * retry schedule. Who asked, for which events and why goes into the operator audit log
 * (`events.redelivered`), as every operator command that changes the stage does. Local runtime data
 * by default; `--table <name>` works on a deployed stage's table with your AWS credentials.
 */
const USAGE =
  'Usage: npm run events:redeliver -- --company cmp_... --since 2026-01-01T00:00:00Z [--type deposit.completed ...] [--reason "<why>"] [--table <name>] [--json]';
const refuse: (message: string) => never = refuser(USAGE);
const { values } = argumentsOf(
  { company: { type: 'string' }, since: { type: 'string' }, type: { type: 'string', multiple: true }, reason: { type: 'string' }, table: { type: 'string' }, json: { type: 'boolean', default: false } },
  refuse,
);

if (!isId('company', values.company)) refuse('--company must be a company id (cmp_...)');
const since = new Date(values.since ?? '');
if (!values.since || Number.isNaN(since.getTime()) || !/^\d{4}-\d\d-\d\dT/.test(values.since)) refuse('--since must be an ISO 8601 time');
if (since.getTime() > Date.now()) refuse('--since is in the future');
// Event ids carry their time as milliseconds since 1970; no event is older, and no id bound is.
if (since.getTime() < 0) refuse('--since must be 1970-01-01 or later');
const types = values.type?.flatMap((value) => value.split(',')).map((value) => value.trim()) ?? null;
const unknown = types?.filter((type) => !(EVENT_TYPES as readonly string[]).includes(type)) ?? [];
if (unknown.length) refuse(`--type ${unknown.join(', ')} is not an event type (${EVENT_TYPES.join(', ')})`);
const MAX_REASON_LENGTH = 500;
const reason = values.reason?.trim();
if (reason !== undefined && (reason.length === 0 || reason.length > MAX_REASON_LENGTH)) refuse(`--reason must say why, 1-${MAX_REASON_LENGTH} characters: it is kept in the audit log`);

async function redeliver(endpoint: string | undefined, tableName: string) {
  const db = createDocumentClient(endpoint);
  try {
    // Events sent again to a company's endpoints (a deposit.completed its systems may act on twice):
    // the operator audit log says who asked, for which, and why.
    const audit = (marked: unknown[]) =>
      operatorAuditEntry('events.redelivered', operator(), values.company!, { since: since.toISOString(), types: types?.join(',') ?? 'all', count: String(marked.length), ...(reason && { reason }) }, new Date());
    return await new DynamoDispatchStore(db, tableName).markForRedelivery(values.company!, since, types, new Date(), audit);
  } finally {
    db.destroy();
  }
}

try {
  const marked = values.table
    ? await redeliver(parseSettings(['DYNAMODB_ENDPOINT'], process.env).DYNAMODB_ENDPOINT, values.table)
    : await withLocalData((endpoint, tableName) => redeliver(endpoint, tableName));
  if (values.json) {
    console.log(JSON.stringify({ events: marked.length, eventIds: marked.map((event) => event.id) }));
  } else {
    console.log(`${marked.length} event(s) of ${values.company} since ${since.toISOString()} marked for redelivery`);
    for (const event of marked) console.log(`  ${event.id}  ${event.type}  (round ${event.round})`);
    if (!values.table) console.log('The local runtime (npm start) sends them within a second; if it is not running, at its next start.');
  }
} catch (error) {
  console.error(error instanceof JavaMissingError ? error.message : `events:redeliver failed: ${String(error)}`);
  process.exitCode = 1;
}
