import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { itemsUnder } from '#adapters/dynamo/queries';
import { ledgerEntryItem } from '#adapters/dynamo/items/ledger-entry';
import { MoneyTransaction } from '#adapters/dynamo/transaction';
import { ApiError } from '#functions/shared/errors';
import { BUCKETS, networkAccount, accountBalance, companyAccount, ledgerEntry, type Bucket, type Posting } from '#functions/ledger/ledger';
import { CURRENCIES, parseAmount, type Currency } from '#functions/shared/money';
import type { NetworkName } from '#functions/networks/names';
import { balanceItem } from '#adapters/dynamo/items/balance';

/**
 * Ledger helpers shared by the tests and `npm run bench` (no vitest here, so the bench can use them).
 */

/**
 * Funds a company the way the chain will (a posting from the TRON network, or the one named, into
 * `available`), through the ledger module: tests may credit directly, as there is no funding route.
 * A network named is stored on the entry, as a deposit's entries store theirs.
 */
export async function creditAvailable(
  db: DynamoDBDocumentClient,
  tableName: string,
  companyId: string,
  currency: Currency,
  amount: string,
  network?: NetworkName,
): Promise<void> {
  const posting: Posting = {
    source: networkAccount(network ?? 'tron'),
    destination: companyAccount(companyId, 'available'),
    currency,
    amount: parseAmount(amount, currency),
  };
  const entry = ledgerEntry(companyId, `test-credit:${Math.random()}`, [posting], new Date(), network);
  await new MoneyTransaction(tableName).ledger(entry, () => new ApiError('INTERNAL_ERROR', 'unreachable')).commit(db);
}

export interface LedgerDifference {
  currency: Currency;
  bucket: Bucket;
  balance: bigint;
  postings: bigint;
}

/** Each balance bucket of the company against the sum of its ledger postings; empty when all match. */
export async function ledgerDifferences(db: DynamoDBDocumentClient, tableName: string, companyId: string): Promise<LedgerDifference[]> {
  const entries = (await itemsUnder(db, tableName, ledgerEntryItem.ofCompany(companyId))).map(ledgerEntryItem.fromItem);
  const balances = balanceItem.summed(await itemsUnder(db, tableName, balanceItem.ofCompany(companyId)));
  const differences: LedgerDifference[] = [];
  for (const currency of CURRENCIES) {
    const balance = balances.find((row) => row.currency === currency);
    for (const bucket of BUCKETS) {
      const postings = accountBalance(entries, companyAccount(companyId, bucket), currency);
      const held = balance?.[bucket] ?? 0n;
      if (held !== postings) differences.push({ currency, bucket, balance: held, postings });
    }
  }
  return differences;
}
