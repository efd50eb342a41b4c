import type { TokenTransfer } from '../networks/chain.ts';
import type { NetworkName } from '../networks/names.ts';
import { depositView, type Deposit, type DepositTransaction, type HoldReason } from './deposits.ts';
import { domainEvent, type DomainEvent } from '../shared/events.ts';
import { companyAccount, networkAccount, ledgerEntry, type Bucket, type LedgerEntry, type Posting } from '../ledger/ledger.ts';
import type { AllowlistGuard } from '../withdrawals/withdrawal-policy.ts';
import { newWithdrawal, type Withdrawal } from '../withdrawals/withdrawals.ts';
import type { AuditEntry } from '../companies/audit-log.ts';

/**
 * How money seen on chain becomes a company's balance (../shared/api-contract.md, Deposits):
 * seen → `pending` and `confirming`; final with a SUCCESS receipt → `available` (minus the
 * split share, which becomes a withdrawal to the split address while the withdrawal allowlist
 * allows it); vanished or failed before that →
 * taken back out of `pending`. Each step is one DepositChange the store writes atomically with
 * the deposit's optimistic lock, its ledger entry and its events.
 *
 * Pure functions of a deposit as read and the chain's facts: no store, no clock of their own.
 * The jobs that read the chain and apply these changes are ./deposit-scan.ts, ./reorganisations.ts
 * and ./deposit-confirmation.ts, writing through ./deposit-chain.ts.
 */
export interface TransferKey {
  txHash: string;
  eventIndex: number;
}

export interface TransferRecord extends TransferKey {
  network: NetworkName;
  blockNumber: number;
  /** The block's hash as scanned, where the chain gives it: a rescan that finds the transfer in
   * another block (a reorganisation re-mined it) moves the record there. */
  blockHash?: string;
  companyId: string;
  depositId: string;
  amount: bigint;
  status: 'confirming' | 'confirmed' | 'reversed' | 'held';
  /** The paying address (the Transfer event's `from`); absent on records made before it was kept. */
  from?: string;
  /** The transaction's other payers (TokenTransfer.otherPayers), screened as `from` is; absent where none. */
  otherPayers?: string[];
  /** The deposit address it paid (the event's `to`), which the holds check without reading the
   * deposit; absent on records made before it was kept. */
  to?: string;
  /** Set while `held`. */
  holdReason?: HoldReason;
  /** A person cleared its sanctioned payer (`npm run deposits:release`) while the issuer froze its
   * address: held for the freeze alone since, the unfreeze credits it without screening the payer
   * again (clearSanctionWhileFrozen). */
  sanctionCleared?: true;
}

export interface DepositChange {
  /** The deposit as read; the write is refused if its version moved since. */
  before: Deposit;
  after: Deposit;
  /** The transfer's own record: 'record' claims it once (a replayed block cannot record it
   * again), 'update' moves its status from `was` (confirming unless said); null when the change
   * leaves it as it is. */
  transfer: { write: 'record' | 'update'; record: TransferRecord; was?: 'confirming' | 'held' } | null;
  /** The ledger entries, in order: one for a step, two for a transfer recorded and credited at once. */
  entries: LedgerEntry[];
  events: DomainEvent[];
  /** The withdrawal that forwards a split share, and the allowlist as read, which the write holds it to. */
  splitForward: { withdrawal: Withdrawal; guard: AllowlistGuard } | null;
  /** A person's decision this change carries out (a held deposit released), logged in its transaction. */
  audit?: AuditEntry;
  /** Where a change that records no transfer puts the deposit's address among the sweeper's lists:
   * `frozen` (set aside: freezeCredit) or `due` (back to the sweeper: unfreezeCredit). */
  listing?: 'frozen' | 'due';
  /** What the change adds to the credit counted as still at the deposit's address, unswept (what a
   * freeze of the address would take back: freezeCredit); absent, the count is left as it is. */
  unsweptCredit?: bigint;
  /** What the change adds to the USDT recorded at the address that its sweeper may move: a
   * transfer's whole amount once it is credited (its split share included, which leaves from the hot
   * wallet), a held one's when it is released. A sweep moves no more than this count, so a payment
   * that lands at a due address before the scanner has recorded it is never swept before it is
   * screened (functions/networks/tron/sweeps.ts). Absent, the count is left as it is. */
  sweepable?: bigint;
  /** This change's credit is the deposit's first: nothing was recorded sweepable at its address
   * before, so the count is whole from here on (depositAddressCounts.sweepableOf in functions/adapters/dynamo/items/deposit-address.ts). */
  sweepableCountStarts?: boolean;
}

