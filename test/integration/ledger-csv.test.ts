import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { createQuote, executeConversion } from '#functions/conversions/conversions';
import { BUCKETS, networkAccount, companyAccount } from '#functions/ledger/ledger';
import { formatAmount, parseAmount, type Currency } from '#functions/shared/money';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { requestWithdrawal } from '#functions/withdrawals/withdrawals';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoConversionStore } from '#adapters/dynamo/conversion-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { StaticPriceSource } from '#adapters/price/static-price-source';
import { freshTable } from '../support/dynamo.ts';
import { creditAvailable, WITHDRAWAL_RULES } from '../support/money.ts';
import { exportLayout, scanTable, type ExportItem } from '../support/table-export.ts';

/**
 * `npm run ledger:csv` on an export made from real data: money moved through the domain and the
 * DynamoDB stores on DynamoDB Local, the table scanned in DynamoDB JSON and written the way a
 * point-in-time export lays it out (manifest-summary.json, data/*.json.gz with one {"Item": …} per
 * line), then the CLI run on that folder as finance would.
 */
type Row = Record<string, string>;

let env: Awaited<ReturnType<typeof freshTable>>;
let work: string;
let exportDir: string;
const companies: { id: string; balances: Awaited<ReturnType<DynamoCompanyStore['getBalances']>> }[] = [];
let conversion: Awaited<ReturnType<typeof executeConversion>>;
let withdrawalId: string;

