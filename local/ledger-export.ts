import { createReadStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { exportLineItem, type Item } from '#adapters/dynamo/items/item';
import { ledgerEntryItem } from '#adapters/dynamo/items/ledger-entry';
import { AccountBalances, BUCKETS, companyAccount, type Bucket } from '#functions/ledger/ledger';
import { byCreation, postingRows, type PostingRow } from '#functions/ledger/ledger-csv';
import { CURRENCIES, formatAmount, type Currency } from '#functions/shared/money';
import { balanceItem } from '#adapters/dynamo/items/balance';

/**
 * Finance's reading of a DynamoDB export (docs/data-model.md, Reading the ledger): the folder a
 * point-in-time export writes (`manifest-summary.json` + `data/*.json.gz`, one `{"Item": {...}}`
 * per line in DynamoDB JSON), turned into ledger postings and a per-company balance summary that
 * checks each Balance item against the sum of the company's postings. Numbers stay exact: each
 * line is unmarshalled with its numbers wrapped, and the records read them as bigint.
 */
export interface ExportFolder {
  /** What the export's manifest says it holds, when it says so. */
  itemCount: number | null;
  exportTime: string | null;
  items: Item[];
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
  const items: Item[] = [];
  for (const file of files) {
    const lines = createInterface({ input: createReadStream(join(dataDir, file)).pipe(createGunzip()), crlfDelay: Infinity });
    for await (const line of lines) {
      const item = exportLineItem(line);
      if (item) items.push(item);
    }
  }
  if (typeof manifest.itemCount === 'number' && manifest.itemCount !== items.length) {
    throw new Error(`The manifest counts ${manifest.itemCount} items but data/ holds ${items.length}: the export is incomplete`);
  }
  return { itemCount: manifest.itemCount ?? null, exportTime: manifest.exportTime ?? null, items };
}

export { POSTING_COLUMNS, toCsv, type PostingRow } from '#functions/ledger/ledger-csv';

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

export function ledgerReport(items: readonly Item[]): LedgerReport {
  const postings: PostingRow[] = [];
  const sums = new AccountBalances();
  for (const item of items) {
    if (!ledgerEntryItem.isOne(item)) continue;
    const entry = ledgerEntryItem.fromItem(item);
    for (const posting of entry.postings) {
      if (!isCurrency(posting.currency)) throw new Error(`Ledger entry ${entry.id} has a posting in unknown asset ${String(posting.currency)}`);
    }
    postings.push(...postingRows(entry));
    sums.add(entry);
  }
  // Sorted in memory: this is the local command over a whole export on a developer's machine. The
  // deployed daily files (functions/adapters/finance/ledger-day-files.ts) hold one day at a time.
  postings.sort(byCreation);

  const balances: BalanceRow[] = [];
  // A balance is the sum of its shards (adapters/dynamo/items/balance.ts).
  const shardsByCompany = new Map<string, (typeof items)[number][]>();
  for (const item of items.filter((one) => balanceItem.isOne(one) && isCurrency(one.currency))) {
    const companyId = item.companyId as string;
    const shards = shardsByCompany.get(companyId) ?? [];
    shards.push(item);
    shardsByCompany.set(companyId, shards);
  }
  const balanceItems = [...shardsByCompany].flatMap(([companyId, shards]) => balanceItem.summed(shards).map((row) => ({ companyId, ...row })));
  balanceItems.sort((a, b) => `${a.companyId} ${a.currency}`.localeCompare(`${b.companyId} ${b.currency}`));
  for (const item of balanceItems) {
    const asset = item.currency;
    for (const bucket of BUCKETS) {
      const held = item[bucket];
      const posted = sums.of(companyAccount(item.companyId, bucket), asset);
      balances.push({
        companyId: item.companyId,
        asset,
        bucket,
        balance: formatAmount(held, asset),
        postings: formatAmount(posted, asset),
        difference: formatAmount(held - posted, asset),
      });
    }
  }
  const known = new Set(balanceItems.map((item) => `${item.companyId}|${item.currency}`));
  // Postings on a company account with no Balance item at all are a difference too, in every bucket.
  const companyBucket = new RegExp(`^company:(.+):(${BUCKETS.join('|')})$`);
  for (const { account, currency: asset, balance: posted } of sums.all()) {
    const match = companyBucket.exec(account);
    if (!match || posted === 0n || known.has(`${match[1]}|${asset}`)) continue;
    balances.push({ companyId: match[1]!, asset, bucket: match[2] as Bucket, balance: formatAmount(0n, asset), postings: formatAmount(posted, asset), difference: formatAmount(-posted, asset) });
  }
  return { postings, balances, mismatches: balances.filter((row) => !/^-?0\.0+$/.test(row.difference)) };
}

export const BALANCE_COLUMNS = ['companyId', 'asset', 'bucket', 'balance', 'postings', 'difference'] as const;
