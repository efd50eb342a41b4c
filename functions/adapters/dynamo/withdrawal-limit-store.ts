import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '#functions/companies/audit-log';
import type { LimitStore } from '#functions/withdrawals/withdrawal-limit';
import type { LimitGuard, LimitReader, LimitWrite, WithdrawalLimit } from '#functions/withdrawals/withdrawal-policy';
import { DynamoCompanyStore } from './company-store.ts';
import { auditEntryItem } from './items/audit-entry.ts';
import { DAY_TOTAL_PARTS, dayShares, withdrawalDayItem, withdrawalLimitItem } from './items/withdrawal-limit.ts';
import { itemsUnder, readItem } from './queries.ts';
import { placeAmount } from './spread-items.ts';
import { answer, MoneyTransaction } from './transaction.ts';

/** The limit and one day's total, read consistently. */
export function limitReader(db: DynamoDBDocumentClient, tableName: string): LimitReader {
  return {
    async limitFor(companyId: string, day: string) {
      const [limit, parts] = await Promise.all([readItem(db, tableName, withdrawalLimitItem.key(companyId)), itemsUnder(db, tableName, withdrawalDayItem.partsOf(companyId, day))]);
      const sentByPart = withdrawalDayItem.sentByPart(parts);
      return { limit: withdrawalLimitItem.fromItem(limit), sent: sentByPart.reduce((sum, part) => sum + part, 0n), sentByPart };
    },
  };
}

/**
 * The limit's guard (withdrawal-policy.ts LimitGuard) in a withdrawal's transaction: a condition
 * that no limit is in force at the time (no read), or the day's total raised by the amount only
 * while it stays within the limit as read, which must still be the one (its version). The amount
 * goes on a part of the day's total with room in its share of the limit, or over several
 * (items/withdrawal-limit.ts DAY_TOTAL_PARTS), each part raised only while it stays within its
 * share: so the parts together stay within the limit. Found false, they answer 'limit' (the limit's
 * item) or 'day-total' (a part: MoneyTransaction.commitOrAnswer), and the policy reads again.
 */
export function withinLimit(transaction: MoneyTransaction, companyId: string, guard: LimitGuard): MoneyTransaction {
  if (!guard.limited) {
    return transaction.check(withdrawalLimitItem.key(companyId), {
      condition:
        '(attribute_exists(pendingFrom) AND pendingFrom <= :now AND attribute_not_exists(pendingLimit)) OR ' +
        '((attribute_not_exists(pendingFrom) OR pendingFrom > :now) AND attribute_not_exists(dailyLimit))',
      values: { ':now': guard.at },
      onFailed: answer('limit'),
    });
  }
  transaction.check(withdrawalLimitItem.key(companyId), { condition: 'version = :version', values: { ':version': guard.version }, onFailed: answer('limit') });
  const shares = dayShares(guard.dailyLimit);
  const room = new Map(shares.map((share, part) => [part, share - (guard.sentByPart[part] ?? 0n)]));
  const placed = placeAmount(room, guard.amount, Math.floor(Math.random() * DAY_TOTAL_PARTS));
  // The policy checked the day's total as read; parts short of it together were changed since.
  const takes = placed === 'insufficient' ? [[0, guard.amount] as [number, bigint]] : placed;
  for (const [part, amount] of takes) {
    const added = withdrawalDayItem.addToSent(companyId, guard.day, amount);
    transaction.update(withdrawalDayItem.key(companyId, guard.day, part), {
      ...added,
      condition: 'attribute_not_exists(sent) OR sent <= :maxBefore',
      values: { ...added.values, ':maxBefore': shares[part]! - amount },
      onFailed: answer('day-total'),
    });
  }
  return transaction;
}

/** A failed withdrawal's amount taken off the total of the day that counted it, in the failure's
 * own transaction, on part 0 whatever part counted it: the parts' sum stays the day's total, and
 * a part below zero only gives its room to the next withdrawals. Unconditional: should the day's
 * item have expired (its TTL is days after the day), the ADD writes a negative total on a day no
 * limit reads again, with a TTL past, and DynamoDB deletes it. */
export function releaseFromDay(transaction: MoneyTransaction, companyId: string, day: string, amount: bigint): MoneyTransaction {
  return transaction.update(withdrawalDayItem.key(companyId, day), withdrawalDayItem.addToSent(companyId, day, -amount));
}

/** Integrations → `Daily withdrawal limit`: the limit written with its audit entry, only over the version read. */
export class DynamoLimitStore extends DynamoCompanyStore implements LimitStore {
  async limitFor(companyId: string, day: string) {
    return limitReader(this.db, this.tableName).limitFor(companyId, day);
  }

  async setLimit(companyId: string, limit: Omit<WithdrawalLimit, 'version'>, expectedVersion: number, audit: AuditEntry): Promise<LimitWrite> {
    return new MoneyTransaction(this.tableName)
      .put(withdrawalLimitItem.toItem(companyId, { ...limit, version: expectedVersion + 1 }), {
        condition: expectedVersion === 0 ? 'attribute_not_exists(PK)' : 'version = :version',
        ...(expectedVersion !== 0 && { values: { ':version': expectedVersion } }),
        onFailed: answer('changed'),
      })
      .create(auditEntryItem.toItem(audit), () => new Error(`Audit entry ${audit.id} exists`))
      .commitOrAnswer<LimitWrite>(this.db);
  }
}
