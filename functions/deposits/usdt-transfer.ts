import type { NetworkName } from '../networks/names.ts';

/** What a deposit and a withdrawal share: USDT moving on a network to or from one address, under
 * the company's own reference (../shared/api-contract.md, Deposits and Withdrawals). */
export interface UsdtTransfer {
  id: string;
  companyId: string;
  method: 'usdt';
  reference: string;
  network: NetworkName;
  address: string;
}

/** Those fields as the contract's records begin (never the company id), in the contract's order. */
export const usdtTransferView = (record: UsdtTransfer) => ({
  id: record.id,
  method: record.method,
  reference: record.reference,
  network: record.network,
  address: record.address,
});
