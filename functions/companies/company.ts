import { ApiError, notFound } from '../shared/errors.ts';
import { CURRENCIES, formatAmount, type Currency } from '../shared/money.ts';
import { newId } from '../shared/ids.ts';
import { issueCredentials, type ApiKeyRecord, type Environment, type IssuedCredentials } from '../api-keys/api-keys.ts';
import { FIRST_TIER, rateLimitView, type RateLimitTier, type RateLimitTiers, type RateLimitView } from '../api-keys/rate-limits.ts';
import { auditEntry, type AuditActor, type AuditEntry, type RequestOrigin } from './audit-log.ts';
import type { Caller } from '../people/caller.ts';
import type { Role } from '../people/team.ts';

export interface Company {
  id: string;
  name: string;
  environment: Environment;
  status: 'active';
  createdAt: string;
  /** Which of the stage's rate limit tiers the company's requests are held to (its usage plan in
   * AWS): the first for every new company, raised by ops (`npm run company:limits`). */
  rateLimitTier: RateLimitTier;
}

/** GET /v1/company (../shared/api-contract.md, Company): the profile, and its rate limit in the
 * stage's figures for its tier. */
export interface CompanyView extends Omit<Company, 'rateLimitTier'> {
  rateLimit: RateLimitView;
}

/** One currency's balance in minor units. */
export interface BalanceRow {
  currency: Currency;
  available: bigint;
  pending: bigint;
  locked: bigint;
  /** Deposits recorded but not credited (ledger.ts Bucket): shown apart, never in the API's balance. */
  held: bigint;
  updatedAt: string;
}

/** What the company routes need from storage; the DynamoDB adapter implements it. */
export interface CompanyStore {
  createCompany(company: Company, key: ApiKeyRecord): Promise<void>;
  getCompany(companyId: string): Promise<Company | null>;
  /** Moves the company to `to` with its audit entry in one write; false when the company is gone or
   * no longer at the tier it was read at. */
  changeRateLimitTier(company: Company, to: RateLimitTier, audit: AuditEntry): Promise<boolean>;
  getBalances(companyId: string): Promise<BalanceRow[]>;
}

export interface BalanceView {
  balances: { currency: Currency; available: string; pending: string; locked: string }[];
  updatedAt: string;
}

export const MAX_COMPANY_NAME_LENGTH = 200;

/** A new company's profile, its name checked; `field` names the name's field in the caller's body. */
export function createCompanyRecord(input: { name: string; environment: Environment }, now: Date, field = 'name'): Company {
  const name = input.name.trim();
  if (name.length === 0 || name.length > MAX_COMPANY_NAME_LENGTH) {
    throw new ApiError('VALIDATION_FAILED', 'The request is invalid; see details', [
      { path: field, message: `must be 1 to ${MAX_COMPANY_NAME_LENGTH} characters` },
    ]);
  }
  return {
    id: newId('company', now.getTime()),
    name,
    environment: input.environment,
    status: 'active',
    createdAt: now.toISOString(),
    rateLimitTier: FIRST_TIER,
  };
}

export async function createCompany(
  store: CompanyStore,
  input: { name: string; environment: Environment },
  now = new Date(),
): Promise<{ company: Company; credentials: IssuedCredentials }> {
  const company = createCompanyRecord(input, now);
  const credentials = issueCredentials(company.id, company.environment, now);
  await store.createCompany(company, credentials.record);
  return { company, credentials };
}

export async function getCompany(store: CompanyStore, companyId: string): Promise<Company> {
  const company = await store.getCompany(companyId);
  if (!company) throw notFound('Company');
  return company;
}

export function companyView({ rateLimitTier, ...profile }: Company, tiers: RateLimitTiers): CompanyView {
  return { ...profile, rateLimit: rateLimitView(tiers, rateLimitTier) };
}

/** GET /v1/company: the caller's company as the API shows it. */
export async function companyProfile(store: CompanyStore, companyId: string, tiers: RateLimitTiers): Promise<CompanyView> {
  return companyView(await getCompany(store, companyId), tiers);
}

/**
 * Puts a company at another of the stage's tiers (`npm run company:limits`), audited in the same
 * write with the tiers it moved between. The same tier again writes nothing. In AWS the usage key
 * provisioner then moves its key to the tier's usage plan; the local gateway reads the tier anew
 * within seconds (local/usage-plan-tiers.ts).
 */
export async function changeRateLimitTier(
  store: CompanyStore,
  companyId: string,
  to: RateLimitTier,
  by: { actor: AuditActor; origin: RequestOrigin },
  now = new Date(),
): Promise<{ changed: boolean; from: RateLimitTier; to: RateLimitTier }> {
  const company = await getCompany(store, companyId);
  const from = company.rateLimitTier;
  if (from === to) return { changed: false, from, to };
  const audit = auditEntry(companyId, 'company.rate_limit_changed', by.actor, by.origin, now, null, { from, to });
  if (!(await store.changeRateLimitTier(company, to, audit))) throw new Error(`The rate limit tier of ${companyId} changed while it was being set; nothing was written, run it again`);
  return { changed: true, from, to };
}

/** Every currency is listed, zero when the company never held it, so integrators need no
 * special case for a new company. Balance rows are written with the company, so there is always
 * one to date the answer; one Query reads them all. */
export async function getBalance(store: CompanyStore, companyId: string): Promise<BalanceView> {
  return balanceView(await balanceRows(store, companyId));
}

async function balanceRows(store: CompanyStore, companyId: string): Promise<BalanceRow[]> {
  const rows = await store.getBalances(companyId);
  if (rows.length === 0) throw notFound('Company');
  return rows;
}

function balanceView(rows: BalanceRow[]): BalanceView {
  const byCurrency = new Map(rows.map((row) => [row.currency, row]));
  const updatedAt = rows.map((row) => row.updatedAt).reduce((a, b) => (a > b ? a : b));
  const balances = CURRENCIES.map((currency) => {
    const row = byCurrency.get(currency);
    return {
      currency,
      available: formatAmount(row?.available ?? 0n, currency),
      pending: formatAmount(row?.pending ?? 0n, currency),
      locked: formatAmount(row?.locked ?? 0n, currency),
    };
  });
  return { balances, updatedAt };
}

/** Money recorded but not credited, per currency (ledger.ts Bucket `held`): the dashboard shows it
 * apart from the balance; /v1's balance never carries it (../shared/api-contract.md, Company). */
export interface HeldView {
  currency: Currency;
  amount: string;
}

function heldView(rows: BalanceRow[]): HeldView[] {
  const byCurrency = new Map(rows.map((row) => [row.currency, row]));
  return CURRENCIES.map((currency) => ({ currency, amount: formatAmount(byCurrency.get(currency)?.held ?? 0n, currency) }));
}

export function zeroBalances(createdAt: string): BalanceRow[] {
  return CURRENCIES.map((currency) => ({ currency, available: 0n, pending: 0n, locked: 0n, held: 0n, updatedAt: createdAt }));
}

/** The Overview page: the caller's company, its balance, what is held apart from it (../shared/dashboard.md,
 * Held deposits), and the caller's role in it. The balance and the held amounts come from the one
 * read of the balance rows, so they agree. */
export async function overview(store: CompanyStore, caller: Caller, tiers: RateLimitTiers): Promise<{ company: CompanyView; balance: BalanceView; held: HeldView[]; role: Role }> {
  const companyId = caller.membership.companyId;
  const [company, rows] = await Promise.all([getCompany(store, companyId), balanceRows(store, companyId)]);
  return { company: companyView(company, tiers), balance: balanceView(rows), held: heldView(rows), role: caller.membership.role };
}
