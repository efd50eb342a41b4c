import { companyPartition } from './item.ts';

/**
 * The keys of a stored `IdempotencyRecord`: one per company and Idempotency-Key, in the company's
 * partition, so one company's key never answers another's request. Its fields are written and
 * read by the idempotency store (../idempotency-store.ts), whose conditional put is the claim.
 */
export const idempotencyRecordItem = {
  type: 'IdempotencyRecord',
  key: (companyId: string, idempotencyKey: string) => ({ PK: companyPartition(companyId), SK: `IDEMPOTENCY#${idempotencyKey}` }),
};
