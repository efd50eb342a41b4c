import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { parseAmount } from '#functions/shared/money';
import type { WithdrawalRules } from '#functions/withdrawals/withdrawals';
import { ledgerDifferences } from './ledger.ts';

export { creditAvailable } from './ledger.ts';

/** A USDT decimal string in minor units, as the tests write amounts. */
export const usdt = (value: string): bigint => parseAmount(value, 'USDT');

/** The withdrawal fee and minimum the tests request withdrawals under: 1 USDT each, as the stages';
 * and no stage contract to refuse (those tests name none as a destination). */
export const WITHDRAWAL_RULES: WithdrawalRules = { fee: usdt('1'), minimum: usdt('1'), networks: { tron: {} }, contracts: () => [] };

/** Every balance bucket of the company equals the sum of its ledger postings, to the unit. */
export async function expectLedgerMatchesBalances(db: DynamoDBDocumentClient, tableName: string, companyId: string): Promise<void> {
  expect(await ledgerDifferences(db, tableName, companyId), `ledger of ${companyId}`).toEqual([]);
}