const sameTransfer = (tx: TransferKey, key: TransferKey) => tx.txHash === key.txHash && tx.eventIndex === key.eventIndex;
const confirmationsAt = (blockNumber: number, latestBlock: number) => Math.max(0, latestBlock - blockNumber + 1);

/** The part of a confirmed transfer forwarded to the split address (rounded down, in minor units). */
export function splitShare(deposit: Deposit, amount: bigint): bigint {
  const split = deposit.split;
  if (!split) return 0n;
  if (split.percentBps !== null) return (amount * BigInt(split.percentBps)) / 10_000n;
  return split.amount !== null && split.amount < amount ? split.amount : amount;
}

function summarise(deposit: Deposit, transactions: DepositTransaction[], now: Date): Deposit {
  const open = transactions.filter((tx) => tx.status === 'confirming');
  const status: Deposit['status'] =
    open.length > 0
      ? 'confirming'
      : transactions.some((tx) => tx.status === 'held') || (deposit.frozenCredit ?? 0n) > 0n
        ? 'held'
        : transactions.length > 0
        ? 'completed'
        : now.getTime() >= Date.parse(deposit.expiresAt)
          ? 'expired'
          : 'awaiting_payment';
  const received = transactions.reduce((sum, tx) => sum + tx.amount, 0n);
  const amountStatus =
    status !== 'completed' || deposit.expectedAmount === null
      ? null
      : received === deposit.expectedAmount
        ? 'exact'
        : received < deposit.expectedAmount
          ? 'underpaid'
          : 'overpaid';
  // The deposit shows the confirmations of its least confirmed transfer: what it is waiting for.
  const confirmations = transactions.length === 0 ? 0 : Math.min(...(open.length ? open : transactions).map((tx) => tx.confirmations));
  return {
    ...deposit,
    transactions,
    status,
    receivedAmount: received,
    amountStatus,
    confirmations,
    updatedAt: now.toISOString(),
    version: deposit.version + 1,
  };
}

/**
 * The event of the status a change leaves the deposit in, where that status is settled: every
 * change that credits money or removes a transfer writes it, so the status it comes to is never
 * without its event (../shared/api-contract.md, "Events and their delivery"). Null while a transfer
 * still confirms: its own confirmation, hold or reversal settles the deposit and says so then.
 */
function settledEventOf(after: Deposit): 'deposit.completed' | 'deposit.held' | 'deposit.expired' | null {
  switch (after.status) {
    case 'completed':
      return 'deposit.completed';
    case 'held':
      return 'deposit.held';
    case 'expired':
      return 'deposit.expired';
    default:
      return null;
  }
}

export function seeTransfer(deposit: Deposit, transfer: TokenTransfer, latestBlock: number, now: Date): DepositChange | null {
  if (deposit.transactions.some((tx) => sameTransfer(tx, transfer))) return null;
  const tx: DepositTransaction = {
    txHash: transfer.txHash,
    eventIndex: transfer.eventIndex,
    amount: transfer.amount,
    blockNumber: transfer.blockNumber,
    confirmations: confirmationsAt(transfer.blockNumber, latestBlock),
    status: 'confirming',
    from: transfer.from,
  };
  const after = summarise(deposit, [...deposit.transactions, tx], now);
  const seen = ledgerEntry(
    deposit.companyId,
    `deposit:${deposit.id}:seen:${transfer.txHash}:${transfer.eventIndex}`,
    [{ source: networkAccount(deposit.network), destination: companyAccount(deposit.companyId, 'pending'), currency: 'USDT', amount: transfer.amount }],
    now,
    deposit.network,
  );
  return {
    before: deposit,
    after,
    transfer: {
      write: 'record',
      record: { ...transferKey(transfer), network: deposit.network, blockNumber: transfer.blockNumber, ...(transfer.blockHash && { blockHash: transfer.blockHash }), companyId: deposit.companyId, depositId: deposit.id, amount: transfer.amount, status: 'confirming', from: transfer.from, ...(transfer.otherPayers?.length && { otherPayers: transfer.otherPayers }), to: transfer.to },
    },
    entries: [seen],
    events: [domainEvent(deposit.companyId, 'deposit.confirming', depositView(after), now)],
    splitForward: null,
  };
}

