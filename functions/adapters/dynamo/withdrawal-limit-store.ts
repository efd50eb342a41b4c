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
 *
 * That holds only while no part is past its share. A limit lowered during the day (the answer to a
 * leaked secret) can leave a part past its new share, what was sent before; then parts within
 * their shares no longer add up to within the limit, and requests that read the day together
 * would each fit a part and pass it together. So when a part read is past its share, every part
 * is held to what was read of it (the parts written, and a check on each of the others): the
 * day's total is then at most the one the policy checked, plus the amount; requests that read the
 * day together meet on the same items, all but one answer 'day-total', read again and are refused
 * by the policy's check of the total. Writes under a limit never take a part past its share (an
 * amount goes only where the part had room as read, and the part holds no more than that), so
 * once no part is read past its share, none gets there again under that limit: the usual case
 * writes only the parts the amount goes on.
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
  const read = (part: number) => guard.sentByPart[part] ?? 0n;
  const room = new Map(shares.map((share, part) => [part, share - read(part)]));
  const placed = placeAmount(room, guard.amount, Math.floor(Math.random() * DAY_TOTAL_PARTS));
  // The policy checked the day's total as read; parts short of it together were changed since.
  const takes = placed === 'insufficient' ? [[0, guard.amount] as [number, bigint]] : placed;
  if (shares.some((share, part) => read(part) > share)) return withinDayAsRead(transaction, companyId, guard.day, read, new Map(takes));
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

/** withinLimit when a part was read past its share: each of the day's parts held to at most what
 * was read of it (`sent <= :read`: a failed withdrawal's release, taking from a part, does not stop
 * it), the amount added to the parts in `takes`. */
function withinDayAsRead(transaction: MoneyTransaction, companyId: string, day: string, read: (part: number) => bigint, takes: ReadonlyMap<number, bigint>): MoneyTransaction {
  for (let part = 0; part < DAY_TOTAL_PARTS; part++) {
    const key = withdrawalDayItem.key(companyId, day, part);
    const asRead = { condition: 'attribute_not_exists(sent) OR sent <= :read', values: { ':read': read(part) }, onFailed: answer('day-total') };
    const amount = takes.get(part);
    if (amount === undefined) {
      transaction.check(key, asRead);
    } else {
      const added = withdrawalDayItem.addToSent(companyId, day, amount);
      transaction.update(key, { ...added, ...asRead, values: { ...added.values, ...asRead.values } });
    }
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
