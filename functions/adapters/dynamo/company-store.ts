import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord } from '#functions/api-keys/api-keys';
import type { RateLimitTier } from '#functions/api-keys/rate-limits';
import type { AuditEntry } from '#functions/companies/audit-log';
import { zeroBalances, type BalanceRow, type Company, type CompanyStore } from '#functions/companies/company';
import { itemsUnder, readItem } from './queries.ts';
import { apiKeyItem, companyItem } from './items/company.ts';
import { auditEntryItem } from './items/audit-entry.ts';
import { balanceItem } from './items/balance.ts';
import type { Item } from './items/item.ts';
import { TableStore } from './table-store.ts';
import { MoneyTransaction, stale } from './transaction.ts';

/** A new company's profile and zero balances: a company never exists without its balances. */
export const newCompanyItems = (company: Company): Item[] => [companyItem.toItem(company), ...zeroBalances(company.createdAt).map((row) => balanceItem.toItem(company.id, row))];

export class DynamoCompanyStore extends TableStore implements CompanyStore {
  /** Profile, zero balances and the first key in one transaction: a key never points at a company
   * that does not exist. */
  async createCompany(company: Company, key: ApiKeyRecord): Promise<void> {
    await this.db.send(new TransactWriteCommand({ TransactItems: [...newCompanyItems(company), apiKeyItem.toItem(key)].map((item) => this.putNew(item)) }));
  }

  async getCompany(companyId: string): Promise<Company | null> {
    const item = await readItem(this.db, this.tableName, companyItem.key(companyId));
    return item ? companyItem.fromItem(item) : null;
  }

  /** The new tier and its audit entry in one transaction; false when the profile is gone or no
   * longer at the tier it was read at. */
  async changeRateLimitTier(company: Company, to: RateLimitTier, audit: AuditEntry): Promise<boolean> {
    const { key, ...change } = companyItem.tierChange(company, to);
    return new MoneyTransaction(this.tableName)
      .update(key, { ...change, onFailed: stale })
      .create(auditEntryItem.toItem(audit), () => new Error(`Audit entry ${audit.id} exists`))
      .commitUnlessStale(this.db);
  }

  async getBalances(companyId: string): Promise<BalanceRow[]> {
    return balanceItem.summed(await itemsUnder(this.db, this.tableName, balanceItem.ofCompany(companyId)));
  }
}
