import { beforeAll } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { createDeposit, getDeposit, type Deposit } from '#functions/deposits/deposits';
import type { NetworkName } from '#functions/networks/names';
import type { SliceSettings } from '#functions/settings/functions';
import { depositSettingsFrom } from '#adapters/deposit-settings';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import type { TestTable } from './dynamo.ts';
import { storedEvents } from './records.ts';

/**
 * A test file's sandbox company in its table, made before the file's tests: its `id`, deposits made
 * for it under the stage's `settings()` (a function, as a file knows them only once its nodes are
 * up), read back, its USDT balance (zero before any deposit is credited) and a deposit's events.
 */
export function useDepositCompany(env: TestTable, name: string, settings: () => SliceSettings<'deposits' | 'contracts'>) {
  const deposits = new DynamoDepositStore(env.db, env.tableName);
  const companies = new DynamoCompanyStore(env.db, env.tableName);
  const company = {
    id: '',
    newDeposit: (network: NetworkName) => createDeposit(deposits, depositSettingsFrom(settings()), company.id, { network, reference: `${network}-${Math.random()}` }, new Date()),
    read: (deposit: Deposit) => getDeposit(deposits, company.id, deposit.id),
    usdtBalance: async () => (await companies.getBalances(company.id)).find((row) => row.currency === 'USDT') ?? { available: 0n, pending: 0n },
    eventsOf: async (deposit: Deposit) => (await storedEvents(env.db, env.tableName, company.id)).filter((event) => (event.data as { id: string }).id === deposit.id),
  };
  beforeAll(async () => {
    company.id = (await createCompany(companies, { name, environment: 'sandbox' }, new Date())).company.id;
  });
  return company;
}
