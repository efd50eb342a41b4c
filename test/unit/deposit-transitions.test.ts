import { describe, expect, it } from 'vitest';
import type { Deposit } from '#domain/deposits';
import { confirmTransfer, seeTransfer, splitShare, type TransferRecord } from '#domain/deposit-transitions';
import { balanceChanges } from '#domain/ledger';

// No database: each transition is a pure function of the deposit as read and the chain's facts.
const NOW = new Date('2026-11-23T12:00:00.000Z');
const LATER = new Date('2026-11-23T12:01:00.000Z');
const TX = 'ab'.repeat(32);
const SPLIT_ADDRESS = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH';
const usdt = (whole: number) => BigInt(whole) * 1_000_000n;

function deposit(overrides: Partial<Deposit> = {}): Deposit {
  return {
    id: 'dep_01JBZ6W1V7Q8R9S0T1U2V3W4X5',
    companyId: 'cmp_01JBZ6W1V7Q8R9S0T1U2V3W4X5',
    method: 'usdt',
    reference: 'order-1',
    network: 'tron',
    address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    addressIndex: 7,
    expectedAmount: usdt(10),
    receivedAmount: 0n,
    creditedAmount: 0n,
    amountStatus: null,
    status: 'awaiting_payment',
    confirmations: 0,
    requiredConfirmations: 19,
    transactions: [],
    split: null,
    expiresAt: '2026-11-24T12:00:00.000Z',
    createdAt: '2026-11-23T11:00:00.000Z',
    updatedAt: '2026-11-23T11:00:00.000Z',
    version: 1,
    ...overrides,
  };
}

const transfer = (amount: bigint, blockNumber = 1_000) => ({ txHash: TX, eventIndex: 0, blockNumber, contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', from: SPLIT_ADDRESS, to: deposit().address, amount });

/** The deposit and transfer record as the scanner leaves them after seeing `amount`. */
function seen(amount: bigint, overrides: Partial<Deposit> = {}): { deposit: Deposit; record: TransferRecord } {
  const change = seeTransfer(deposit(overrides), transfer(amount), 1_000, NOW)!;
  return { deposit: change.after, record: change.transfer!.record };
}

describe('seeTransfer', () => {
  it('puts a new transfer in pending, marks the deposit confirming and announces it', () => {
    const change = seeTransfer(deposit(), transfer(usdt(10)), 1_004, NOW)!;

    expect(change.after).toMatchObject({ status: 'confirming', receivedAmount: usdt(10), confirmations: 5, version: 2 });
    expect(change.transfer).toEqual({
      write: 'record',
      record: { txHash: TX, eventIndex: 0, blockNumber: 1_000, companyId: deposit().companyId, depositId: deposit().id, amount: usdt(10), status: 'confirming' },
    });
    expect(balanceChanges(change.entry!).get('USDT')).toMatchObject({ pending: usdt(10), available: 0n });
    expect(change.events.map((event) => event.type)).toEqual(['deposit.confirming']);
    expect(change.splitForward).toBeNull();
  });

  it('sees the same transfer only once', () => {
    const { deposit: confirming } = seen(usdt(10));

    expect(seeTransfer(confirming, transfer(usdt(10)), 1_010, LATER)).toBeNull();
  });
});

describe('confirmTransfer', () => {
  it('moves the transfer from pending to available and completes an exactly paid deposit', () => {
    const { deposit: confirming, record } = seen(usdt(10));

    const change = confirmTransfer(confirming, record, 1_020, LATER)!;

    expect(change.after).toMatchObject({ status: 'completed', amountStatus: 'exact', creditedAmount: usdt(10), confirmations: 21 });
    expect(change.transfer).toEqual({ write: 'update', record: { ...record, status: 'confirmed' } });
    expect(balanceChanges(change.entry!).get('USDT')).toMatchObject({ pending: -usdt(10), available: usdt(10) });
    expect(change.events.map((event) => event.type)).toEqual(['deposit.completed']);
    expect(change.splitForward).toBeNull();
  });

  it('holds the split share in locked and creates the withdrawal that forwards it', () => {
    const split = { address: SPLIT_ADDRESS, percentBps: 2_500, amount: null, forwardedAmount: 0n, withdrawalId: null };
    const { deposit: confirming, record } = seen(usdt(10), { split });

    const change = confirmTransfer(confirming, record, 1_020, LATER)!;

    expect(balanceChanges(change.entry!).get('USDT')).toMatchObject({ pending: -usdt(10), available: 7_500_000n, locked: 2_500_000n });
    expect(change.splitForward).toMatchObject({
      companyId: confirming.companyId,
      reference: `split:${confirming.id}:${TX}:0`,
      address: SPLIT_ADDRESS,
      amount: 2_500_000n,
      fee: 0n,
      status: 'pending',
      createdAt: LATER.toISOString(),
    });
    expect(change.after.split).toMatchObject({ forwardedAmount: 2_500_000n, withdrawalId: change.splitForward!.id });
    expect(change.after.creditedAmount).toBe(7_500_000n);
  });

  it('confirms a transfer only once', () => {
    const { deposit: confirming, record } = seen(usdt(10));
    const confirmed = confirmTransfer(confirming, record, 1_020, LATER)!.after;

    expect(confirmTransfer(confirmed, record, 1_030, LATER)).toBeNull();
  });
});

describe('splitShare', () => {
  const split = (percentBps: number | null, amount: bigint | null) => deposit({ split: { address: SPLIT_ADDRESS, percentBps, amount, forwardedAmount: 0n, withdrawalId: null } });

  it('takes nothing without a split', () => {
    expect(splitShare(deposit(), usdt(10))).toBe(0n);
  });

  it('takes a percentage rounded down to the minor unit', () => {
    expect(splitShare(split(1_250, null), 1_000_001n)).toBe(125_000n);
  });

  it('takes a fixed amount, but never more than the transfer', () => {
    expect(splitShare(split(null, usdt(3)), usdt(10))).toBe(usdt(3));
    expect(splitShare(split(null, usdt(3)), usdt(2))).toBe(usdt(2));
  });
});
