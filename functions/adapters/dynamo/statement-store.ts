import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { encodeTime } from 'ulid';
import { ID_PREFIXES } from '#functions/shared/ids';
import type { LedgerEntry } from '#functions/ledger/ledger';
import type { StatementStore } from '#functions/companies/statement';
import { DynamoCompanyStore } from './company-store.ts';
import { companyPartition } from './items/item.ts';
import { ledgerEntryItem } from './items/ledger-entry.ts';

/**
 * A company's balances and its ledger entries by time (Overview's statement). Entry ids are ULIDs,
 * so a time range is a sort-key range of the company's partition, `LEDGER#led_<time from>` up to
 * `LEDGER#led_<time to>`, read oldest first and consistently, a page (1 MB) at a time.
 */
export class DynamoStatementStore extends DynamoCompanyStore implements StatementStore {
  async *ledgerEntries(companyId: string, range: { fromMs: number; toMs?: number }): AsyncGenerator<LedgerEntry[]> {
    const { skPrefix } = ledgerEntryItem.ofCompany(companyId);
    const idPrefix = `${skPrefix}${ID_PREFIXES.ledgerEntry}_`;
    // An id made at `toMs` sorts above its 10-character time alone, so the bound leaves it out.
    const high = range.toMs === undefined ? `${idPrefix}~` : idPrefix + encodeTime(range.toMs, 10);
    let start: Record<string, unknown> | undefined;
    do {
      const { Items = [], LastEvaluatedKey } = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :low AND :high',
          ExpressionAttributeValues: { ':pk': companyPartition(companyId), ':low': idPrefix + encodeTime(range.fromMs, 10), ':high': high },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      if (Items.length) yield Items.map(ledgerEntryItem.fromItem);
      start = LastEvaluatedKey;
    } while (start);
  }
}
