/**
 * Every payout Cambio signs — a withdrawal, a deposit's split forward (a withdrawal too), a
 * sweep's fee top-up or its USDT transfer — is its own transaction on chain. Two payouts of the
 * same amount to the same address signed against the same reference block would otherwise be
 * byte-identical transactions with one id: the chain keeps one, answers the second broadcast
 * "duplicate", and both would be counted as sent. So:
 *
 * - the transfer builder makes every transaction distinct (on TRON a timestamp of its own:
 *   functions/networks/tron/tron-transfer-builder.ts), which makes ids distinct in practice;
 * - the id is claimed for exactly one payout by a conditional write in the same DynamoDB
 *   transaction that stores the signed transaction, before any broadcast: a collision (another
 *   sender, another process) is refused by DynamoDB itself and the payout is signed afresh;
 * - a node's "duplicate" answer counts as sent only for the payout that owns the id.
 */

/** Who owns a transaction id: `withdrawal:<id>` or `sweep:<address>:<createdAt>:<step>`. */
export type PayoutOwner = string;

export const withdrawalOwner = (withdrawalId: string): PayoutOwner => `withdrawal:${withdrawalId}`;
/** A sweep's transactions, one a step: the fee's top-up, the USDT's transfer, the leftover fee's return. */
export const SWEEP_STEPS = ['top-up', 'sweep', 'reclaim'] as const;
export type SweepStep = (typeof SWEEP_STEPS)[number];
export const sweepOwner = (address: string, createdAt: string, step: SweepStep): PayoutOwner => `sweep:${address}:${createdAt}:${step}`;

/** Raised by a store when the transaction id it was asked to claim belongs to another payout. */
export class TransactionIdTaken extends Error {
  constructor(readonly txId: string) {
    super(`transaction ${txId} is already claimed by another payout`);
  }
}

/** Raised when a node answers "duplicate" for a transaction id this payout does not own: the
 * chain holds someone else's transaction, so this payout has not been sent. */
export class DuplicateOfAnotherPayout extends Error {
  constructor(readonly txId: string, readonly owner: PayoutOwner | null, readonly claimant: PayoutOwner) {
    super(`the chain already holds transaction ${txId}, which belongs to ${owner ?? 'no payout'}, not to ${claimant}: not sent`);
  }
}

export interface TransactionClaims {
  /** The payout that owns the id, or null when no payout has claimed it. */
  ownerOf(txId: string): Promise<PayoutOwner | null>;
  /** Claims the id for `owner` if nobody has (a payout signed before claims existed); returns the owner. */
  claimIfFree(txId: string, owner: PayoutOwner): Promise<PayoutOwner>;
}

/** Attempts at signing one payout when its transaction id turns out to be taken. */
export const SIGNING_ATTEMPTS = 3;

/**
 * Broadcasts a stored, claimed transaction. "accepted" is sent; "duplicate" is sent only when the
 * id is this payout's own (a rebroadcast of it); otherwise DuplicateOfAnotherPayout.
 */
export async function broadcastOwned(
  broadcaster: { broadcast(signed: Record<string, unknown>): Promise<'accepted' | 'duplicate'> },
  claims: TransactionClaims,
  txId: string,
  signed: Record<string, unknown>,
  owner: PayoutOwner,
): Promise<'accepted' | 'rebroadcast'> {
  const answer = await broadcaster.broadcast(signed);
  if (answer === 'accepted') return 'accepted';
  const holder = await claims.claimIfFree(txId, owner);
  if (holder !== owner) throw new DuplicateOfAnotherPayout(txId, holder, owner);
  return 'rebroadcast';
}
