import { GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_KEY_NAME, type ApiKeyRecord, type KeyUseRecorder } from '#domain/api-keys';
import { zeroBalances, type BalanceRow, type Company, type CompanyStore } from '#domain/company';
import type { Currency } from '#domain/money';
import { toBigInt } from './client.ts';
import { ENTITY, keys } from './keys.ts';
import { itemsUnder } from './queries.ts';

type Item = Record<string, unknown>;

export const companyItem = {
  toItem: (company: Company): Item => ({ ...keys.companyProfile(company.id), type: ENTITY.company, ...company }),
  fromItem: (item: Item): Company => ({
    id: item.id as string,
    name: item.name as string,
    environment: item.environment as Company['environment'],
    status: item.status as Company['status'],
    createdAt: item.createdAt as string,
  }),
};

export const balanceItem = {
  toItem: (companyId: string, row: BalanceRow): Item => ({
    ...keys.balance(companyId, row.currency),
    type: ENTITY.balance,
    companyId,
    currency: row.currency,
    available: row.available,
    pending: row.pending,
    locked: row.locked,
    updatedAt: row.updatedAt,
  }),
  fromItem: (item: Item): BalanceRow => ({
    currency: item.currency as Currency,
    available: toBigInt(item.available),
    pending: toBigInt(item.pending),
    locked: toBigInt(item.locked),
    updatedAt: item.updatedAt as string,
  }),
};

export const apiKeyItem = {
  toItem: (record: ApiKeyRecord): Item => ({
    ...keys.apiKey(record.keyId),
    ...keys.apiKeyByCompany(record.companyId, record.keyId),
    type: ENTITY.apiKey,
    // Absent rather than NULL, so `attribute_not_exists(lastUsedAt)` and friends mean "never".
    ...Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null)),
  }),
  /** Keys stored before the dashboard carry only the first five fields: they read as an active
   * key named DEFAULT_KEY_NAME, so no migration is needed. */
  fromItem: (item: Item): ApiKeyRecord => ({
    keyId: item.keyId as string,
    companyId: item.companyId as string,
    environment: item.environment as ApiKeyRecord['environment'],
    name: (item.name as string | undefined) ?? DEFAULT_KEY_NAME,
    status: (item.status as ApiKeyRecord['status'] | undefined) ?? 'active',
    secretHash: item.secretHash as string,
    previousSecretHash: (item.previousSecretHash as string | undefined) ?? null,
    previousSecretExpiresAt: (item.previousSecretExpiresAt as string | undefined) ?? null,
    createdAt: item.createdAt as string,
    createdBy: (item.createdBy as string | undefined) ?? null,
    revokedAt: (item.revokedAt as string | undefined) ?? null,
    lastUsedAt: (item.lastUsedAt as string | undefined) ?? null,
  }),
};

export class DynamoCompanyStore implements CompanyStore, KeyUseRecorder {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

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
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.companyProfile(companyId) }));
    return Item ? companyItem.fromItem(Item) : null;
  }

  async getBalances(companyId: string): Promise<BalanceRow[]> {
    return (await itemsUnder(this.db, this.tableName, keys.balancesOf(companyId))).map(balanceItem.fromItem);
  }

  async findApiKey(keyId: string): Promise<ApiKeyRecord | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.apiKey(keyId) }));
    return Item ? apiKeyItem.fromItem(Item) : null;
  }

  /** The condition makes concurrent authorizers (and a revoked or deleted key) write nothing more;
   * its failure is the expected outcome of that race, not an error. */
  async recordKeyUse(keyId: string, at: string, staleBefore: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.apiKey(keyId),
          UpdateExpression: 'SET lastUsedAt = :at',
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :staleBefore)',
          ExpressionAttributeValues: { ':at': at, ':staleBefore': staleBefore },
        }),
      );
    } catch (error) {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    }
  }
}
