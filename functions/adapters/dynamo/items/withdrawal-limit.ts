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

/**
 * Parts a day's total is kept in. Every withdrawal of a company with a limit writes the day's total
 * in its transaction: on one item that would cap the company near 500 withdrawals a second
 * (DynamoDB's 1,000 write units an item, two a transactional write), below the highest rate tier
 * (docs/capacity.md, Hot items). Each part may hold its share of the limit (dayShares); a
 * withdrawal is added to a part with room, or split over several, so the day's total never passes
 * the limit and reaches it exactly. A part can be past its share only when the limit was lowered
 * during the day; the withdrawals then hold every part to what they read of it
 * (withdrawal-limit-store.ts withinLimit).
 */
export const DAY_TOTAL_PARTS = 8;

/** `key(companyId, day, part)`: what the company's withdrawals took on one UTC day (`sent`), part
 * 0 being the item the whole total was before it was kept in parts. */
export const withdrawalDayItem = {
  type: 'WithdrawalDay',
  key: (companyId: string, day: string, part = 0) => ({ PK: companyPartition(companyId), SK: part === 0 ? `WITHDRAWAL_DAY#${day}` : `WITHDRAWAL_DAY#${day}#${part}` }),
  /** A day's parts (days are fixed-length dates, so the prefix names no other day). */
  partsOf: (companyId: string, day: string) => ({ PK: companyPartition(companyId), skPrefix: `WITHDRAWAL_DAY#${day}` }),
  expiresAt: (day: string) => Math.floor(Date.parse(`${day}T00:00:00.000Z`) / 1000) + DAY_TOTAL_RETENTION_SECONDS,
  sentOf: (item: Item | null): bigint => (item?.sent === undefined ? 0n : toBigInt(item.sent)),
  /** Each part's `sent`, by part number, from a read of `partsOf`. */
  sentByPart: (items: readonly Item[]): bigint[] => {
    const sent = Array.from({ length: DAY_TOTAL_PARTS }, () => 0n);
    for (const item of items) {
      const part = Number(/#(\d+)$/.exec(String(item.SK).slice('WITHDRAWAL_DAY#'.length))?.[1] ?? 0);
      if (part < DAY_TOTAL_PARTS) sent[part]! += withdrawalDayItem.sentOf(item);
    }
    return sent;
  },
  /** An update adding `delta` (a withdrawal's amount, or minus a failed one's) to a part's `sent`,
   * making the item, with its TTL, where there is none yet. */
  addToSent: (companyId: string, day: string, delta: bigint) => ({
    expression: 'SET #type = :type, companyId = :companyId, #ttl = :ttl ADD sent :delta',
    names: { '#type': 'type', '#ttl': 'ttl' },
    values: { ':type': withdrawalDayItem.type, ':companyId': companyId, ':ttl': withdrawalDayItem.expiresAt(day), ':delta': delta } as Item,
  }),
};

/** Each part's share of a daily limit: equal, the remainder on part 0; together the limit. */
export function dayShares(dailyLimit: bigint): bigint[] {
  const parts = BigInt(DAY_TOTAL_PARTS);
  return Array.from({ length: DAY_TOTAL_PARTS }, (_, part) => dailyLimit / parts + (part === 0 ? dailyLimit % parts : 0n));
}
