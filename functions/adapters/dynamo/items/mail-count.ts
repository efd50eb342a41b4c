import type { MailCounter } from '#functions/mail/mail-limits';
import { TABLE } from '../table-definition.ts';
import { companyPartition } from './item.ts';

/**
 * The one owner of a stored `MailCount`: how many mails of a kind a company sent (in all, or to one
 * address), an address was sent (in all, or asked from one source address), or one source address asked for, in one fixed window (an hour `YYYY-MM-DDTHH`, a day `YYYY-MM-DD`, UTC). Counted by one
 * conditional UpdateItem, so parallel requests cannot pass the limit together; `ttl` removes it once
 * its window is over.
 */
export const mailCountItem = {
  type: 'MailCount',
  key: (counter: MailCounter, window: string) => {
    const of = counter.of;
    if ('companyId' in of && 'email' in of) return { PK: companyPartition(of.companyId), SK: `MAIL_COUNT#${counter.kind}#TO#${of.email}#${window}` };
    if ('companyId' in of) return { PK: companyPartition(of.companyId), SK: `MAIL_COUNT#${counter.kind}#${window}` };
    if ('email' in of && 'source' in of) return { PK: `MAILBOX#${of.email}`, SK: `MAIL_COUNT#${counter.kind}#FROM#${of.source}#${window}` };
    if ('email' in of) return { PK: `MAILBOX#${of.email}`, SK: `MAIL_COUNT#${counter.kind}#${window}` };
    return { PK: `SOURCE#${of.source}`, SK: `MAIL_COUNT#${counter.kind}#${window}` };
  },
  /** The UpdateItem's parts: one more, unless already at `limit` (the condition fails then). */
  countOne: (limit: number, expiresAtSeconds: number) => ({
    UpdateExpression: 'SET #type = :type, #ttl = :ttl ADD #count :one',
    ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
    ExpressionAttributeNames: { '#type': 'type', '#ttl': TABLE.ttlAttribute, '#count': 'count' },
    ExpressionAttributeValues: { ':type': mailCountItem.type, ':ttl': expiresAtSeconds, ':one': 1, ':limit': limit },
  }),
  /** One less: a count taken back when another limit refused the same mail. */
  uncountOne: () => ({
    UpdateExpression: 'ADD #count :minusOne',
    ConditionExpression: 'attribute_exists(#count)',
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: { ':minusOne': -1 },
  }),
};