/**
 * `splitGuard`: whether the withdrawal allowlist lets the split's share leave to its address now
 * (withdrawal-policy.ts payoutGuard). Null, when the address was taken off the list since the
 * deposit was made: the share is credited with the rest, and nothing leaves.
 */
export function confirmTransfer(deposit: Deposit, record: TransferRecord, latestBlock: number, now: Date, splitGuard: AllowlistGuard | null): DepositChange | null {
  const tx = deposit.transactions.find((t) => sameTransfer(t, record));
  if (!tx || tx.status !== 'confirming') return null;
  return credit(deposit, tx, record, 'confirming', latestBlock, now, splitGuard);
}

/**
 * A held transfer released: its address unfrozen by the issuer, or a person's decision on a
 * sanctioned payer (`npm run deposits:release`). Credited as a confirmation would have, from `held`.
 */
export function releaseTransfer(deposit: Deposit, record: TransferRecord, latestBlock: number, now: Date, splitGuard: AllowlistGuard | null): DepositChange | null {
  const tx = deposit.transactions.find((t) => sameTransfer(t, record));
  if (!tx || tx.status !== 'held') return null;
  return credit(deposit, tx, record, 'held', latestBlock, now, splitGuard);
}

/**
 * Whether a sanctioned payer's money is held at the deposit's address. It stays where it landed
 * until a person decides (releaseHeldTransfer): the address leaves the sweeper's lists when it is
 * held, and nothing credited there meanwhile puts it back (an EVM or Solana sweep moves an address's
 * whole balance, which would mix the payer's money into the hot wallet; a TRON sweep takes only what
 * is recorded, yet the address waits as on every network).
 */
export const keepsSanctionedMoneyInPlace = (deposit: Pick<Deposit, 'transactions'>): boolean =>
  deposit.transactions.some((tx) => tx.status === 'held' && tx.holdReason === 'sender_sanctioned');

/**
 * A final transfer that cannot be credited (HoldReason): recorded, its amount moved from `pending`
 * to `held` (out of reach of withdrawals), `deposit.held` written. Nothing is swept from it: the
 * address is not marked due (a frozen address cannot send, and a sanctioned payer's money stays
 * where it landed until a person decides: keepsSanctionedMoneyInPlace).
 */
export function holdTransfer(deposit: Deposit, record: TransferRecord, reason: HoldReason, latestBlock: number, now: Date): DepositChange | null {
  const tx = deposit.transactions.find((t) => sameTransfer(t, record));
  if (!tx || tx.status !== 'confirming') return null;
  const transactions = deposit.transactions.map((t) =>
    t === tx ? { ...t, status: 'held' as const, holdReason: reason, confirmations: confirmationsAt(t.blockNumber, latestBlock) } : t,
  );
  const after = summarise(deposit, transactions, now);
  return {
    before: deposit,
    after,
    transfer: { write: 'update', record: { ...record, status: 'held', holdReason: reason } },
    entries: [
      ledgerEntry(
        deposit.companyId,
        `deposit:${deposit.id}:held:${tx.txHash}:${tx.eventIndex}`,
        [{ source: companyAccount(deposit.companyId, 'pending'), destination: companyAccount(deposit.companyId, 'held'), currency: 'USDT', amount: tx.amount }],
        now,
        deposit.network,
      ),
    ],
    events: [domainEvent(deposit.companyId, 'deposit.held', depositView(after), now)],
    splitForward: null,
  };
}

/**
 * A held transfer whose reason changed while held: a transfer held because the issuer froze its
 * address, whose payer has since been put on the sanctions list, is not credited when the address
 * is unfrozen but stays held for a person to decide. No money moves (it stays in `held`);
 * `deposit.held` says the new reason.
 */
export function reholdTransfer(deposit: Deposit, record: TransferRecord, reason: HoldReason, now: Date): DepositChange | null {
  const tx = deposit.transactions.find((t) => sameTransfer(t, record));
  if (!tx || tx.status !== 'held' || tx.holdReason === reason) return null;
  const after = summarise(
    deposit,
    deposit.transactions.map((t) => (t === tx ? { ...t, holdReason: reason } : t)),
    now,
  );
  return {
    before: deposit,
    after,
    transfer: { write: 'update', record: { ...record, status: 'held', holdReason: reason }, was: 'held' },
    entries: [],
    events: [domainEvent(deposit.companyId, 'deposit.held', depositView(after), now)],
    splitForward: null,
  };
}

