import type { EveryDepositAddressTurn } from '#functions/ledger/reconciliation';
import { toBigInt } from '../client.ts';
import type { Item } from './item.ts';

/**
 * The one owner of a stored `ReconcileAddressTurn`: where reconcile's turn through every deposit
 * address stands (functions/ledger/reconciliation.ts EveryDepositAddressListing). `after`, the
 * `DepositAddressListed` sort key of the last entry read (absent: the next run starts a turn from
 * the listing's start); the turn under way, `startedAt`, `entries` and `runs`; and `lastTurn`, what
 * the last complete one read and took. One item for the stage, written once a run.
 */
export const reconcileAddressTurnItem = {
  type: 'ReconcileAddressTurn',
  key: () => ({ PK: 'RECONCILE#EVERY_DEPOSIT_ADDRESS', SK: 'TURN' }),
  toItem: (turn: EveryDepositAddressTurn, at: string): Item => ({
    ...reconcileAddressTurnItem.key(),
    type: reconcileAddressTurnItem.type,
    ...(turn.after !== null && { after: turn.after }),
    startedAt: turn.startedAt,
    entries: turn.entries,
    runs: turn.runs,
    ...(turn.last !== null && { lastTurn: turn.last }),
    updatedAt: at,
  }),
  fromItem: (item: Item): EveryDepositAddressTurn => {
    const last = item.lastTurn as Item | undefined;
    return {
      after: typeof item.after === 'string' ? item.after : null,
      startedAt: item.startedAt as string,
      entries: Number(toBigInt(item.entries)),
      runs: Number(toBigInt(item.runs)),
      last: last
        ? { entries: Number(toBigInt(last.entries)), runs: Number(toBigInt(last.runs)), startedAt: last.startedAt as string, endedAt: last.endedAt as string }
        : null,
    };
  },
};
