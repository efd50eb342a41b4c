import { sweepInFlightReader } from '../../ledger/reconciliation.ts';
import type { Sweep } from './sweeps.ts';
import { toBigInt } from '../../adapters/dynamo/client.ts';
import { depositAddressCounts } from '../../adapters/dynamo/items/deposit-address.ts';
import type { Item } from '../../adapters/dynamo/items/item.ts';

/**
 * The one owner of a stored `Sweep`: a deposit address's sweep in progress (one at a time, `OPEN`)
 * and, once done or failed, its record among the address's finished sweeps, newest last by time.
 */
export const sweepItem = {
  type: 'Sweep',
  open: (address: string) => ({ PK: `SWEEP#${address}`, SK: 'OPEN' }),
  finished: (address: string, createdAt: string) => ({ PK: `SWEEP#${address}`, SK: `FINISHED#${createdAt}` }),
  finishedOf: (address: string) => ({ PK: `SWEEP#${address}`, skPrefix: 'FINISHED#' }),
  isOne: (item: Item): boolean => item.type === sweepItem.type,
  /** Done or failed: kept among the address's finished sweeps, no longer `OPEN`. */
  isFinished: (sweep: Sweep): boolean => sweep.status === 'done' || sweep.status === 'failed',

  /** In progress under `OPEN`; finished, under its own `FINISHED#` key. */
  toItem: (sweep: Sweep): Item => ({
    ...(sweepItem.isFinished(sweep) ? sweepItem.finished(sweep.address, sweep.createdAt) : sweepItem.open(sweep.address)),
    type: sweepItem.type,
    ...sweep,
  }),
  fromItem: (item: Item): Sweep => ({
    address: item.address as string,
    addressIndex: Number(toBigInt(item.addressIndex)),
    amount: toBigInt(item.amount),
    status: item.status as Sweep['status'],
    topUpTxHash: (item.topUpTxHash as string | null) ?? null,
    sweepTxHash: (item.sweepTxHash as string | null) ?? null,
    // Absent on sweeps stored before reclaims were made.
    reclaimTxHash: (item.reclaimTxHash as string | null | undefined) ?? null,
    reclaimedSun: item.reclaimedSun === undefined || item.reclaimedSun === null ? null : toBigInt(item.reclaimedSun),
    reclaimAttempts: item.reclaimAttempts === undefined ? 0 : Number(toBigInt(item.reclaimAttempts)),
    // Absent on sweeps stored before the address's counts bounded them.
    takenOffCounts: depositAddressCounts.takenFromItem(item.takenOffCounts),
    stepExpiresAt: (item.stepExpiresAt as string | null | undefined) ?? null,
    failureReason: (item.failureReason as string | null) ?? null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  }),
};

/** An open TRON sweep as reconcile reads it from the table's scan (functions/networks/record-registry.ts):
 * its sweep transaction, once sent, and the USDT it moves to the hot wallet. */
export const tronSweepInFlight = sweepInFlightReader(sweepItem, (sweep) =>
  sweep.status === 'sweeping' && sweep.sweepTxHash ? { network: 'tron', txHashes: [sweep.sweepTxHash], amount: sweep.amount } : null,
);
