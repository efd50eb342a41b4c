import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import type { LocalRuntime } from '#local/runtime';
import { companyItems, signedUpOwner, STRONG_PASSWORD } from './dashboard.ts';
import { creditAvailable } from './ledger.ts';

/**
 * `New withdrawal` on the dashboard, by a new company's Owner holding 50 USDT on TRON, for a request
 * the route refuses: its answer, once the company's partition is found as it was (no withdrawal,
 * no hold, no audit entry).
 */
export async function refusedNewWithdrawal(
  api: { runtime: LocalRuntime; db: DynamoDBDocumentClient },
  companyName: string,
  withdrawal: { network: string; address: string; amount: string; reference: string },
) {
  const owner = await signedUpOwner(api.runtime, companyName);
  await creditAvailable(api.db, api.runtime.tableName, owner.companyId, 'USDT', '50');
  const before = await companyItems(api.db, api.runtime, owner.companyId);
  const refused = await owner.browser.call('POST', `/companies/${owner.companyId}/withdrawals`, { body: { password: STRONG_PASSWORD, ...withdrawal } });
  expect(await companyItems(api.db, api.runtime, owner.companyId)).toEqual(before);
  return refused;
}
