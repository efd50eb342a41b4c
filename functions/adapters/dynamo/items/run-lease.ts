import { globalRecord, type Item } from './item.ts';

/**
 * The one owner of a stored `RunLease` (functions/networks/run-lease.ts): a job's lease on one
 * network, in a partition of its own, `holder` the run holding it and `until` when it lapses (ISO
 * time, compared as text). Released by setting `until` to the release's time, so the job's role
 * needs no DeleteItem; TTL removes a lease a day after it lapsed.
 */
export const runLeaseItem = {
  ...globalRecord('RunLease', 'RUN_LEASE', 'LEASE'),
  toItem: (name: string, holder: string, until: Date): Item => ({
    ...runLeaseItem.head(name),
    holder,
    until: until.toISOString(),
    ttl: Math.floor(until.getTime() / 1000) + 24 * 60 * 60,
  }),
};
