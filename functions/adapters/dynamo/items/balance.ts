import type { BalanceRow } from '#functions/companies/company';
import type { Currency } from '#functions/shared/money';
import { toBigInt } from '../client.ts';
import { companyRecord, type Item } from './item.ts';

/** The one owner of a company's stored `Balance` items (docs/data-model.md). */
export const balanceItem = {
  /** `key(companyId, currency)`: one balance per currency. */
  ...companyRecord('Balance', 'BALANCE#'),

  toItem: (companyId: string, row: BalanceRow): Item => ({
    ...balanceItem.head(companyId, row.currency),
    companyId,
    ...row,
  }),
  fromItem: (item: Item): BalanceRow => ({
    currency: item.currency as Currency,
    available: toBigInt(item.available),
    pending: toBigInt(item.pending),
    locked: toBigInt(item.locked),
    // Balances made before deposits could be held have no `held` yet.
    held: item.held === undefined ? 0n : toBigInt(item.held),
    updatedAt: item.updatedAt as string,
  }),
};

