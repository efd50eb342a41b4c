import { sweepInFlightReader } from '../../ledger/reconciliation.ts';
import type { ReclaimCursor, SolanaSweep } from './sweep-types.ts';
import { toBigInt } from '../../adapters/dynamo/client.ts';
import type { Item } from '../../adapters/dynamo/items/item.ts';
import { withTakenOffCounts } from '../../adapters/dynamo/items/deposit-address.ts';
import { sweepOwner, type PayoutOwner } from '../../withdrawals/payouts.ts';

/**
 * The one owner of a stored `SolanaSweep` (./sweep-types.ts) and of its addresses' marks. One partition:
 * a sweep is `OPEN#<id>` while its transaction is unsettled, then among the finished sweeps by time
 * (`FINISHED#<createdAt>#<id>`), kept for reconciliation with each token account it emptied and
 * closed. Beside it, while it is open, one `ADDRESS#<owner>` mark per deposit address it moves,
 * created in the transaction that stores the sweep: a second sweep of an address cannot be stored
 * while one is in flight, whichever sweeper signs it.
 */
const PARTITION = 'SOLANA_SWEEP';

/** Whose a sweep's signature is (functions/withdrawals/payouts.ts): a batch has no one address, so
 * the sweep's id stands where TRON's sweeps name theirs. */
export const solanaSweepOwner = (sweepId: string, createdAt: string): PayoutOwner => sweepOwner(sweepId, createdAt, 'sweep');

export const solanaSweepItem = {
  type: 'SolanaSweep',
  open: (id: string) => ({ PK: PARTITION, SK: `OPEN#${id}` }),
  openOf: () => ({ PK: PARTITION, skPrefix: 'OPEN#' }),
  finished: (createdAt: string, id: string) => ({ PK: PARTITION, SK: `FINISHED#${createdAt}#${id}` }),
  finishedOf: () => ({ PK: PARTITION, skPrefix: 'FINISHED#' }),
  isOne: (item: Item): boolean => item.type === solanaSweepItem.type,
  isFinished: (sweep: SolanaSweep): boolean => sweep.status !== 'sending',

  /** The mark of a deposit address in an open sweep: which sweep holds it. */
  addressType: 'SolanaSweepAddress',
  address: (owner: string) => ({ PK: PARTITION, SK: `ADDRESS#${owner}` }),
  addressToItem: (owner: string, sweepId: string, at: string): Item => ({ ...solanaSweepItem.address(owner), type: solanaSweepItem.addressType, owner, sweepId, createdAt: at }),

  toItem: (sweep: SolanaSweep): Item => ({
    ...(solanaSweepItem.isFinished(sweep) ? solanaSweepItem.finished(sweep.createdAt, sweep.id) : solanaSweepItem.open(sweep.id)),
    type: solanaSweepItem.type,
    ...sweep,
  }),
  fromItem: (item: Item): SolanaSweep => ({
    id: item.id as string,
    status: item.status as SolanaSweep['status'],
    wallet: item.wallet as string,
    accounts: (item.accounts as Item[]).map((account) => ({
      owner: account.owner as string,
      addressIndex: Number(toBigInt(account.addressIndex)),
      tokenAccount: account.tokenAccount as string,
      amount: toBigInt(account.amount),
      rent: toBigInt(account.rent),
      // Absent on sweeps signed before the counts bounded them, and where none were kept.
      ...withTakenOffCounts(account.takenOffCounts),
    })),
    amount: toBigInt(item.amount),
    rent: toBigInt(item.rent),
    createsHotWalletAccount: item.createsHotWalletAccount === true,
    signature: item.signature as string,
    wire: item.wire as string,
    lastValidBlockHeight: toBigInt(item.lastValidBlockHeight),
    earlierSignatures: (item.earlierSignatures as string[] | undefined) ?? [],
    broadcastAt: (item.broadcastAt as string | null) ?? null,
    failureReason: (item.failureReason as string | null) ?? null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  }),
};

/** Where the reclaim of expired deposit accounts (./deposit-accounts.ts) stands: the sort key of the
 * last deposit address listing entry it handled, and the addresses after it whose accounts its last
 * run sent to be closed (a page's at most). */
export const reclaimCursorItem = {
  type: 'SolanaReclaimCursor',
  key: () => ({ PK: PARTITION, SK: 'RECLAIM_CURSOR' }),
  toItem: ({ after, closing }: ReclaimCursor, at: string): Item => ({ ...reclaimCursorItem.key(), type: reclaimCursorItem.type, after, closing, updatedAt: at }),
  // `closing` is absent on a cursor written before closings were kept.
  fromItem: (item: Item): ReclaimCursor => ({ after: (item.after as string | null) ?? null, closing: (item.closing as string[] | undefined) ?? [] }),
};

/** An open Solana sweep as reconcile reads it from the table's scan (functions/networks/record-registry.ts):
 * every version of its transaction (an earlier one was replaced only once it could no longer land,
 * but a node may yet show it) and the USDT it moves to the hot wallet. */
export const solanaSweepInFlight = sweepInFlightReader(solanaSweepItem, (sweep) =>
  solanaSweepItem.isFinished(sweep) ? null : { network: 'solana', txHashes: [sweep.signature, ...sweep.earlierSignatures], amount: sweep.amount },
);
