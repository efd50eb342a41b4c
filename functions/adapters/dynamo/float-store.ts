import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { FloatStore, HotWalletFloat } from '#functions/ledger/floats';
import type { LedgerEntry } from '#functions/ledger/ledger';
import { hotWalletFloatItem } from './items/hot-wallet-float.ts';
import { ledgerEntryItem } from './items/ledger-entry.ts';
import { answer, MoneyTransaction } from './transaction.ts';

/** Hot wallets' floats: each one's item and its ledger entry in one transaction (no company
 * balance moves: the entry is in Cambio's own books). */
export class DynamoFloatStore implements FloatStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async record(float: HotWalletFloat, entry: LedgerEntry): Promise<'recorded' | 'already_recorded'> {
    const outcome = await new MoneyTransaction(this.tableName)
      .create(hotWalletFloatItem.toItem(float, entry.id, entry.createdAt), answer('already_recorded'))
      .put(ledgerEntryItem.toItem(entry))
      .commitOrAnswer<'already_recorded'>(this.db);
    return outcome === 'written' ? 'recorded' : outcome;
  }
}