/**
 * A person cleared a sanctioned payer's transfer (`npm run deposits:release`) while the issuer
 * freezes the deposit's address: money that cannot move is never credited, so the transfer stays
 * held, now for the freeze (`address_frozen`, `deposit.held` saying so), and is credited as any
 * frozen-address hold once the issuer unfreezes the address. `sanctionCleared` keeps the person's
 * decision: the unfreeze does not screen its payer again (releaseUnfrozen). No money moves.
 */
export function clearSanctionWhileFrozen(deposit: Deposit, record: TransferRecord, now: Date): DepositChange | null {
  const tx = deposit.transactions.find((t) => sameTransfer(t, record));
  if (!tx || tx.status !== 'held' || tx.holdReason !== 'sender_sanctioned') return null;
  const change = reholdTransfer(deposit, record, 'address_frozen', now)!;
  return { ...change, transfer: { ...change.transfer!, record: { ...change.transfer!.record, sanctionCleared: true } } };
}

/**
 * The token's issuer froze the deposit's address after its payment was credited, while the USDT
 * still sat there unswept (the sweeper found it frozen among the due addresses: frozen-addresses.ts).
 * Money that cannot move is never available (../shared/networks.md, "The token as it is on
 * mainnet"), so the credit is taken back into `held`, as a payment to an address already frozen
 * is held, and `deposit.held` says so; unfreezeCredit gives it back once the issuer unfreezes it.
 *
 * What is taken back: the credit still at the address (`creditedUnswept`, what was credited there
 * since its last sweep), at most what the company still has available. What it already withdrew
 * or converted before the freeze was known cannot be taken back without a negative balance, which
 * the contract's balance has no room for: that part is Cambio's exposure, which the caller logs for
 * finance (the alarm DepositAddressesFrozen names the address).
 */
export function freezeCredit(deposit: Deposit, held: { creditedUnswept: bigint; available: bigint }, now: Date): { change: DepositChange | null; notHeld: bigint } {
  const frozen = deposit.frozenCredit ?? 0n;
  // The credit at the address (what a freeze took back already included), no more than the deposit
  // was ever credited; a credit that raced in after an earlier freeze is taken back too.
  const atAddress = minOf(held.creditedUnswept, deposit.creditedAmount + frozen);
  const more = atAddress > frozen ? atAddress - frozen : 0n;
  const amount = minOf(more, held.available);
  const notHeld = more - amount;
  if (amount <= 0n) return { change: null, notHeld };
  const after = summarise({ ...deposit, frozenCredit: frozen + amount, creditedAmount: deposit.creditedAmount - amount }, deposit.transactions, now);
  return { change: creditMoved(deposit, after, { from: 'available', to: 'held', amount, step: 'credit-frozen', listing: 'frozen' }, 'deposit.held', now), notHeld };
}

/**
 * Whether what a deposit holds at its address is still there (`usdtThere`, read on chain now): its
 * held transfers, and what was credited there and not swept (`creditedUnswept`, the address's
 * count, which the credit a freeze took back is part of), all at the one address a deposit has. A
 * frozen address cannot send, but its issuer can erase its balance (TetherToken's
 * `destroyBlackFunds`, with no Transfer event) and then unfreeze it: what it held is gone, and
 * crediting it would make `available` money that exists nowhere. A payment credited there since
 * counts for itself, never for what was erased. So an unfreeze releases nothing an address no
 * longer holds; the deposit stays held and reconcile shows the shortfall for a person to settle.
 */
export function stillAtAddress(deposit: Deposit, usdtThere: bigint, creditedUnswept: bigint): boolean {
  const held = heldAt(deposit);
  const credited = creditedUnswept > (deposit.frozenCredit ?? 0n) ? creditedUnswept : (deposit.frozenCredit ?? 0n);
  return usdtThere >= held + credited;
}

/** What a deposit's held transfers hold at its address (final on chain, not credited). */
export const heldAt = (deposit: Pick<Deposit, 'transactions'>): bigint => deposit.transactions.filter((tx) => tx.status === 'held').reduce((sum, tx) => sum + tx.amount, 0n);

/** What a deposit's credit stands for at its address where the address was never counted (an item
 * from before `creditedUnsweptUsdt`): all it was credited, the credit a freeze took back included. */
