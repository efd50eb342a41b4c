import { createReadStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { BUCKETS, type Bucket } from '#domain/ledger';
import { CURRENCIES, formatAmount, type Currency } from '#domain/money';

/**
 * Finance's reading of a DynamoDB export (docs/data-model.md, Reading the ledger): the folder a
 * point-in-time export writes (`manifest-summary.json` + `data/*.json.gz`, one `{"Item": {...}}`
 * per line in DynamoDB JSON), turned into ledger postings and a per-company balance summary that
 * checks each Balance item against the sum of the company's postings. Numbers stay exact: DynamoDB
 * numbers are read as strings and summed as bigint.
 */
export type AttributeValue =
  | { S: string }
  | { N: string }
  | { BOOL: boolean }
  | { NULL: true }
  | { L: AttributeValue[] }
  | { M: Record<string, AttributeValue> }
  | { SS: string[] }
  | { NS: string[] };

/** A plain value: numbers as their exact decimal string. */
export type Plain = string | boolean | null | Plain[] | { [key: string]: Plain };

export function fromAttributeValue(value: AttributeValue): Plain {
  if ('S' in value) return value.S;
  if ('N' in value) return value.N;
  if ('BOOL' in value) return value.BOOL;
  if ('NULL' in value) return null;
  if ('L' in value) return value.L.map(fromAttributeValue);
  if ('M' in value) return plainItem(value.M);
  if ('SS' in value) return value.SS;
  if ('NS' in value) return value.NS;
  throw new Error(`Unsupported DynamoDB attribute ${JSON.stringify(value).slice(0, 80)}`);
}

export function plainItem(item: Record<string, AttributeValue>): { [key: string]: Plain } {
  return Object.fromEntries(Object.entries(item).map(([name, value]) => [name, fromAttributeValue(value)]));
}

export interface ExportFolder {
  /** What the export's manifest says it holds, when it says so. */
  itemCount: number | null;
  exportTime: string | null;
  items: { [key: string]: Plain }[];
}

/** Reads every `data/*.json.gz` of an export folder (the one holding manifest-summary.json). */
export async function readExport(folder: string): Promise<ExportFolder> {
  const manifestFile = join(folder, 'manifest-summary.json');
  if (!existsSync(manifestFile)) {
    throw new Error(`${folder} has no manifest-summary.json: pass the export's own folder (…/AWSDynamoDB/<export id>/)`);
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { itemCount?: number; exportTime?: string; outputFormat?: string };
  if (manifest.outputFormat && manifest.outputFormat !== 'DYNAMODB_JSON') throw new Error(`The export is ${manifest.outputFormat}; ledger:csv reads DYNAMODB_JSON exports`);
  const dataDir = join(folder, 'data');
  const files = existsSync(dataDir) ? readdirSync(dataDir).filter((name) => name.endsWith('.json.gz')).sort() : [];
  const items: { [key: string]: Plain }[] = [];
  for (const file of files) {
    const lines = createInterface({ input: createReadStream(join(dataDir, file)).pipe(createGunzip()), crlfDelay: Infinity });
    for await (const line of lines) {
      if (line.trim() === '') continue;
      const { Item } = JSON.parse(line) as { Item: Record<string, AttributeValue> };
      items.push(plainItem(Item));
    }
  }
  if (typeof manifest.itemCount === 'number' && manifest.itemCount !== items.length) {
    throw new Error(`The manifest counts ${manifest.itemCount} items but data/ holds ${items.length}: the export is incomplete`);
  }
  return { itemCount: manifest.itemCount ?? null, exportTime: manifest.exportTime ?? null, items };
}

export interface PostingRow {
  entryId: string;
  createdAt: string;
  companyId: string;
  reference: string;
  source: string;
  destination: string;
  asset: Currency;
  /** Decimal string at the asset's scale. */
  amount: string;
}

export interface BalanceRow {
  companyId: string;
  asset: Currency;
  bucket: Bucket;
  /** What the company's Balance item holds. */
  balance: string;
  /** Postings into the account minus postings out of it. */
  postings: string;
  /** balance − postings: zero when the ledger explains the balance. */
  difference: string;
}

export interface LedgerReport {
  postings: PostingRow[];
  balances: BalanceRow[];
  mismatches: BalanceRow[];
}

const isCurrency = (value: unknown): value is Currency => (CURRENCIES as readonly unknown[]).includes(value);

export function ledgerReport(items: readonly { [key: string]: Plain }[]): LedgerReport {
  const postings: PostingRow[] = [];
  const sums = new Map<string, bigint>();
  const add = (account: string, asset: Currency, amount: bigint) => sums.set(`${account}|${asset}`, (sums.get(`${account}|${asset}`) ?? 0n) + amount);
  for (const item of items) {
    if (item.type !== 'LedgerEntry') continue;
    for (const posting of item.postings as { [key: string]: Plain }[]) {
      const asset = posting.asset;
      if (!isCurrency(asset)) throw new Error(`Ledger entry ${String(item.id)} has a posting in unknown asset ${String(asset)}`);
      const amount = BigInt(posting.amount as string);
      add(posting.source as string, asset, -amount);
      add(posting.destination as string, asset, amount);
      postings.push({
        entryId: item.id as string,
        createdAt: item.createdAt as string,
        companyId: item.companyId as string,
        reference: item.reference as string,
        source: posting.source as string,
        destination: posting.destination as string,
        asset,
        amount: formatAmount(amount, asset),
      });
    }
  }
  // ULIDs sort by time; within an entry the postings keep their order.
  postings.sort((a, b) => (a.createdAt === b.createdAt ? a.entryId.localeCompare(b.entryId) : a.createdAt.localeCompare(b.createdAt)));

  const balances: BalanceRow[] = [];
  const balanceItems = items.filter((item) => item.type === 'Balance' && isCurrency(item.currency));
  balanceItems.sort((a, b) => `${a.companyId} ${a.currency}`.localeCompare(`${b.companyId} ${b.currency}`));
  for (const item of balanceItems) {
    const asset = item.currency as Currency;
    for (const bucket of BUCKETS) {
      const held = BigInt((item[bucket] as string | undefined) ?? '0');
      const posted = sums.get(`company:${item.companyId as string}:${bucket}|${asset}`) ?? 0n;
      balances.push({
        companyId: item.companyId as string,
        asset,
        bucket,
        balance: formatAmount(held, asset),
        postings: formatAmount(posted, asset),
        difference: formatAmount(held - posted, asset),
      });
    }
  }
  const known = new Set(balanceItems.map((item) => `${item.companyId as string}|${item.currency as string}`));
  // Postings on a company account with no Balance item at all are a difference too.
  for (const [key, posted] of sums) {
    const match = /^company:(.+):(available|pending|locked)\|(.+)$/.exec(key);
    if (!match || posted === 0n || known.has(`${match[1]}|${match[3]}`)) continue;
    const asset = match[3] as Currency;
    balances.push({ companyId: match[1]!, asset, bucket: match[2] as Bucket, balance: formatAmount(0n, asset), postings: formatAmount(posted, asset), difference: formatAmount(-posted, asset) });
  }
  return { postings, balances, mismatches: balances.filter((row) => !/^-?0\.0+$/.test(row.difference)) };
}

export const POSTING_COLUMNS = ['entryId', 'createdAt', 'companyId', 'reference', 'source', 'destination', 'asset', 'amount'] as const;
export const BALANCE_COLUMNS = ['companyId', 'asset', 'bucket', 'balance', 'postings', 'difference'] as const;
