import type { SweepInFlight } from '../ledger/reconciliation.ts';
import { tronSweepInFlight } from './tron/sweep-record.ts';
import { evmSweepInFlight } from './evm/sweep-record.ts';
import { solanaSweepInFlight } from './solana/sweep-record.ts';

/**
 * Each family's records that reconcile's one scan of the table reads
 * (functions/adapters/dynamo/reconciliation-store.ts): a family keeps its sweeps in a record of its
 * own, and says here which of them are in flight. A family without sweeps of its own adds nothing.
 */
export const SWEEPS_IN_FLIGHT: readonly ((item: Record<string, unknown>) => SweepInFlight | null)[] = [tronSweepInFlight, evmSweepInFlight, solanaSweepInFlight];