export const uncountedCreditOf = (deposit: Pick<Deposit, 'creditedAmount' | 'frozenCredit'>): bigint => deposit.creditedAmount + (deposit.frozenCredit ?? 0n);

/** A payment held at the address because the issuer froze it: the poller releases it once the
 * address is unfrozen, which puts the address back on the due list (the sweeper leaves it set aside
 * until then, so that it never sweeps away what the poller has still to judge). */
export const heldForItsFreeze = (deposit: Pick<Deposit, 'transactions'>): boolean => deposit.transactions.some((tx) => tx.status === 'held' && tx.holdReason === 'address_frozen');

/** Said each run while it lasts, so that it is not missed: the deposit held for USDT its unfrozen address no longer has. */
export const GONE_AT_UNFREEZE = 'deposit address unfrozen without the USDT held there: the issuer erased it while frozen (destroyBlackFunds, destroyBlockedFunds); kept held, not credited';

/** The issuer unfroze the address of a deposit whose credit freezeCredit took back: credited again,
 * `held` → `available`, `deposit.completed` written, and the address back on the sweeper's due list. */
export function unfreezeCredit(deposit: Deposit, now: Date): DepositChange | null {
  const amount = deposit.frozenCredit ?? 0n;
  if (amount <= 0n) return null;
  const { frozenCredit: _lifted, ...rest } = deposit;
  const after = summarise({ ...rest, creditedAmount: deposit.creditedAmount + amount }, deposit.transactions, now);
  // Still held for another transfer: `deposit.held` tells what changed. Confirming a new payment:
  // its settling (confirmed, held or reversed) will, with the credit given back here.
  const event = settledEventOf(after);
  return creditMoved(deposit, after, { from: 'held', to: 'available', amount, step: 'credit-unfrozen', listing: 'due' }, event, now);
}

/** A deposit's credit moved between the company's buckets with no transfer recorded: its one entry
 * (unique by the deposit's version), its event, and where its address goes among the sweeper's lists. */
function creditMoved(
  deposit: Deposit,
  after: Deposit,
  move: { from: Bucket; to: Bucket; amount: bigint; step: string; listing: 'frozen' | 'due' },
  event: ReturnType<typeof settledEventOf>,
  now: Date,
): DepositChange {
  const account = (bucket: Bucket) => companyAccount(deposit.companyId, bucket);
  return {
    before: deposit,
    after,
    transfer: null,
    entries: [
      ledgerEntry(deposit.companyId, `deposit:${deposit.id}:${move.step}:${deposit.version}`, [{ source: account(move.from), destination: account(move.to), currency: 'USDT', amount: move.amount }], now, deposit.network),
    ],
    events: event ? [domainEvent(deposit.companyId, event, depositView(after), now)] : [],
    splitForward: null,
    listing: move.listing,
  };
}

/**
 * A person's release of a credit freezeCredit took back (`npm run deposits:release`), the address
 * still frozen: credited again as an unfreeze would, the address left set aside, and the amount
 * taken off the count of what a freeze takes back, so the sweeper finding the address still frozen
 * never undoes the decision. A decision on the freeze alone: a release that clears a sanctioned
 * payer does not make it while the address is frozen (releaseFrozenDepositCredit).
 */
export function releaseFrozenCredit(deposit: Deposit, now: Date): DepositChange | null {
  const change = unfreezeCredit(deposit, now);
  if (!change) return null;
  const { listing: _staysSetAside, ...released } = change;
  return { ...released, unsweptCredit: -(deposit.frozenCredit ?? 0n) };
}

const minOf = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** No credit, split share or credit a freeze took back yet: nothing of the deposit was ever sweepable. */
const nothingCreditedYet = (deposit: Deposit): boolean => deposit.creditedAmount === 0n && (deposit.frozenCredit ?? 0n) === 0n && (deposit.split?.forwardedAmount ?? 0n) === 0n;

/** A split forward's reference, `split:<dep_id>:<txHash>:<eventIndex>`: the whole hash, as finance
 * matches it (an EVM hash is 66 characters), within a reference's 128; only a Solana signature (up
 * to 88) with a three-digit index loses its last character, never the index, which tells a
 * transaction's transfers apart. */
function splitReference(depositId: string, tx: TransferKey): string {
  const [head, tail] = [`split:${depositId}:`, `:${tx.eventIndex}`];
  return `${head}${tx.txHash.slice(0, 128 - head.length - tail.length)}${tail}`;
}

