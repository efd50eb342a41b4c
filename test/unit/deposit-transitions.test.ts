import { TRON_DEPOSIT_SETTINGS } from '../support/deposit-settings.ts';
import { describe, expect, it } from 'vitest';
import { createDeposit, depositView, type Deposit, type DepositStore, type NewDeposit } from '#functions/deposits/deposits';
import { confirmTransfer, dropTransfer, freezeCredit, holdTransfer, releaseTransfer, seeFinalTransfer, seeTransfer, splitShare, unfreezeCredit, type TransferRecord } from '#functions/deposits/deposit-transitions';
import { ALLOWLIST_OFF } from '#functions/withdrawals/withdrawal-policy';
import { balanceChanges } from '#functions/ledger/ledger';

// No database: each transition is a pure function of the deposit as read and the chain's facts.
const CREATED = new Date('2026-11-23T11:00:00.000Z');
const NOW = new Date('2026-11-23T12:00:00.000Z');
const COMPANY_ID = 'cmp_01JBZ6W1V7Q8R9S0T1U2V3W4X5';
const USDT_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const LATER = new Date('2026-11-23T12:01:00.000Z');
const TX = 'ab'.repeat(32);
const SPLIT_ADDRESS = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH';
const usdt = (whole: number) => BigInt(whole) * 1_000_000n;
/** The allowlist off when the transfer is confirmed: a split's share may leave. */
const ALLOWLIST_OFF_NOW = { holds: false as const, at: LATER.toISOString() };

/** A deposit as the API creates it (the domain's createDeposit, over a store that keeps nothing). */
function deposit(input: Partial<NewDeposit> = {}): Promise<Deposit> {
  const store: DepositStore = {
    nextAddressIndex: async () => 7,
    createDeposit: async () => 'written' as const,
    getDeposit: async () => null,
    allowlistFor: async () => ({ allowlist: ALLOWLIST_OFF, entry: null }),
    listed: async () => new Set<string>(),
    holdingsAt: async () => [],
  };
  const settings = TRON_DEPOSIT_SETTINGS;
  return createDeposit(store, settings, COMPANY_ID, { network: 'tron', reference: 'order-1', amount: usdt(10), ...input }, CREATED);
}