beforeAll(async () => {
  env = await freshTable();
  const companyStore = new DynamoCompanyStore(env.db, env.tableName);
  const a = (await createCompany(companyStore, { name: 'Ledger A', environment: 'sandbox' })).company.id;
  const b = (await createCompany(companyStore, { name: 'Ledger B', environment: 'sandbox' })).company.id;
  await creditAvailable(env.db, env.tableName, a, 'USDT', '250.5');
  await creditAvailable(env.db, env.tableName, b, 'USDT', '0.000001');
  const withdrawal = await requestWithdrawal(new DynamoWithdrawalStore(env.db, env.tableName), WITHDRAWAL_RULES, a, {
    reference: 'payout-1',
    address: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 9_001),
    amount: parseAmount('100.25', 'USDT'),
  });
  withdrawalId = withdrawal.id;
  const conversions = new DynamoConversionStore(env.db, env.tableName);
  const quote = await createQuote(conversions, { priceSource: new StaticPriceSource('5.40000000'), spreadBps: 50 }, a, { sourceAmount: parseAmount('50', 'USDT') });
  conversion = await executeConversion(conversions, a, { quoteId: quote.id });
  for (const id of [a, b]) companies.push({ id, balances: await companyStore.getBalances(id) });

  work = mkdtempSync(join(tmpdir(), 'cambio-export-'));
  exportDir = join(work, 'AWSDynamoDB', '01700000000000-abcdef12');
  writeExport(exportDir, await scanTable(env.endpoint, env.tableName));
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('npm run ledger:csv', () => {
  it('writes every posting with its amount at the asset scale, and a balance summary that matches the Balance items', () => {
    const run = ledgerCsv(exportDir);

    expect(run.status, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toContain('every Balance item equals the sum of its postings');
    const postings = readCsv(join(exportDir, 'ledger-postings.csv'));
    const [a, b] = companies.map((company) => company.id) as [string, string];
    const rowsOf = (companyId: string, reference: string) => postings.filter((row) => row.companyId === companyId && (row.reference ?? '').startsWith(reference));
    expect(rowsOf(b, 'test-credit:')).toEqual([
      expect.objectContaining({ source: networkAccount('tron'), destination: companyAccount(b, 'available'), asset: 'USDT', amount: '0.000001' }),
    ]);
    expect(rowsOf(a, 'test-credit:').map((row) => row.amount)).toEqual(['250.500000']);
    expect(rowsOf(a, `withdrawal:${withdrawalId}:hold`).map((row) => [row.source, row.destination, row.amount, row.network]).sort()).toEqual(
      [
        [companyAccount(a, 'available'), companyAccount(a, 'locked'), '1.000000', 'tron'],
        [companyAccount(a, 'available'), companyAccount(a, 'locked'), '100.250000', 'tron'],
      ].sort(),
    );
    const converted = rowsOf(a, `conversion:${conversion.id}`);
    expect(converted.map((row) => [row.asset, row.amount])).toEqual(
      expect.arrayContaining([
        ['USDT', '50.000000'],
        ['BRL', formatAmount(conversion.settlementAmount, 'BRL')],
      ]),
    );
    expect(converted.find((row) => row.asset === 'BRL')!.amount).toMatch(/^\d+\.\d{2}$/);
    // A conversion moves nothing on a network: its network cell is empty.
    expect(converted.map((row) => row.network)).toEqual(['', '']);
    for (const row of postings) expect(Object.keys(row)).toEqual(['entryId', 'createdAt', 'companyId', 'reference', 'source', 'destination', 'asset', 'amount', 'network']);

    const summary = readCsv(join(exportDir, 'ledger-balances.csv'));
    for (const company of companies) {
      for (const balance of company.balances) {
        for (const bucket of BUCKETS) {
          const row = summary.find((candidate) => candidate.companyId === company.id && candidate.asset === balance.currency && candidate.bucket === bucket);
          expect(row, `${company.id} ${balance.currency} ${bucket}`).toEqual({
            companyId: company.id,
            asset: balance.currency,
            bucket,
            balance: formatAmount(balance[bucket], balance.currency as Currency),
            postings: formatAmount(balance[bucket], balance.currency as Currency),
            difference: formatAmount(0n, balance.currency as Currency),
          });
        }
      }
    }
    expect(summary.find((row) => row.companyId === a && row.asset === 'USDT' && row.bucket === 'available')!.balance).toBe('99.250000');
  });

  it('reports a Balance item that its postings do not explain, and exits 1', () => {
    const tampered = join(work, 'tampered');
    // One shard of the balance (adapters/dynamo/items/balance.ts) holds one unit more than written.
    let tamperedOne = false;
    writeExport(
      tampered,
      readExportItems(exportDir).map((item) => {
        if (tamperedOne || item.type?.S !== 'Balance' || item.companyId?.S !== companies[1]!.id || item.currency?.S !== 'USDT') return item;
        tamperedOne = true;
        return { ...item, available: { N: String(BigInt(item.available?.N ?? '0') + 1n) } };
      }),
    );

    const run = ledgerCsv(tampered);

    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`${companies[1]!.id} USDT available: balance 0.000002, postings 0.000001, difference 0.000001`);
  });

  it('refuses a folder that is not an export', () => {
    const run = ledgerCsv(work);

    expect(run.status).toBe(2);
    expect(run.stderr).toContain('manifest-summary.json');
  });
});

/** The export's folder on disk, as `aws s3 cp --recursive` of its S3 folder leaves it. */
function writeExport(folder: string, items: ExportItem[]): void {
  mkdirSync(join(folder, 'data'), { recursive: true });
  for (const [name, bytes] of exportLayout(items, { exportTime: new Date() }).files) writeFileSync(join(folder, name), bytes);
}

function readExportItems(folder: string): Record<string, AttributeValue & Record<string, any>>[] {
  return [0, 1].flatMap((i) =>
    gunzipSync(readFileSync(join(folder, 'data', `part-${i}.json.gz`)))
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line).Item),
  );
}

function ledgerCsv(folder: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'local/ledger-csv.ts', folder], { encoding: 'utf8', cwd: join(import.meta.dirname, '../..') });
}

/** The CSV as written: no cell here needs quoting (ids, ISO times, account names, decimals). */
function readCsv(file: string): Row[] {
  const [header, ...lines] = readFileSync(file, 'utf8').trim().split('\n');
  const columns = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [columns[i]!, cell])));
}