function credit(
  deposit: Deposit,
  tx: DepositTransaction,
  record: TransferRecord,
  was: 'confirming' | 'held',
  latestBlock: number,
  now: Date,
  splitGuard: AllowlistGuard | null,
): DepositChange {
  const share = splitGuard ? splitShare(deposit, tx.amount) : 0n;
  const credited = tx.amount - share;
  const pending = companyAccount(deposit.companyId, was === 'held' ? 'held' : 'pending');
  const postings: Posting[] = [];
  if (credited > 0n) postings.push({ source: pending, destination: companyAccount(deposit.companyId, 'available'), currency: 'USDT', amount: credited });
  // The split share is held in `locked` and leaves as a withdrawal to the split address, sent
  // and settled like any other withdrawal.
  if (share > 0n) postings.push({ source: pending, destination: companyAccount(deposit.companyId, 'locked'), currency: 'USDT', amount: share });
  const transactions = deposit.transactions.map((t): DepositTransaction => {
    if (t !== tx) return t;
    const { holdReason: _lifted, ...rest } = t;
    return { ...rest, status: 'confirmed', confirmations: confirmationsAt(t.blockNumber, latestBlock) };
  });
  const splitWithdrawal: Withdrawal | null =
    share > 0n && deposit.split
      ? newWithdrawal(
          deposit.companyId,
          { reference: splitReference(deposit.id, tx), network: deposit.network, address: deposit.split.address, amount: share, fee: 0n },
          now,
        )
      : null;
  let after = summarise(deposit, transactions, now);
  after = {
    ...after,
    creditedAmount: deposit.creditedAmount + credited,
    split: deposit.split && {
      ...deposit.split,
      forwardedAmount: deposit.split.forwardedAmount + share,
      withdrawalId: splitWithdrawal?.id ?? deposit.split.withdrawalId,
    },
  };
  // Completed, or held for another transfer (its creditedAmount risen all the same); while another
  // transfer confirms, its settling tells.
  const settled = settledEventOf(after);
  const events = settled ? [domainEvent(deposit.companyId, settled, depositView(after), now)] : [];
  return {
    before: deposit,
    after,
    transfer: { write: 'update', record: withoutHold({ ...record, status: 'confirmed' }), was },
    entries: [
      ledgerEntry(deposit.companyId, `deposit:${deposit.id}:${was === 'held' ? 'released' : 'confirmed'}:${tx.txHash}:${tx.eventIndex}`, postings, now, deposit.network),
    ],
    events,
    splitForward: splitWithdrawal && splitGuard && { withdrawal: splitWithdrawal, guard: splitGuard },
    unsweptCredit: credited,
    sweepable: tx.amount,
    ...(nothingCreditedYet(deposit) && { sweepableCountStarts: true }),
  };
}

/**
 * A transfer already final when first seen (a scanner catching up, or behind by more than the
 * finality depth), on a chain where a mined Transfer log is itself the proof of success (EVM: a
 * reverted transaction leaves none): recorded and credited in one write, the two steps' entries
 * and events in order (`deposit.confirming`, then `deposit.completed`), rather than two writes of
 * the same deposit a poll apart.
 *
 * The second step is stamped a millisecond after the first, its record's `updatedAt` and its
 * event's `createdAt` alike: events are not delivered in order, and integrators order them by the
 * record's `updatedAt` (../shared/api-contract.md), so a tie could leave a paid order showing
 * `confirming`. On BSC and Polygon nearly every deposit is first seen final. The first step is
 * itself after the deposit's last change, which a step of this scan may have stamped ahead of `now`.
 */
export function seeFinalTransfer(
  deposit: Deposit,
  transfer: TokenTransfer,
  latestBlock: number,
  now: Date,
  splitGuard: AllowlistGuard | null,
  hold: HoldReason | null = null,
): DepositChange | null {
  const seenAt = laterThan(deposit.updatedAt, now);
  const seen = seeTransfer(deposit, transfer, latestBlock, seenAt);
  if (!seen) return null;
  const settledAt = laterThan(seen.after.updatedAt, seenAt);
  const confirmed = hold
    ? holdTransfer(seen.after, seen.transfer!.record, hold, latestBlock, settledAt)!
    : confirmTransfer(seen.after, seen.transfer!.record, latestBlock, settledAt, splitGuard)!;
  return {
    ...confirmed,
    before: deposit,
    transfer: { write: 'record', record: confirmed.transfer!.record },
    entries: [...seen.entries, ...confirmed.entries],
    events: [...seen.events, ...confirmed.events],
  };
}

