process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { releaseFrozenDepositCredit, releaseHeldTransfer } from '#functions/deposits/deposit-confirmation';
import { auditEntry } from '#functions/companies/audit-log';
import { formatAmount } from '#functions/shared/money';
import { NETWORK_NAMES, type NetworkName } from '#functions/networks/names';
import { chainsOf } from '#functions/networks/chain-registry';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoDepositChainStore } from '#adapters/dynamo/deposit-chain-store';
import { DynamoSweepDueList } from '#adapters/dynamo/sweep-due-list';
import { screeningListOf } from '#adapters/dynamo/screening-store';
import { JavaMissingError } from '#local/dynamodb-local';
import { withLocalData } from '#local/local-data';
import { parseSettings } from '#functions/settings/schema';
import { STAGES } from '../config/stages.ts';
import { errorText } from './error-text.ts';
import { stageChainSettings, stageTableOf } from './stage-table.ts';

/**
 * `npm run deposits:release -- --deposit <dep_…> --reason "<text>" [--stage <s> --table <TableName>] [--json]`:
 * credits a `held` deposit (../shared/networks.md, "The token as it is on mainnet") after a person
 * decided its money may be released: a sanctioned payer cleared by compliance, or a frozen address's
 * deposit an operator must not wait on. Each held transfer of the deposit is credited as its
 * confirmation would have been (`deposit.completed`), and the decision goes into the company's audit
 * log in the same transaction, with the reason and who ran the command. Clearing a sanctioned payer
 * releases the sanction alone: where the token's issuer freezes the deposit's address now (read on
 * the stage's chain), the money cannot move, and it stays held for the freeze, credited by the
 * poller once the address is unfrozen, and so do a payment held for the freeze beside it and a
 * credit the freeze took back before (given back by the sweeper once unfrozen). Each outcome is printed; a transfer kept held is audited as
 * `deposit.kept_held`, not `deposit.released`. Releasing again changes nothing (exit 0, "nothing
 * held") but a frozen-address hold, which a release credits: that decides the freeze. Locally it
 * works on the running `npm start` (or .data/; `--table` names another table of the local DynamoDB);
 * on a deployed stage pass the stage and its table with your AWS credentials. Exits 2 on bad usage,
 * 1 on a failure.
 */
const USAGE = 'Usage: npm run deposits:release -- --deposit <dep_…> --reason "<why the money may be released>" [--stage <local|sandbox|production> --table <TableName>] [--json]';

