import type { LedgerEntry, Posting } from '#functions/ledger/ledger';
import type { Currency } from '#functions/shared/money';
import type { NetworkName } from '#functions/networks/names';
import { toBigInt } from '../client.ts';
import { companyRecord, exportLineItem, storedFields, type Item } from './item.ts';

/**
 * The one owner of a stored `LedgerEntry` (docs/data-model.md): its key, and its item in both
 * directions. Everything that writes or reads ledger entries (MoneyTransaction, reconciliation,
 * `npm run ledger:csv`, the tests' ledger audit) goes through here. A posting's `currency` is
 * stored as `asset`, the word finance and formance use for it.
 */
export const ledgerEntryItem = {
  /** `ofCompany`: a company's entries, oldest first (ids are ULIDs). */
  ...companyRecord('LedgerEntry', 'LEDGER#'),

  toItem: (entry: LedgerEntry): Item => ({
    ...ledgerEntryItem.head(entry.companyId, entry.id),
    id: entry.id,
    companyId: entry.companyId,
    reference: entry.reference,
    postings: entry.postings.map(({ currency, ...posting }) => ({ ...posting, asset: currency })),
    createdAt: entry.createdAt,
    ...(entry.network && { network: entry.network }),
  }),

  /** From an item as the document client reads it, or as `unmarshall` (wrapNumbers) reads a line
   * of the daily export: amounts arrive as exact numbers (NumberValue or a decimal string). */
  fromItem: (item: Item): LedgerEntry => ({
    ...storedFields<Omit<LedgerEntry, 'postings'>>(item, ['id', 'companyId', 'reference', 'createdAt']),
    postings: (item.postings as Item[]).map(
      (posting): Posting => ({
        source: posting.source as string,
        destination: posting.destination as string,
        currency: posting.asset as Currency,
        amount: toBigInt(posting.amount),
      }),
    ),
    ...(typeof item.network === 'string' && { network: item.network as NetworkName }),
  }),
};

/** How an export's line spells the entry's `type` value (DynamoDB JSON, `{"S":"LedgerEntry"}`). */
const LEDGER_ENTRY_TYPE_IN_EXPORT = `"${ledgerEntryItem.type}"`;

/**
 * One line of the daily export (`{"Item": {...}}` in DynamoDB JSON) as a LedgerEntry, or null when
 * the line holds another record (or nothing): for a reader that streams the export line by line.
 */
export function ledgerEntryFromExportLine(line: string): LedgerEntry | null {
  // An export holds every item of the table, ledger entries a small share of them: parsing each
  // line (JSON, then DynamoDB JSON) made the daily job's time grow with deposits, addresses and
  // events. Every entry's line holds its type's name as a string; a line without it is none. A
  // line that holds it for another reason is parsed and judged by its type, as before.
  if (!line.includes(LEDGER_ENTRY_TYPE_IN_EXPORT)) return null;
  const item = exportLineItem(line);
  return item && ledgerEntryItem.isOne(item) ? ledgerEntryItem.fromItem(item) : null;
}