const transfer = (amount: bigint, blockNumber = 1_000) => ({ txHash: TX, eventIndex: 0, blockNumber, contract: USDT_CONTRACT, from: SPLIT_ADDRESS, to: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', amount });

/** The deposit and transfer record as the scanner leaves them after seeing `amount`. */
async function seen(amount: bigint, input: Partial<NewDeposit> = {}): Promise<{ deposit: Deposit; record: TransferRecord }> {
  const change = seeTransfer(await deposit(input), transfer(amount), 1_000, NOW)!;
  return { deposit: change.after, record: change.transfer!.record };
}

describe('seeTransfer', () => {
  it('puts a new transfer in pending, marks the deposit confirming and announces it', async () => {
    const awaiting = await deposit();

    const change = seeTransfer(awaiting, transfer(usdt(10)), 1_004, NOW)!;

    expect(change.after).toMatchObject({ status: 'confirming', receivedAmount: usdt(10), confirmations: 5, version: awaiting.version + 1 });
    expect(change.transfer).toEqual({
      write: 'record',
      record: { txHash: TX, eventIndex: 0, network: 'tron', blockNumber: 1_000, companyId: COMPANY_ID, depositId: awaiting.id, amount: usdt(10), status: 'confirming', from: SPLIT_ADDRESS, to: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
    });
    expect(balanceChanges(change.entries[0]!).get('USDT')).toMatchObject({ pending: usdt(10), available: 0n });
    expect(change.events.map((event) => event.type)).toEqual(['deposit.confirming']);
    expect(change.splitForward).toBeNull();
  });

  it('sees the same transfer only once', async () => {
    const { deposit: confirming } = await seen(usdt(10));

    expect(seeTransfer(confirming, transfer(usdt(10)), 1_010, LATER)).toBeNull();
  });
});

describe('confirmTransfer', () => {
  it('moves the transfer from pending to available and completes an exactly paid deposit', async () => {
    const { deposit: confirming, record } = await seen(usdt(10));

    const change = confirmTransfer(confirming, record, 1_020, LATER, null)!;

    expect(change.after).toMatchObject({ status: 'completed', amountStatus: 'exact', creditedAmount: usdt(10), confirmations: 21 });
    expect(change.transfer).toEqual({ write: 'update', record: { ...record, status: 'confirmed' }, was: 'confirming' });
    expect(balanceChanges(change.entries[0]!).get('USDT')).toMatchObject({ pending: -usdt(10), available: usdt(10) });
    expect(change.events.map((event) => event.type)).toEqual(['deposit.completed']);
    expect(change.splitForward).toBeNull();
  });

  it('holds the split share in locked and creates the withdrawal that forwards it', async () => {
    const { deposit: confirming, record } = await seen(usdt(10), { split: { address: SPLIT_ADDRESS, percentBps: 2_500 } });

    const change = confirmTransfer(confirming, record, 1_020, LATER, ALLOWLIST_OFF_NOW)!;

    expect(balanceChanges(change.entries[0]!).get('USDT')).toMatchObject({ pending: -usdt(10), available: 7_500_000n, locked: 2_500_000n });
    expect(change.splitForward?.guard).toEqual(ALLOWLIST_OFF_NOW);
    expect(change.splitForward?.withdrawal).toMatchObject({
      companyId: confirming.companyId,
      reference: `split:${confirming.id}:${TX}:0`,
      address: SPLIT_ADDRESS,
      amount: 2_500_000n,
      fee: 0n,
      status: 'pending',
      createdAt: LATER.toISOString(),
    });
    expect(change.after.split).toMatchObject({ forwardedAmount: 2_500_000n, withdrawalId: change.splitForward!.withdrawal.id });
    expect(change.after.creditedAmount).toBe(7_500_000n);
  });

  it('counts the whole transfer as sweepable, its split share included, and starts the count only on the first credit', async () => {
    const { deposit: confirming, record } = await seen(usdt(10), { split: { address: SPLIT_ADDRESS, percentBps: 2_500 } });
    const first = confirmTransfer(confirming, record, 1_020, LATER, ALLOWLIST_OFF_NOW)!;
    expect(first).toMatchObject({ unsweptCredit: 7_500_000n, sweepable: usdt(10), sweepableCountStarts: true });

    // A second payment to the same address: counted, and the count is not started again.
    const again = { ...first.after, transactions: [...first.after.transactions, { ...first.after.transactions[0]!, txHash: 'cd'.repeat(32), status: 'confirming' as const }] };
    const second = confirmTransfer(again, { ...record, txHash: 'cd'.repeat(32) }, 1_020, LATER, ALLOWLIST_OFF_NOW)!;
    expect(second).toMatchObject({ sweepable: usdt(10) });
    expect(second.sweepableCountStarts).toBeUndefined();
  });

  it("names the forward by the deposit and the transfer's whole hash, an EVM one (0x and 64 hex) included", async () => {
    const { deposit: confirming, record } = await seen(usdt(10), { split: { address: SPLIT_ADDRESS, percentBps: 2_500 } });
    const evmHash = `0x${'cd'.repeat(32)}`;
    const onEvm = { ...confirming, transactions: confirming.transactions.map((tx) => ({ ...tx, txHash: evmHash })) };

    const change = confirmTransfer(onEvm, { ...record, txHash: evmHash }, 1_020, LATER, ALLOWLIST_OFF_NOW)!;

    expect(change.splitForward?.withdrawal.reference).toBe(`split:${confirming.id}:${evmHash}:0`);
  });

  it('credits the whole transfer and forwards nothing when the allowlist no longer allows the split address', async () => {
    const { deposit: confirming, record } = await seen(usdt(10), { split: { address: SPLIT_ADDRESS, percentBps: 2_500 } });

    const change = confirmTransfer(confirming, record, 1_020, LATER, null)!;

    expect(balanceChanges(change.entries[0]!).get('USDT')).toMatchObject({ pending: -usdt(10), available: usdt(10) });
    expect(balanceChanges(change.entries[0]!).get('USDT')!.locked ?? 0n).toBe(0n);
    expect(change.splitForward).toBeNull();
    expect(change.after).toMatchObject({ status: 'completed', creditedAmount: usdt(10), split: { forwardedAmount: 0n, withdrawalId: null } });
  });

  it('confirms a transfer only once', async () => {
    const { deposit: confirming, record } = await seen(usdt(10));
    const confirmed = confirmTransfer(confirming, record, 1_020, LATER, null)!.after;

    expect(confirmTransfer(confirmed, record, 1_030, LATER, null)).toBeNull();
  });
});

describe('splitShare', () => {
  it('takes nothing without a split', async () => {
    expect(splitShare(await deposit(), usdt(10))).toBe(0n);
  });

  it('takes a percentage rounded down to the minor unit', async () => {
    expect(splitShare(await deposit({ split: { address: SPLIT_ADDRESS, percentBps: 1_250 } }), 1_000_001n)).toBe(125_000n);
  });

  it('takes a fixed amount, but never more than the transfer', async () => {
    const fixed = await deposit({ split: { address: SPLIT_ADDRESS, amount: usdt(3) } });

    expect(splitShare(fixed, usdt(10))).toBe(usdt(3));
    expect(splitShare(fixed, usdt(2))).toBe(usdt(2));
  });
});

describe('freezeCredit and unfreezeCredit: an address frozen after its payment was credited', () => {
  const credited = async () => {
    const { deposit: confirming, record } = await seen(usdt(10));
    return confirmTransfer(confirming, record, 1_020, LATER, null)!.after;
  };

  it('takes back what is still at the address into held, tells the company with deposit.held, and gives it back once unfrozen', async () => {
    const completed = await credited();

    const frozen = freezeCredit(completed, { creditedUnswept: usdt(10), available: usdt(50) }, LATER);
    const change = frozen.change!;

    expect(frozen.notHeld).toBe(0n);
    expect(change.after).toMatchObject({ status: 'held', creditedAmount: 0n, frozenCredit: usdt(10), amountStatus: null });
    expect(balanceChanges(change.entries[0]!).get('USDT')).toMatchObject({ available: -usdt(10), held: usdt(10) });
    // The webhook body says why, and how much is credited now.
    expect(change.events.map((event) => JSON.parse(event.payload))).toEqual([
      expect.objectContaining({ type: 'deposit.held', data: expect.objectContaining({ status: 'held', holdReason: 'address_frozen', creditedAmount: '0.000000' }) }),
    ]);
    expect(change.listing).toBe('frozen');
    // Taken back once: a second run finding it still frozen changes nothing.
    expect(freezeCredit(change.after, { creditedUnswept: usdt(10), available: usdt(50) }, LATER)).toEqual({ change: null, notHeld: 0n });
    // A credit of 3 that raced in after the freeze (the count at the address now 13): taken back too.
    const raced = { ...change.after, creditedAmount: usdt(3) };
    expect(freezeCredit(raced, { creditedUnswept: usdt(13), available: usdt(50) }, LATER)).toMatchObject({ notHeld: 0n, change: { after: { frozenCredit: usdt(13), creditedAmount: 0n } } });

    const unfrozen = unfreezeCredit(change.after, LATER)!;

    expect(unfrozen.after).toMatchObject({ status: 'completed', creditedAmount: usdt(10), amountStatus: 'exact' });
    expect(unfrozen.after.frozenCredit).toBeUndefined();
    expect(balanceChanges(unfrozen.entries[0]!).get('USDT')).toMatchObject({ available: usdt(10), held: -usdt(10) });
    expect(unfrozen.events.map((event) => event.type)).toEqual(['deposit.completed']);
    expect(unfrozen.listing).toBe('due');
    expect(unfreezeCredit(unfrozen.after, LATER)).toBeNull();
  });

  it('while a new payment confirms, the deposit is confirming with no hold reason, and the credit given back is told when that payment settles, reversed included', async () => {
    const completed = await credited();
    const frozen = freezeCredit(completed, { creditedUnswept: usdt(10), available: usdt(50) }, LATER).change!.after;
    const seenAgain = seeTransfer(frozen, { ...transfer(usdt(2), 1_030), txHash: 'cd'.repeat(32) }, 1_030, LATER)!;
    const confirming = seenAgain.after;
    expect(depositView(confirming)).toMatchObject({ status: 'confirming', holdReason: null });

    const unfrozen = unfreezeCredit(confirming, LATER)!;

    expect(unfrozen.after).toMatchObject({ status: 'confirming', creditedAmount: usdt(10) });
    expect(unfrozen.events).toEqual([]);
    expect(balanceChanges(unfrozen.entries[0]!).get('USDT')).toMatchObject({ available: usdt(10), held: -usdt(10) });
    // The new payment reversed: the deposit is completed by the credit given back, and says so.
    const reversed = dropTransfer(unfrozen.after, seenAgain.transfer!.record, LATER)!;
    expect(reversed.events.map((event) => JSON.parse(event.payload))).toEqual([
      expect.objectContaining({ type: 'deposit.transfer_reversed', data: expect.objectContaining({ status: 'completed', creditedAmount: '10.000000' }) }),
      expect.objectContaining({ type: 'deposit.completed', data: expect.objectContaining({ status: 'completed', creditedAmount: '10.000000' }) }),
    ]);
  });

  it('holds only what was credited since the last sweep, and no more than the company still has; what it spent is said, not taken', async () => {
    const completed = await credited();

    expect(freezeCredit(completed, { creditedUnswept: usdt(4), available: usdt(50) }, LATER)).toMatchObject({ notHeld: 0n, change: { after: { frozenCredit: usdt(4), creditedAmount: usdt(6) } } });
    expect(freezeCredit(completed, { creditedUnswept: usdt(10), available: usdt(3) }, LATER)).toMatchObject({ notHeld: usdt(7), change: { after: { frozenCredit: usdt(3) } } });
    // All of it spent: nothing to hold, and all of it said.
    expect(freezeCredit(completed, { creditedUnswept: usdt(10), available: 0n }, LATER)).toEqual({ change: null, notHeld: usdt(10) });
    expect(freezeCredit(completed, { creditedUnswept: 0n, available: usdt(50) }, LATER)).toEqual({ change: null, notHeld: 0n });
  });
});

/** A second transfer to the same deposit, seen after the first. */
const second = (amount: bigint) => ({ ...transfer(amount, 1_005), txHash: 'cd'.repeat(32) });
const eventsOf = (change: { events: { payload: string }[] }) => change.events.map((event) => JSON.parse(event.payload) as { type: string; createdAt: string; data: { status: string; creditedAmount: string; updatedAt: string } });

describe('every status a credit or a reversal settles a deposit in has its event, in the same write', () => {
  it("a credit that leaves the deposit held for another transfer writes deposit.held, with the credit in it", async () => {
    const { deposit: confirming, record } = await seen(usdt(10));
    const held = holdTransfer(confirming, record, 'sender_sanctioned', 1_020, LATER)!.after;
    const seenAgain = seeTransfer(held, second(usdt(4)), 1_020, LATER)!;

    const credited = confirmTransfer(seenAgain.after, seenAgain.transfer!.record, 1_030, LATER, null)!;

    expect(credited.after).toMatchObject({ status: 'held', creditedAmount: usdt(4) });
    expect(eventsOf(credited)).toEqual([expect.objectContaining({ type: 'deposit.held', data: expect.objectContaining({ status: 'held', creditedAmount: '4.000000' }) })]);
    // One of two held transfers released: still held, its credit told all the same.
    const both = holdTransfer(seenAgain.after, seenAgain.transfer!.record, 'address_frozen', 1_030, LATER)!.after;
    const released = releaseTransfer(both, { ...record, status: 'held', holdReason: 'sender_sanctioned' }, 1_030, LATER, null)!;
    expect(released.after).toMatchObject({ status: 'held', creditedAmount: usdt(10) });
    expect(eventsOf(released).map((event) => event.type)).toEqual(['deposit.held']);
  });

  it('a credit while another transfer still confirms writes nothing: that transfer settling does', async () => {
    const { deposit: confirming, record } = await seen(usdt(10));
    const both = seeTransfer(confirming, second(usdt(4)), 1_010, LATER)!.after;

    const credited = confirmTransfer(both, record, 1_030, LATER, null)!;

    expect(credited.after).toMatchObject({ status: 'confirming', creditedAmount: usdt(10) });
    expect(credited.events).toEqual([]);
  });

  it('a reversal that leaves the deposit completed by its other transfer writes deposit.completed after deposit.transfer_reversed', async () => {
    const { deposit: confirming, record } = await seen(usdt(10));
    const seenAgain = seeTransfer(confirming, second(usdt(4)), 1_010, LATER)!;
    const oneCredited = confirmTransfer(seenAgain.after, record, 1_030, LATER, null)!.after;

    const reversed = dropTransfer(oneCredited, seenAgain.transfer!.record, LATER)!;

    expect(reversed.after).toMatchObject({ status: 'completed', creditedAmount: usdt(10), amountStatus: 'exact' });
    expect(eventsOf(reversed).map((event) => [event.type, event.data.status])).toEqual([
      ['deposit.transfer_reversed', 'completed'],
      ['deposit.completed', 'completed'],
    ]);
  });

  it('a reversal that leaves the deposit held writes deposit.held', async () => {
    const { deposit: confirming, record } = await seen(usdt(10));
    const held = holdTransfer(confirming, record, 'address_frozen', 1_020, LATER)!.after;
    const seenAgain = seeTransfer(held, second(usdt(4)), 1_020, LATER)!;

    const reversed = dropTransfer(seenAgain.after, seenAgain.transfer!.record, LATER)!;

    expect(reversed.after.status).toBe('held');
    expect(eventsOf(reversed).map((event) => event.type)).toEqual(['deposit.transfer_reversed', 'deposit.held']);
  });

  it('a reversal of the only transfer past the expiry writes deposit.expired; before it, the deposit awaits payment with deposit.transfer_reversed alone', async () => {
    const { deposit: confirming, record } = await seen(usdt(10));
    const pastExpiry = new Date(Date.parse(confirming.expiresAt) + 60_000);

    const expired = dropTransfer(confirming, record, pastExpiry)!;
    expect(expired.after.status).toBe('expired');
    expect(eventsOf(expired).map((event) => event.type)).toEqual(['deposit.transfer_reversed', 'deposit.expired']);

    const awaiting = dropTransfer(confirming, record, LATER)!;
    expect(awaiting.after.status).toBe('awaiting_payment');
    expect(eventsOf(awaiting).map((event) => event.type)).toEqual(['deposit.transfer_reversed']);
  });
});

describe('seeFinalTransfer: recorded and credited in one write', () => {
  it("stamps the credit a millisecond after the sighting, so the records' updatedAt order the two events", async () => {
    const awaiting = await deposit();

    const change = seeFinalTransfer(awaiting, transfer(usdt(10)), 1_030, NOW, null)!;

    const [confirming, completed] = eventsOf(change);
    expect([confirming!.type, confirming!.data.status, completed!.type, completed!.data.status]).toEqual(['deposit.confirming', 'confirming', 'deposit.completed', 'completed']);
    expect(Date.parse(completed!.data.updatedAt)).toBe(Date.parse(confirming!.data.updatedAt) + 1);
    expect(Date.parse(completed!.createdAt)).toBe(Date.parse(confirming!.createdAt) + 1);
    expect(confirming!.data.updatedAt).toBe(NOW.toISOString());
    expect(change.after.updatedAt).toBe(completed!.data.updatedAt);
    // Held at once: the same.
    const held = eventsOf(seeFinalTransfer(awaiting, transfer(usdt(10)), 1_030, NOW, null, 'address_frozen')!);
    expect(held.map((event) => event.type)).toEqual(['deposit.confirming', 'deposit.held']);
    expect(Date.parse(held[1]!.data.updatedAt)).toBeGreaterThan(Date.parse(held[0]!.data.updatedAt));
  });

  it('two final transfers to one deposit in one scan, at the same clock reading: every record after the last', async () => {
    const first = seeFinalTransfer(await deposit(), transfer(usdt(4)), 1_030, NOW, null)!;

    const next = seeFinalTransfer(first.after, second(usdt(6)), 1_030, NOW, null)!;

    const stamps = [...eventsOf(first), ...eventsOf(next)].map((event) => Date.parse(event.data.updatedAt));
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
    expect(new Set(stamps).size).toBe(4);
    expect(next.after).toMatchObject({ status: 'completed', creditedAmount: usdt(10) });
  });
});
