import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type ApiKeyRecord, type KeyUseRecorder } from '#functions/api-keys/api-keys';
import { zeroBalances, type BalanceRow, type Company, type CompanyStore } from '#functions/companies/company';
import { heldCondition, itemsUnder, readItem } from './queries.ts';
import { apiKeyItem, balanceItem, companyItem } from './items/company.ts';
import { TableStore } from './table-store.ts';

type Item = Record<string, unknown>;




export class DynamoCompanyStore extends TableStore implements CompanyStore, KeyUseRecorder {
  /** Profile, zero balances and the first key in one transaction: a company never exists without
   * its balances, and a key never points at a company that does not exist. */
  async createCompany(company: Company, key: ApiKeyRecord): Promise<void> {
    const put = (Item: Item) => ({
      Put: { TableName: this.tableName, Item, ConditionExpression: 'attribute_not_exists(PK)' },
    });
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          put(companyItem.toItem(company)),
          ...zeroBalances(company.createdAt).map((row) => put(balanceItem.toItem(company.id, row))),
          put(apiKeyItem.toItem(key)),
        ],
      }),
    );
  }

  async getCompany(companyId: string): Promise<Company | null> {
    const item = await readItem(this.db, this.tableName, companyItem.key(companyId));
    return item ? companyItem.fromItem(item) : null;
  }

  async getBalances(companyId: string): Promise<BalanceRow[]> {
    return (await itemsUnder(this.db, this.tableName, balanceItem.ofCompany(companyId))).map(balanceItem.fromItem);
  }

  /** Read consistently: a key issued or a secret rolled a moment ago works on the next call, and
   * API Gateway would otherwise cache a stale refusal for the authorizer's TTL. */
  async findApiKey(keyId: string): Promise<ApiKeyRecord | null> {
    const item = await readItem(this.db, this.tableName, apiKeyItem.key(keyId));
    return item ? apiKeyItem.fromItem(item) : null;
  }

  /** The condition makes concurrent authorizers (and a revoked or deleted key) write nothing more;
   * its failure is the expected outcome of that race, not an error. */
  async recordKeyUse(keyId: string, at: string, staleBefore: string, sourceIp: string | null): Promise<void> {
    await heldCondition(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: apiKeyItem.key(keyId),
          UpdateExpression: sourceIp ? 'SET lastUsedAt = :at, lastUsedIp = :ip' : 'SET lastUsedAt = :at REMOVE lastUsedIp',
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :staleBefore)',
          ExpressionAttributeValues: { ':at': at, ':staleBefore': staleBefore, ...(sourceIp && { ':ip': sourceIp }) },
        }),
      ),
    );
  }
}
