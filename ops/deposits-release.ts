process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { releaseFrozenDepositCredit, releaseHeldTransfer } from '#functions/deposits/deposit-confirmation';
import { auditEntry } from '#functions/companies/audit-log';
import { formatAmount } from '#functions/shared/money';
import { NETWORK_NAMES } from '#functions/networks/names';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoDepositChainStore } from '#adapters/dynamo/deposit-chain-store';
import { DynamoSweepDueList } from '#adapters/dynamo/sweep-due-list';
import { screeningListOf } from '#adapters/dynamo/screening-store';
import { JavaMissingError } from '#local/dynamodb-local';
import { withLocalData } from '#local/local-data';
import { parseSettings } from '#functions/settings/schema';

/**
 * `npm run deposits:release -- --deposit <dep_…> --reason "<text>" [--table <TableName>] [--json]`:
 * credits a `held` deposit (../shared/networks.md, "The token as it is on mainnet") after a person
 * decided its money may be released: a sanctioned payer cleared by compliance, or a frozen address's
 * deposit an operator must not wait on. Each held transfer of the deposit is credited as its
 * confirmation would have been (`deposit.completed`), and the decision goes into the company's audit
 * log in the same transaction, with the reason and who ran the command. Releasing again changes
 * nothing (exit 0, "nothing held"). Locally it works on the running `npm start` (or .data/); on a
 * deployed stage pass its table with your AWS credentials. Exits 2 on bad usage, 1 on a failure.
 */
const USAGE = 'Usage: npm run deposits:release -- --deposit <dep_…> --reason "<why the money may be released>" [--table <TableName>] [--json]';

function refuse(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

let values: { deposit?: string; reason?: string; table?: string; json?: boolean };
try {
  ({ values } = parseArgs({ options: { deposit: { type: 'string' }, reason: { type: 'string' }, table: { type: 'string' }, json: { type: 'boolean' } } }));
} catch (error) {
  refuse((error as Error).message);
}
const depositId = values.deposit ?? '';
if (!/^dep_[0-9A-HJKMNP-TV-Z]{26}$/.test(depositId)) refuse(`--deposit must be a deposit id (dep_ and 26 characters), got ${JSON.stringify(depositId)}.`);
const reason = (values.reason ?? '').trim();
if (reason.length < 3 || reason.length > 500) refuse('--reason must say why the money may be released (3 to 500 characters): it is kept in the audit log.');

/** The company's audit entry of this decision: the reason, who ran the command, and what was released. */
const releasedAudit = (companyId: string, now: Date, released: Record<string, string>) =>
  auditEntry(
    companyId,
    'deposit.released',
    { personId: null, email: null },
    { sourceIp: 'command line', userAgent: `deposits:release (${userInfo().username})` },
    now,
    depositId,
    { reason, ...released },
  );

async function release(endpoint: string | undefined, tableName: string) {
  const db = createDocumentClient(endpoint);
  try {
    const released: { network: string; txHash: string | null; amount: bigint; holdReason: string }[] = [];
    const screening = screeningListOf(db, tableName);
    for (const network of NETWORK_NAMES) {
      const store = new DynamoDepositChainStore(db, tableName, network);
      for (const record of (await store.heldTransfers()).filter((held) => held.depositId === depositId)) {
        const now = new Date();
        const audit = releasedAudit(record.companyId, now, { holdReason: record.holdReason ?? 'unknown', txHash: record.txHash, amount: formatAmount(record.amount, 'USDT') });
        // A split is screened as the poller screens it: a listed destination gets nothing.
        const holds = { frozenAddresses: async () => new Set<string>(), sanctioned: (addresses: string[]) => screening.listed(network, addresses) };
        if ((await releaseHeldTransfer({ store, holds }, record, audit)) === 'released') {
          released.push({ network, txHash: record.txHash, amount: record.amount, holdReason: record.holdReason ?? 'unknown' });
        }
      }
      // A credit taken back because the issuer froze the address after it: released as a whole.
      const owner = (await new DynamoSweepDueList(db, tableName, network).frozenCreditDeposits({ alsoConfirming: true })).find((one) => one.depositId === depositId);
      if (!owner) continue;
      const audit = (amount: bigint) => releasedAudit(owner.companyId, new Date(), { holdReason: 'address_frozen', amount: formatAmount(amount, 'USDT') });
      const outcome = await releaseFrozenDepositCredit({ store }, owner, audit);
      if (outcome !== 'not_held') released.push({ network, txHash: null, amount: outcome.released, holdReason: 'address_frozen' });
    }
    return released;
  } finally {
    db.destroy();
  }
}

try {
  const released = values.table ? await release(parseSettings(['DYNAMODB_ENDPOINT'], process.env).DYNAMODB_ENDPOINT, values.table) : await withLocalData(release);
  if (values.json) {
    console.log(JSON.stringify({ depositId, released: released.map((one) => ({ ...one, amount: formatAmount(one.amount, 'USDT') })) }));
  } else if (released.length === 0) {
    console.log(`Nothing held on ${depositId}: it is not held (released already, unfrozen, or never held). Nothing written.`);
  } else {
    for (const one of released) {
      const what = one.txHash ? `transaction ${one.txHash}` : 'its credit, taken back when the address was frozen after it';
      console.log(`Released ${formatAmount(one.amount, 'USDT')} USDT of ${depositId} on ${one.network} (held: ${one.holdReason}; ${what}): credited to the company, audited.`);
    }
  }
} catch (error) {
  console.error(error instanceof JavaMissingError ? error.message : `deposits:release failed: ${String(error)}`);
  process.exitCode = 1;
}
