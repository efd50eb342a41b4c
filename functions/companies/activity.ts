import type { Page, PageRequest } from '../shared/pagination.ts';
import { auditEntry, type AuditLogStore } from './audit-log.ts';
import { getCompany, type CompanyStore } from './company.ts';
import { conversionView, type Conversion } from '../conversions/conversions.ts';
import { csvLine, isLedgerDay } from '../ledger/ledger-csv.ts';
import type { Caller } from '../people/caller.ts';
import { depositView, type Deposit } from '../deposits/deposits.ts';
import { ApiError, notFound, validationFailed } from '../shared/errors.ts';
import { ID_DAY_MESSAGE, isId, isIdDay, type IdKind } from '../shared/ids.ts';
import { AmountFormatError, formatAmount, parseAmount } from '../shared/money.ts';
import { SandboxPaymentReverted, SandboxWalletShort, type SandboxPayer } from '../networks/network.ts';
import type { NetworkName } from '../networks/names.ts';
import { withdrawalView, type Withdrawal } from '../withdrawals/withdrawals.ts';

/**
 * The dashboard's Activity (../shared/dashboard.md): a company's deposits, withdrawals, conversions
 * and events, newest first, filtered by status (an event's type), network (deposits and withdrawals)
 * and creation date, searched by id or reference, each with its detail; the CSV export of what a
 * filter shows; and the sandbox simulator that pays a deposit on the sandbox chain.
 */