/** `now`, or a millisecond after `updatedAt` where that is not before it. */
const laterThan = (updatedAt: string, now: Date): Date => new Date(Math.max(now.getTime(), Date.parse(updatedAt) + 1));

/** A transfer that vanished in a fork or whose receipt failed: nothing arrived, so `pending` gives
 * it back. `deposit.transfer_reversed` says so; where that settles the deposit (`completed` by its
 * other transfers, `held`, or `expired` again), that status's event follows in the same write. */
export function dropTransfer(deposit: Deposit, record: TransferRecord, now: Date): DepositChange | null {
  const tx = deposit.transactions.find((t) => sameTransfer(t, record));
  if (!tx || tx.status !== 'confirming') return null;
  const after = summarise(
    deposit,
    deposit.transactions.filter((t) => t !== tx),
    now,
  );
  const settled = settledEventOf(after);
  return {
    before: deposit,
    after,
    transfer: { write: 'update', record: { ...record, status: 'reversed' } },
    entries: [
      ledgerEntry(
        deposit.companyId,
        `deposit:${deposit.id}:reversed:${tx.txHash}:${tx.eventIndex}`,
        [{ source: companyAccount(deposit.companyId, 'pending'), destination: networkAccount(deposit.network), currency: 'USDT', amount: tx.amount }],
        now,
        deposit.network,
      ),
    ],
    // The `deposit.confirming` that announced the transfer is followed by this one.
    events: [domainEvent(deposit.companyId, 'deposit.transfer_reversed', depositView(after), now), ...(settled ? [domainEvent(deposit.companyId, settled, depositView(after), now)] : [])],
    splitForward: null,
  };
}

/** A confirming transfer a reorganisation re-mined in another block: the record and the deposit
 * follow it there, to be confirmed once that block is final. No money moves, no event. */
export function moveTransfer(deposit: Deposit, record: TransferRecord, to: { blockNumber: number; blockHash: string }, latestBlock: number, now: Date): DepositChange | null {
  const tx = deposit.transactions.find((t) => sameTransfer(t, record));
  if (!tx || tx.status !== 'confirming') return null;
  const after = summarise(
    deposit,
    deposit.transactions.map((t) => (t === tx ? { ...t, blockNumber: to.blockNumber, confirmations: confirmationsAt(to.blockNumber, latestBlock) } : t)),
    now,
  );
  return { before: deposit, after, transfer: { write: 'update', record: { ...record, ...to } }, entries: [], events: [], splitForward: null };
}

/** New confirmation counts on a deposit still waiting: no money moves, no event. */
export function refreshConfirmations(deposit: Deposit, record: TransferRecord, latestBlock: number, now: Date): DepositChange | null {
  const confirmations = confirmationsAt(record.blockNumber, latestBlock);
  const tx = deposit.transactions.find((t) => sameTransfer(t, record));
  if (!tx || tx.status !== 'confirming' || tx.confirmations === confirmations) return null;
  const after = summarise(
    deposit,
    deposit.transactions.map((t) => (t === tx ? { ...t, confirmations } : t)),
    now,
  );
  return { before: deposit, after, transfer: null, entries: [], events: [], splitForward: null };
}

/** An unpaid deposit past its expiry: `expired`, with its event; its address stays watched. */
export function expireDeposit(deposit: Deposit, now: Date, unpaidThrough: Date): DepositChange | null {
  if (deposit.status !== 'awaiting_payment' || unpaidThrough.getTime() < Date.parse(deposit.expiresAt)) return null;
  const after = summarise(deposit, deposit.transactions, now);
  return {
    before: deposit,
    after,
    transfer: null,
    entries: [],
    events: [domainEvent(deposit.companyId, 'deposit.expired', depositView(after), now)],
    splitForward: null,
  };
}

function withoutHold(record: TransferRecord): TransferRecord {
  const { holdReason: _lifted, ...rest } = record;
  return rest;
}

export function transferId(transfer: TransferKey): string {
  return `${transfer.txHash}#${transfer.eventIndex}`;
}

function transferKey(transfer: TransferKey): TransferKey {
  return { txHash: transfer.txHash, eventIndex: transfer.eventIndex };
}
