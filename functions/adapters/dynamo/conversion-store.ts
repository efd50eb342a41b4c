import type { Page, PageRequest } from '#functions/shared/pagination';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { quoteRefusal, type Conversion, type ConversionStore, type Quote } from '#functions/conversions/conversions';
import { insufficientBalance, notFound } from '#functions/shared/errors';
import type { Alongside } from '#functions/shared/alongside';
import type { DomainEvent } from '#functions/shared/events';
import type { LedgerEntry } from '#functions/ledger/ledger';
import { MoneyTransaction } from './transaction.ts';
import { conversionItem, quoteItem } from './items/conversion.ts';
import { TableStore } from './table-store.ts';

/**
 * The list cursor is the base64url of the last item's sort key. Only the sort key travels: the
 * partition is always rebuilt from the authenticated company, so no cursor can name another
 * company's records.
 */
export class DynamoConversionStore extends TableStore implements ConversionStore {
  async saveQuote(quote: Quote): Promise<void> {
    await this.db.send(
      new PutCommand({ TableName: this.tableName, Item: quoteItem.toItem(quote), ConditionExpression: 'attribute_not_exists(PK)' }),
    );
  }

  // Strongly consistent reads: a quote is executed, and a conversion read or listed, right after
  // it was written; an eventually consistent read could answer 404 for a record just created.
  async getQuote(companyId: string, quoteId: string): Promise<Quote | null> {
    return this.companyRecordById(quoteItem, companyId, quoteId);
  }

  async executeConversion(quote: Quote, conversion: Conversion, entry: LedgerEntry, event: DomainEvent, alongside?: Alongside): Promise<void> {
    const quoteKey = quoteItem.key(quote.companyId, quote.id);
    const at = new Date(conversion.createdAt);
    const refusalNow = async () => {
      const current = await this.getQuote(quote.companyId, quote.id);
      return current ? quoteRefusal(current, at) : notFound('Quote');
    };
    await new MoneyTransaction(this.tableName)
      .update(quoteKey, {
        expression: 'SET usedAt = :at, conversionId = :conversionId REMOVE #ttl',
        // Checked again here, not only by the read before: a concurrent execution must refuse this
        // one, and so must a quote the read saw otherwise than it stands (a stale read). Expiry is
        // judged at the request's arrival (the conversion's createdAt), as the read judged it: a
        // request that arrived within the 30 s is honoured even if its write lands a moment after.
        condition: 'attribute_exists(PK) AND (attribute_not_exists(usedAt) OR attribute_type(usedAt, :nullType)) AND expiresAt >= :at',
        values: { ':at': conversion.createdAt, ':conversionId': conversion.id, ':nullType': 'NULL' },
        names: { '#ttl': 'ttl' },
        onFailed: async () => (await refusalNow()) ?? new Error('Quote guard failed without a reason'),
      })
      .create(conversionItem.toItem(conversion), () => new Error('Conversion id collision'))
      // The balance is placed before the transaction is sent, so a retry racing the execution that
      // used the quote (and the USDT it covered) is refused here before the quote's guard is reached:
      // the quote read again says it was used, a 409 naming the conversion rather than a 422 that
      // would tell the caller nothing was converted.
      .ledger(entry, async () => (await refusalNow()) ?? insufficientBalance())
      .event(event)
      .alongside(alongside)
      .commit(this.db);
  }

  async getConversion(companyId: string, conversionId: string): Promise<Conversion | null> {
    return this.companyRecordById(conversionItem, companyId, conversionId);
  }

  async listConversions(companyId: string, page: PageRequest): Promise<Page<Conversion>> {
    return this.newestCompanyRecords(conversionItem, 'conversion', companyId, page);
  }

}