export const ACTIVITY_KINDS = ['deposits', 'withdrawals', 'conversions', 'events'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export const ID_KIND: Record<ActivityKind, IdKind> = { deposits: 'deposit', withdrawals: 'withdrawal', conversions: 'conversion', events: 'event' };

/** What each list may be filtered by: a record's status, an event's type. */
export const ACTIVITY_STATUSES: Record<ActivityKind, readonly string[]> = {
  deposits: ['awaiting_payment', 'confirming', 'completed', 'expired', 'held'],
  withdrawals: ['pending', 'processing', 'completed', 'failed'],
  conversions: ['completed'],
  events: ['deposit.confirming', 'deposit.completed', 'deposit.expired', 'deposit.held', 'deposit.transfer_reversed', 'withdrawal.processing', 'withdrawal.completed', 'withdrawal.failed', 'conversion.completed'],
};

/** A stored event as the dashboard shows it: the webhook body it was delivered with. */
export interface StoredEvent {
  id: string;
  type: string;
  createdAt: string;
  payload: string;
  dispatchedAt: string | null;
}

export interface EventDelivery {
  webhookId: string;
  status: string;
  attempts: { round: number; attempt: number; at: string; url: string; statusCode: number | null; durationMs: number; error: string | null }[];
}

export type ActivityRecord =
  | { kind: 'deposits'; record: Deposit }
  | { kind: 'withdrawals'; record: Withdrawal }
  | { kind: 'conversions'; record: Conversion }
  | { kind: 'events'; record: StoredEvent };

/** The lists whose records move USDT on a network, and so may be filtered by it. */
export const NETWORK_KINDS: readonly ActivityKind[] = ['deposits', 'withdrawals'];

/** The list's query: a time range is an id range, as ids are ULIDs. */
export interface ActivityQuery {
  status?: string;
  /** Deposits and withdrawals only (NETWORK_KINDS). */
  network?: NetworkName;
  /** Inclusive, epoch ms. */
  fromMs?: number;
  /** Exclusive, epoch ms. */
  toMs?: number;
  /** Conversions only: their references are labels, not unique, so a search lists every match. */
  reference?: string;
}

export interface ActivityStore {
  /** Newest first, never a Scan: a Query of the company's partition, bounded by the id range. */
  activityPage(companyId: string, kind: ActivityKind, query: ActivityQuery, page: PageRequest): Promise<Page<ActivityRecord>>;
  activityById(companyId: string, kind: ActivityKind, id: string): Promise<ActivityRecord | null>;
  /** Deposits and withdrawals: the reference claim names the record (one per company). */
  activityIdByReference(companyId: string, kind: 'deposits' | 'withdrawals', reference: string): Promise<string | null>;
  deliveriesOfEvent(companyId: string, eventId: string): Promise<EventDelivery[]>;
}

export interface ActivityFilter {
  status?: string;
  network?: NetworkName;
  /** `YYYY-MM-DD` (UTC), inclusive both ends. */
  from?: string;
  to?: string;
  /** An id or a reference (Events have none: an id only). */
  q?: string;
}

const DAY_MS = 86_400_000;

function dayStart(value: string, field: string): number {
  if (!isLedgerDay(value)) throw validationFailed([{ path: field, message: 'must be a date, YYYY-MM-DD' }]);
  if (!isIdDay(value)) throw validationFailed([{ path: field, message: ID_DAY_MESSAGE }]);
  return Date.parse(`${value}T00:00:00.000Z`);
}

export function activityQuery(kind: ActivityKind, filter: ActivityFilter): ActivityQuery {
  if (filter.status !== undefined && !ACTIVITY_STATUSES[kind].includes(filter.status)) {
    throw validationFailed([{ path: 'status', message: `must be one of ${ACTIVITY_STATUSES[kind].join(', ')}` }]);
  }
  const fromMs = filter.from === undefined ? undefined : dayStart(filter.from, 'from');
  const toMs = filter.to === undefined ? undefined : dayStart(filter.to, 'to') + DAY_MS;
  if (fromMs !== undefined && toMs !== undefined && fromMs >= toMs) throw validationFailed([{ path: 'to', message: 'must not be before from' }]);
  if (filter.network !== undefined && !NETWORK_KINDS.includes(kind)) throw validationFailed([{ path: 'network', message: `filters ${NETWORK_KINDS.join(' and ')} only` }]);
  return { status: filter.status, network: filter.network, fromMs, toMs };
}

/** A search is an exact id, or a deposit's or withdrawal's reference (unique, so one claim names
 * it): one or two reads. A conversion's reference is searched as a filter instead (listActivity). */
async function search(store: ActivityStore, companyId: string, kind: ActivityKind, q: string): Promise<ActivityRecord | null> {
  if (isId(ID_KIND[kind], q)) return store.activityById(companyId, kind, q);
  if (kind !== 'deposits' && kind !== 'withdrawals') return null;
  const id = await store.activityIdByReference(companyId, kind, q);
  return id ? store.activityById(companyId, kind, id) : null;
}

/** A conversion's `reference` is the integrator's label, which many conversions may share: a search
 * for one that is not an id pages through every conversion carrying it, as a status filter does. */
const searchesReferences = (kind: ActivityKind, q: string): boolean => kind === 'conversions' && !isId(ID_KIND[kind], q);

function matches(found: ActivityRecord, query: ActivityQuery): boolean {
  const status = found.kind === 'events' ? found.record.type : found.record.status;
  const network = found.kind === 'deposits' || found.kind === 'withdrawals' ? found.record.network : undefined;
  const created = Date.parse(found.record.createdAt);
  return (
    (query.status === undefined || status === query.status) &&
    (query.network === undefined || network === query.network) &&
    (query.fromMs === undefined || created >= query.fromMs) &&
    (query.toMs === undefined || created < query.toMs)
  );
}

export async function listActivity(
  store: ActivityStore,
  caller: Caller,
  kind: ActivityKind,
  filter: ActivityFilter,
  page: PageRequest,
): Promise<Page<unknown>> {
  const companyId = caller.membership.companyId;
  const query = activityQuery(kind, filter);
  const q = filter.q?.trim();
  if (q && searchesReferences(kind, q)) {
    const { records, nextCursor } = await store.activityPage(companyId, kind, { ...query, reference: q }, page);
    return { records: records.map(activityView), nextCursor };
  }
  if (q) {
    const found = await search(store, companyId, kind, q);
    return { records: found && matches(found, query) ? [activityView(found)] : [], nextCursor: null };
  }
  const { records, nextCursor } = await store.activityPage(companyId, kind, query, page);
  return { records: records.map(activityView), nextCursor };
}

export function activityView(found: ActivityRecord) {
  switch (found.kind) {
    case 'deposits':
      return depositView(found.record);
    case 'withdrawals':
      return withdrawalView(found.record);
    case 'conversions':
      return conversionView(found.record);
    case 'events':
      return { id: found.record.id, type: found.record.type, createdAt: found.record.createdAt, dispatchedAt: found.record.dispatchedAt, payload: JSON.parse(found.record.payload) as unknown };
  }
}

/** A record's detail; an event's comes with its deliveries and their attempts. Another company's
 * id is not found, as on /v1: the read is in the caller's own partition. */
export async function activityDetail(store: ActivityStore, caller: Caller, kind: ActivityKind, id: string) {
  const companyId = caller.membership.companyId;
  const found = isId(ID_KIND[kind], id) ? await store.activityById(companyId, kind, id) : null;
  if (!found) throw notFound(kind === 'deposits' ? 'Deposit' : kind === 'withdrawals' ? 'Withdrawal' : kind === 'conversions' ? 'Conversion' : 'Event');
  if (found.kind !== 'events') return activityView(found);
  return { ...activityView(found), deliveries: await store.deliveriesOfEvent(companyId, id) };
}

// --- Export CSV.

/** Rows read from the table per round of an export: each round is one bounded Query, and the CSV
 * of a round (~250 bytes a deposit row) is written out before the next is read. */
export const EXPORT_CHUNK_ROWS = 1_000;

/** Each export's columns, in order (docs/dashboard-api.md). `network` comes after the columns the
 * files had before deposits took other networks, and a deposit's `holdReason` and a withdrawal's
 * `deliveredAmount` (what the payee received, below `amount` only under an issuer's fee) after it,
 * then what a withdrawal's payout cost on the network where the record says (in the network's
 * coin: its fee, and on Solana any token account's rent), so a reader by position keeps working. */
export const CSV_COLUMNS = {
  deposits: ['id', 'reference', 'status', 'amount', 'receivedAmount', 'creditedAmount', 'address', 'confirmations', 'createdAt', 'updatedAt', 'network', 'holdReason'],
  withdrawals: ['id', 'reference', 'status', 'amount', 'fee', 'address', 'txHash', 'failureReason', 'createdAt', 'completedAt', 'network', 'deliveredAmount', 'networkCostAsset', 'networkCostAmount', 'networkCostTokenAccountCreated'],
  conversions: ['id', 'reference', 'quoteId', 'status', 'sourceAmount', 'settlementAmount', 'rate', 'createdAt'],
  events: ['id', 'type', 'createdAt', 'dispatchedAt', 'payload'],
} as const satisfies Record<ActivityKind, readonly string[]>;

/** A withdrawal's `networkCost` object, a column a field. */
const NETWORK_COST_COLUMNS: Record<string, string> = { networkCostAsset: 'asset', networkCostAmount: 'amount', networkCostTokenAccountCreated: 'tokenAccountCreated' };

/** A record's cell: an event's payload as JSON, a network cost's field, else the field as it is. */
function cellOf(row: Record<string, unknown>, column: string): unknown {
  if (column === 'payload') return JSON.stringify(row.payload);
  const costField = NETWORK_COST_COLUMNS[column];
  if (costField !== undefined) return (row.networkCost as Record<string, unknown> | null | undefined)?.[costField] ?? '';
  return row[column] ?? '';
}

/**
 * `Export CSV`: everything the filter shows, newest first, as CSV text in pieces, one per round of
 * EXPORT_CHUNK_ROWS rows, the header in the first. The caller streams each piece out before the
 * next round is read, so the file is never held whole, here nor in the browser (the download
 * route, functions/handlers/dashboard/export-activity.ts). The first piece comes after the first Query, so
 * a refused filter is refused before anything is sent. Cells go through the ledger CSV's formula
 * guard.
 */
export async function* activityCsv(store: ActivityStore, caller: Caller, kind: ActivityKind, filter: ActivityFilter): AsyncGenerator<string> {
  const columns = CSV_COLUMNS[kind] as readonly string[];
  let header = `${columns.join(',')}\n`;
  let cursor: string | undefined;
  do {
    const page = await listActivity(store, caller, kind, filter, { limit: EXPORT_CHUNK_ROWS, cursor });
    // An empty cell for what the record does not have (an open amount, no failure): not "null".
    const rows = (page.records as Record<string, unknown>[]).map((row) =>
      Object.fromEntries(columns.map((column) => [column, cellOf(row, column)])),
    );
    yield header + rows.map((row) => csvLine(row, columns)).join('');
    header = '';
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

// --- The sandbox simulator.

/** The deposit simulated, its company's environment, the audit log, and the payer of the
 * deposit's network (null where the stage's chain for it is not a sandbox). */
export interface SimulationDeps {
  activity: ActivityStore;
  companies: CompanyStore;
  auditLog: Pick<AuditLogStore, 'appendAudit'>;
  payerOn(network: NetworkName): SandboxPayer | null;
}

/**
 * `Simulate payment` on a deposit's detail. Only a sandbox company on a stage whose chain is the
 * sandbox chain (`payer` is null elsewhere); only a role that may change things (the route's
 * permission). The transfer and its audit entry cannot share a transaction (the chain is not our
 * ledger): the transfer is made first, so the entry names its transaction, and a payment refused or
 * reverted leaves no entry claiming one.
 *
 * On the local EVM nodes the company pays from its own sandbox wallet: a payment above what that
 * wallet holds is refused with INSUFFICIENT_BALANCE (the contract's code for a balance below what
 * the operation needs), and one the chain reverts is an error, never an answer that it was paid.
 */
export async function simulatePayment(
  { activity, companies, auditLog, payerOn }: SimulationDeps,
  caller: Caller,
  depositId: string,
  amountText: string,
  now = new Date(),
): Promise<{ txHash: string; deposit: unknown }> {
  const companyId = caller.membership.companyId;
  const company = await getCompany(companies, companyId);
  if (company.environment !== 'sandbox') throw new ApiError('FORBIDDEN', 'Payments can be simulated only for sandbox companies');
  const found = isId('deposit', depositId) ? await activity.activityById(companyId, 'deposits', depositId) : null;
  if (!found || found.kind !== 'deposits') throw notFound('Deposit');
  const payer = payerOn(found.record.network);
  if (!payer) throw new ApiError('FORBIDDEN', 'Payments can be simulated only for sandbox companies');
  let amount: bigint;
  try {
    amount = parseAmount(amountText, 'USDT');
  } catch (error) {
    if (error instanceof AmountFormatError) throw validationFailed([{ path: 'amount', message: error.message }]);
    throw error;
  }
  if (amount <= 0n) throw validationFailed([{ path: 'amount', message: 'must be more than 0' }]);
  const actor = { personId: caller.membership.personId, email: caller.membership.email };
  // The transfer first, so the audit log names the transaction it made; a transfer that fails
  // leaves no entry claiming a payment.
  const { txHash } = await payer.pay(found.record.address, amount, { companyId }).catch((error: unknown) => {
    throw refusedPayment(error);
  });
  await auditLog.appendAudit([auditEntry(companyId, 'deposit.payment_simulated', actor, caller.origin, now, depositId, { amount: amountText, txHash })]);
  return { txHash, deposit: depositView(found.record) };
}

/** What the caller is told when the sandbox chain did not take the payment; any other failure as it was. */
function refusedPayment(error: unknown): unknown {
  if (error instanceof SandboxWalletShort) {
    return new ApiError(
      'INSUFFICIENT_BALANCE',
      error.whose === 'company'
        ? `The sandbox wallet of this company holds ${formatAmount(error.held, 'USDT')} USDT, less than the ${formatAmount(error.asked, 'USDT')} asked. It is given its sandbox USDT once, the first time the company pays`
        : `The sandbox customer wallet holds ${formatAmount(error.held, 'USDT')} USDT, less than the ${formatAmount(error.asked, 'USDT')} asked`,
      { wallet: error.wallet, held: formatAmount(error.held, 'USDT'), asked: formatAmount(error.asked, 'USDT') },
    );
  }
  // INTERNAL_ERROR, since nothing the caller sent caused it (a token paused or a wallet frozen through
  // `npm run sandbox:issuer`, a node misbehaving), but with the message, which names the transaction
  // to look at, rather than the generic one.
  if (error instanceof SandboxPaymentReverted) return new ApiError('INTERNAL_ERROR', error.message, { txHash: error.txHash }, { cause: error });
  return error;
}
