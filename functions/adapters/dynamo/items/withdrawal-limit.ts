import type { WithdrawalLimit } from '#functions/withdrawals/withdrawal-policy';
import { NO_LIMIT } from '#functions/withdrawals/withdrawal-policy';
import { toBigInt } from '../client.ts';
import { companyPartition, companySetting, type Item } from './item.ts';

/** Days a day's total is kept after it: enough to read back yesterday's in any time zone. */
const DAY_TOTAL_RETENTION_SECONDS = 3 * 24 * 3600;

/**
 * The one owner of a company's stored `WithdrawalLimit` and of its `WithdrawalDay` totals
 * (docs/data-model.md). Amounts are USDT minor units as DynamoDB numbers. A company that never set a
 * limit has no item: it reads as none.
 */
export const withdrawalLimitItem = {
  ...companySetting('WithdrawalLimit', 'WITHDRAWAL_LIMIT'),
  toItem: (companyId: string, limit: WithdrawalLimit): Item => ({
    ...withdrawalLimitItem.head(companyId),
    companyId,
    version: limit.version,
    ...(limit.dailyLimit !== null && { dailyLimit: limit.dailyLimit }),
    // A pending removal is `pendingFrom` without `pendingLimit`.
    ...(limit.pending && { pendingFrom: limit.pending.from }),
    ...(limit.pending?.dailyLimit != null && { pendingLimit: limit.pending.dailyLimit }),
  }),
  fromItem: (item: Item | null): WithdrawalLimit =>
    item
      ? {
          dailyLimit: item.dailyLimit === undefined ? null : toBigInt(item.dailyLimit),
          pending: item.pendingFrom === undefined ? null : { from: item.pendingFrom as string, dailyLimit: item.pendingLimit === undefined ? null : toBigInt(item.pendingLimit) },
          version: Number(item.version ?? 0),
        }
      : NO_LIMIT,
};

/** `key(companyId, day)`: what the company's withdrawals took on one UTC day (`sent`). */
export const withdrawalDayItem = {
  type: 'WithdrawalDay',
  key: (companyId: string, day: string) => ({ PK: companyPartition(companyId), SK: `WITHDRAWAL_DAY#${day}` }),
  expiresAt: (day: string) => Math.floor(Date.parse(`${day}T00:00:00.000Z`) / 1000) + DAY_TOTAL_RETENTION_SECONDS,
  sentOf: (item: Item | null): bigint => (item?.sent === undefined ? 0n : toBigInt(item.sent)),
  /** An update adding `delta` (a withdrawal's amount, or minus a failed one's) to the day's `sent`,
   * making the item, with its TTL, where there is none yet. */
  addToSent: (companyId: string, day: string, delta: bigint) => ({
    expression: 'SET #type = :type, companyId = :companyId, #ttl = :ttl ADD sent :delta',
    names: { '#type': 'type', '#ttl': 'ttl' },
    values: { ':type': withdrawalDayItem.type, ':companyId': companyId, ':ttl': withdrawalDayItem.expiresAt(day), ':delta': delta } as Item,
  }),
};