function refuse(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

let values: { deposit?: string; reason?: string; stage?: string; table?: string; json?: boolean };
try {
  ({ values } = parseArgs({ options: { deposit: { type: 'string' }, reason: { type: 'string' }, stage: { type: 'string', default: 'local' }, table: { type: 'string' }, json: { type: 'boolean' } } }));
} catch (error) {
  refuse((error as Error).message);
}
const depositId = values.deposit ?? '';
if (!/^dep_[0-9A-HJKMNP-TV-Z]{26}$/.test(depositId)) refuse(`--deposit must be a deposit id (dep_ and 26 characters), got ${JSON.stringify(depositId)}.`);
const reason = (values.reason ?? '').trim();
if (reason.length < 3 || reason.length > 500) refuse('--reason must say why the money may be released (3 to 500 characters): it is kept in the audit log.');
const { stage, table } = stageTableOf(values, refuse, { localTable: 'allowed' });
// The freezes are read on the stage's chain: a deployed stage's table with the local stage's chain
// (the sandbox one, in that table) would read none, and credit money that cannot move.
const deployedTable = stage === 'local' && table ? Object.keys(STAGES).find((name) => name !== 'local' && table.startsWith(`Cambio-${name}-`)) : undefined;
if (deployedTable) refuse(`--table ${table} is the ${deployedTable} stage's table: add --stage ${deployedTable}.`);

/** The company's audit entry of this decision: the reason, who ran the command, and what was released
 * (made a `deposit.kept_held` where the money stays held: releaseHeldTransfer). */
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

/** The issuer's freezes of USDT on a network, read on the stage's chain (connected once, when first
 * needed: only a release clearing a sanctioned payer reads them). A network the stage does not open
 * throws: nothing is released unchecked. */
function freezesOn(db: ReturnType<typeof createDocumentClient>, tableName: string) {
  const readers = new Map<NetworkName, (addresses: string[]) => Promise<Set<string>>>();
  return (network: NetworkName) => async (addresses: string[]) => {
    if (!readers.has(network)) {
      try {
        const { chain, settings } = chainsOf(network).connect(db, tableName, stageChainSettings(stage));
        readers.set(network, (among) => chain.frozenAmong(settings.usdtContract, among));
      } catch (error) {
        throw new Error(`cannot read the issuer's freezes on ${network} on the ${stage} stage (${(error as Error).message}): its held transfers are left held`);
      }
    }
    return readers.get(network)!(addresses);
  };
}

/** A held transfer (or, with no `txHash`, a credit a freeze took back) released (credited), or kept
 * held (`keptHeldFor`): for the freeze where a sanction is cleared while the issuer freezes the
 * deposit's address, for the sanction where a frozen-address hold's payer is listed since. */
type Outcome = {
  network: string;
  txHash: string | null;
  amount: bigint;
  holdReason: string;
  keptHeldFor?: 'address_frozen' | 'sender_sanctioned';
  /** Kept held by this run without a write: a frozen-address hold beside a sanction it clears. */
  unwritten?: true;
};

async function release(endpoint: string | undefined, tableName: string) {
  const db = createDocumentClient(endpoint);
  try {
    const outcomes: Outcome[] = [];
    const screening = screeningListOf(db, tableName);
    const freezes = freezesOn(db, tableName);
    for (const network of NETWORK_NAMES) {
      const store = new DynamoDepositChainStore(db, tableName, network);
      const held = (await store.heldTransfers()).filter((one) => one.depositId === depositId);
      // A run that clears a sanctioned payer decides the sanction, not the freeze: a frozen-address
      // hold beside it (a payment after the freeze) stays held in that run, as a credit the freeze
      // took back does (below); released alone, in a run of its own, it decides the freeze.
      const clearsASanction = held.some((one) => one.holdReason === 'sender_sanctioned');
      for (const record of held) {
        if (clearsASanction && record.holdReason === 'address_frozen') {
          outcomes.push({ network, txHash: record.txHash, amount: record.amount, holdReason: 'address_frozen', keptHeldFor: 'address_frozen', unwritten: true });
          continue;
        }
        const now = new Date();
        const audit = releasedAudit(record.companyId, now, { holdReason: record.holdReason ?? 'unknown', txHash: record.txHash, amount: formatAmount(record.amount, 'USDT') });
        // A split is screened as the poller screens it: a listed destination gets nothing.
        const holds = { frozenAddresses: freezes(network), sanctioned: (addresses: string[]) => screening.listed(network, addresses) };
        const outcome = await releaseHeldTransfer({ store, holds }, record, audit);
        if (outcome === 'not_held') continue;
        const keptHeldFor = outcome === 'held_frozen' ? ('address_frozen' as const) : outcome === 'held_sanctioned' ? ('sender_sanctioned' as const) : undefined;
        outcomes.push({ network, txHash: record.txHash, amount: record.amount, holdReason: record.holdReason ?? 'unknown', ...(keptHeldFor && { keptHeldFor }) });
      }
      // A credit taken back because the issuer froze the address after it: released as a whole, but
      // not by a run that clears a sanction, which decides the sanction and not the freeze: while the
      // address is frozen, the credit stays held with it.
      const owner = (await new DynamoSweepDueList(db, tableName, network).frozenCreditDeposits({ alsoConfirming: true })).find((one) => one.depositId === depositId);
      if (!owner) continue;
      const audit = (amount: bigint) => releasedAudit(owner.companyId, new Date(), { holdReason: 'address_frozen', amount: formatAmount(amount, 'USDT') });
      const outcome = await releaseFrozenDepositCredit({ store, ...(clearsASanction && { holds: { frozenAddresses: freezes(network) } }) }, owner, audit);
      if (outcome === 'not_held') continue;
      if ('keptHeld' in outcome) outcomes.push({ network, txHash: null, amount: outcome.keptHeld, holdReason: 'address_frozen', keptHeldFor: 'address_frozen', unwritten: true });
      else outcomes.push({ network, txHash: null, amount: outcome.released, holdReason: 'address_frozen' });
    }
    return outcomes;
  } finally {
    db.destroy();
  }
}

/** One outcome in words: what happened to the money, and what happens to it next. */
function said(one: Outcome): string {
  const what = one.txHash ? `transaction ${one.txHash}` : 'its credit, taken back when the address was frozen after it';
  const head = `${formatAmount(one.amount, 'USDT')} USDT of ${depositId} on ${one.network} (held: ${one.holdReason}; ${what})`;
  if (one.unwritten && !one.txHash) {
    return `Kept held ${head}: clearing a payer's sanction does not decide the freeze, and USDT's issuer freezes the deposit address, so the money cannot move. Nothing written for it; it is given back once the issuer unfreezes the address. Running this again would credit it while it is frozen, at Cambio's risk.`;
  }
  if (one.unwritten) {
    return `Kept held ${head}: this run clears a payer's sanction, which does not decide the freeze. Nothing written for it; the poller credits it once the issuer unfreezes the address. Running this again, with no sanction left to clear, would credit it while it is frozen, at Cambio's risk.`;
  }
  if (one.keptHeldFor === 'address_frozen') {
    return `Kept held ${head}: its payer's sanction is cleared, audited, but USDT's issuer freezes the deposit address, so the money cannot move. Now held: address_frozen; the poller credits it once the issuer unfreezes the address. Running this again would credit it while it is frozen, at Cambio's risk.`;
  }
  if (one.keptHeldFor === 'sender_sanctioned') {
    return `Kept held ${head}: its payer is on the screening list now, so it is not credited. Now held: sender_sanctioned, audited. Releasing that is a decision on the sanction: run this again only once it is cleared.`;
  }
  return `Released ${head}: credited to the company, audited.`;
}

try {
  const outcomes = table ? await release(parseSettings(['DYNAMODB_ENDPOINT'], process.env).DYNAMODB_ENDPOINT, table) : await withLocalData(release);
  const asJson = ({ keptHeldFor: _kept, unwritten: _unwritten, ...one }: Outcome) => ({ ...one, amount: formatAmount(one.amount, 'USDT') });
  const released = outcomes.filter((one) => !one.keptHeldFor);
  const keptHeld = outcomes.filter((one) => one.keptHeldFor);
  if (values.json) {
    console.log(JSON.stringify({ depositId, released: released.map(asJson), keptHeld: keptHeld.map((one) => ({ ...asJson(one), keptHeldFor: one.keptHeldFor })) }));
  } else if (outcomes.length === 0) {
    console.log(`Nothing held on ${depositId}: it is not held (released already, unfrozen, or never held). Nothing written.`);
  } else {
    for (const one of outcomes) console.log(said(one));
  }
} catch (error) {
  console.error(error instanceof JavaMissingError ? error.message : `deposits:release failed: ${errorText(error)}`);
  process.exitCode = 1;
}
