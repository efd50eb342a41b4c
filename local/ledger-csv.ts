import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { argumentsOf, refuser } from './command-line.ts';
import { BALANCE_COLUMNS, POSTING_COLUMNS, ledgerReport, readExport, toCsv } from './ledger-export.ts';

/**
 * `npm run ledger:csv -- <export folder> [--out <dir>]`: a DynamoDB export (DynamoDB JSON, as the
 * stack's daily export writes it) to `ledger-postings.csv` and `ledger-balances.csv`. Exits 1 when
 * a company's Balance item differs from the sum of its postings, listing each difference.
 */
const refuse: (message: string) => never = refuser('Usage: npm run ledger:csv -- <export folder: the one with manifest-summary.json and data/> [--out <dir>]');
const { positionals, values } = argumentsOf({ out: { type: 'string' } }, refuse, true);
const folder = positionals[0];
if (!folder) refuse('The export folder is needed.');
if (positionals.length > 1) refuse(`One export folder only, got ${positionals.length} (${positionals.join(' ')}): the output folder is --out <dir>.`);

try {
  const exported = await readExport(folder);
  const report = ledgerReport(exported.items);
  const out = resolve(values.out ?? folder);
  const postingsFile = join(out, 'ledger-postings.csv');
  const balancesFile = join(out, 'ledger-balances.csv');
  writeFileSync(postingsFile, toCsv(report.postings, POSTING_COLUMNS));
  writeFileSync(balancesFile, toCsv(report.balances, BALANCE_COLUMNS));
  console.log(`export of ${exported.exportTime ?? 'unknown time'}: ${exported.items.length} items`);
  console.log(`${report.postings.length} postings  → ${postingsFile}`);
  console.log(`${report.balances.length} balance rows → ${balancesFile}`);
  if (report.mismatches.length === 0) {
    console.log('every Balance item equals the sum of its postings');
  } else {
    console.log(`${report.mismatches.length} balance(s) differ from their postings:`);
    for (const row of report.mismatches) console.log(`  ${row.companyId} ${row.asset} ${row.bucket}: balance ${row.balance}, postings ${row.postings}, difference ${row.difference}`);
    process.exitCode = 1;
  }
} catch (error) {
  console.error(`ledger:csv failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
}
