import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoSweepStore } from '#functions/networks/tron/sweep-store';
import { ledgerSide } from '#adapters/dynamo/reconciliation-store';
import { reconcileHoldings, reconciliationReport } from '#functions/ledger/reconciliation';
import { CAMBIO_BOOKS, EXTERNAL_ACCOUNTS } from '#functions/ledger/ledger';
import { ledgerEntryItem } from '#adapters/dynamo/items/ledger-entry';
import { tronSandboxIssuer } from '#functions/networks/tron/sandbox-issuer';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { LocalKeySigner } from '#adapters/signer/local-key-signer';
import { parseAmount } from '#functions/shared/money';
import { STAGES } from '../../config/stages.ts';
import { useFastChainApi } from '../support/local-api.ts';
import { waitFor } from '../support/wait.ts';
import { runOpsCommand } from '../support/ops-commands.ts';
import { expectLedgerMatchesBalances } from '../support/money.ts';
import { storedLedgerEntries } from '../support/records.ts';

/**
 * The issuer's controls on TRON's USDT, on the local runtime with its real job loops (poller,
 * sender, sweeper) over the sandbox chain (../shared/networks.md, "The token as it is on mainnet"):
 * a frozen deposit address never stalls the others' sweeps and its deposit is held until unfrozen;
 * a frozen hot wallet or a paused token makes withdrawals wait, and each goes out once when it lifts.
 */
const api = useFastChainApi();
const USDT = STAGES.local.functionEnvironment.USDT_CONTRACT;
const issuer = () => tronSandboxIssuer(createDocumentClient(api.runtime.dynamoEndpoint), api.runtime.tableName);
const hotWallet = () => new LocalKeySigner(STAGES.local.functionEnvironment.LOCAL_HOT_WALLET_KEY!).address();
const usdtBalance = async () => (await api.call('GET', '/company/balance')).body.data.balances[0];
const deposit = async (id: string) => (await api.call('GET', `/deposits/${id}`)).body.data;
const withdrawal = async (id: string) => (await api.call('GET', `/withdrawals/${id}`)).body.data;
const onChain = (address: string) => api.chain.tokenBalance(USDT, address);

async function paidDeposit(reference: string, amount: string) {
  const created = (await api.call('POST', '/deposits', { body: { method: 'usdt', network: 'tron', reference } })).body.data;
  await api.chain.submitTransfer({ contract: USDT, from: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 41_001), to: created.address, amount: parseAmount(amount, 'USDT') });
  return created as { id: string; address: string };
}

async function reconciled() {
  const db = createDocumentClient(api.runtime.dynamoEndpoint);
  const result = await reconcileHoldings({
    ledger: () => ledgerSide(db, api.runtime.tableName, { every: ['tron'] }),
    networks: [{ network: 'tron', usdtBalances: (addresses) => api.chain.tokenBalances(USDT, addresses), receipt: (txHash) => api.chain.receipt(txHash), hotWalletAddress: hotWallet }],
  });
  expect(result.balanced, reconciliationReport(result)).toBe(true);
}

describe("TRON's USDT under the issuer's controls, on the local runtime", () => {
  it('a frozen deposit address among five: four are credited and swept, the frozen one is held and set aside; unfrozen, it is credited and swept', { timeout: 180_000 }, async () => {
    const paid = [];
    for (let i = 0; i < 5; i++) paid.push(await paidDeposit(`frozen-among-${i}`, '10'));
    const [frozen, ...others] = paid;
    await issuer().freeze(frozen!.address);

    await waitFor(usdtBalance, (balance) => balance.available === '40.000000', 90_000);
    const held = await waitFor(() => deposit(frozen!.id), (record) => record.status === 'held');
    expect(held).toMatchObject({ status: 'held', holdReason: 'address_frozen', creditedAmount: '0.000000' });
    expect(await usdtBalance()).toMatchObject({ available: '40.000000', pending: '0.000000' });
    // The others are swept to the hot wallet; the frozen one keeps its USDT and is on the set-aside list.
    for (const other of others) expect(await waitFor(() => onChain(other.address), (balance) => balance === 0n, 60_000)).toBe(0n);
    expect(await onChain(frozen!.address)).toBe(parseAmount('10', 'USDT'));
    const sweeps = new DynamoSweepStore(createDocumentClient(api.runtime.dynamoEndpoint), api.runtime.tableName);
    expect(await sweeps.setAsideAddresses()).toEqual([frozen!.address]);
    await reconciled();

    await issuer().unfreeze(frozen!.address);
    expect(await waitFor(() => deposit(frozen!.id), (record) => record.status === 'completed')).toMatchObject({ status: 'completed', holdReason: null, creditedAmount: '10.000000' });
    expect(await waitFor(() => onChain(frozen!.address), (balance) => balance === 0n, 60_000)).toBe(0n);
    expect(await sweeps.setAsideAddresses()).toEqual([]);
    expect(await usdtBalance()).toMatchObject({ available: '50.000000' });
    await reconciled();
    await expectLedgerMatchesBalances(createDocumentClient(api.runtime.dynamoEndpoint), api.runtime.tableName, api.runtime.sandbox.companyId);
  });

  it('a frozen hot wallet, then a paused token: withdrawals wait pending and nothing is sent; lifted, each completes once', { timeout: 180_000 }, async () => {
    const funding = await paidDeposit('fund-controls', '100');
    expect(await waitFor(() => deposit(funding.id), (record) => record.status === 'completed', 90_000)).toMatchObject({ status: 'completed' });
    // Swept: the hot wallet holds what the withdrawals pay.
    expect(await waitFor(() => onChain(funding.address), (balance) => balance === 0n, 60_000)).toBe(0n);
    const wallet = await hotWallet();

    await issuer().freeze(wallet);
    const to = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 41_100);
    const first = (await api.call('POST', '/withdrawals', { body: { method: 'usdt', network: 'tron', address: to, amount: '5', reference: 'while-frozen' } })).body.data;
    // Several sender runs (one a second) pass: it stays pending, with no transaction.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(await withdrawal(first.id)).toMatchObject({ status: 'pending', txHash: null });

    await issuer().pause();
    await issuer().unfreeze(wallet);
    const second = (await api.call('POST', '/withdrawals', { body: { method: 'usdt', network: 'tron', address: to, amount: '6', reference: 'while-paused' } })).body.data;
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(await withdrawal(first.id)).toMatchObject({ status: 'pending', txHash: null });
    expect(await withdrawal(second.id)).toMatchObject({ status: 'pending', txHash: null });
    expect(await onChain(to)).toBe(0n);

    await issuer().unpause();
    for (const id of [first.id, second.id]) expect((await waitFor(() => withdrawal(id), (record) => record.status === 'completed', 60_000)).status).toBe('completed');
    // Once each: the payee holds exactly the two amounts.
    expect(await onChain(to)).toBe(parseAmount('11', 'USDT'));
    await reconciled();
    await expectLedgerMatchesBalances(createDocumentClient(api.runtime.dynamoEndpoint), api.runtime.tableName, api.runtime.sandbox.companyId);
  });

  it('with a 10 bp fee on: 20 deposits, their sweeps and 5 payouts later, reconcile balances to the unit and each deliveredAmount is what the payee received', { timeout: 240_000 }, async () => {
    const fee = (amount: bigint) => (amount * 10n) / 10_000n;
    await issuer().setFee(10, parseAmount('40', 'USDT'));
    try {
      const before = minorUnits((await usdtBalance()).available);
      const paid: { id: string; address: string; amount: bigint }[] = [];
      for (let i = 0; i < 20; i++) {
        const amount = parseAmount(String(7 + i * 3), 'USDT') + BigInt(i * 1_337);
        paid.push({ ...(await paidDeposit(`fee-${i}`, formatted(amount))), amount });
      }
      // Each deposit is credited what its Transfer event delivered: the payment less the issuer's fee.
      const credited = paid.reduce((sum, one) => sum + one.amount - fee(one.amount), 0n);
      const creditedBalance = await waitFor(usdtBalance, (balance) => minorUnits(balance.available) === before + credited, 120_000);
      expect(minorUnits(creditedBalance.available)).toBe(before + credited);
      for (const one of paid) expect((await deposit(one.id)).creditedAmount).toBe(formatted(one.amount - fee(one.amount)));
      // Swept: each sweep's fee is Cambio's cost, booked with it.
      for (const one of paid) expect(await waitFor(() => onChain(one.address), (balance) => balance === 0n, 60_000)).toBe(0n);
      const sweepFees = async () =>
        (await storedLedgerEntries(createDocumentClient(api.runtime.dynamoEndpoint), api.runtime.tableName, CAMBIO_BOOKS))
          .map(ledgerEntryItem.fromItem)
          .filter((entry) => entry.reference.startsWith('token_fee:tron:'));
      const booked = await waitFor(sweepFees, (entries) => entries.length === paid.length, 60_000);
      // Each sweep moved what its deposit was credited, and the issuer took its fee on that again.
      const ascending = (a: { amount: bigint }, b: { amount: bigint }) => (a.amount < b.amount ? -1 : a.amount > b.amount ? 1 : 0);
      expect(booked.flatMap((entry) => entry.postings).sort(ascending)).toEqual(
        paid
          .map((one) => ({ source: EXTERNAL_ACCOUNTS.tokenFees, destination: 'external:tron', currency: 'USDT', amount: fee(one.amount - fee(one.amount)) }))
          .sort(ascending),
      );

      const payees = [41_201, 41_202, 41_203, 41_204, 41_205].map((index) => deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, index));
      const amounts = ['10', '25.5', '3.333333', '40', '1'];
      const made = [];
      for (const [i, to] of payees.entries()) {
        made.push((await api.call('POST', '/withdrawals', { body: { method: 'usdt', network: 'tron', address: to, amount: amounts[i], reference: `fee-payout-${i}` } })).body.data);
      }
      for (const [i, one] of made.entries()) {
        const done = await waitFor(() => withdrawal(one.id), (record) => record.status === 'completed', 60_000);
        const sent = parseAmount(amounts[i]!, 'USDT');
        expect(done).toMatchObject({ status: 'completed', amount: formatted(sent), deliveredAmount: formatted(sent - fee(sent)) });
        expect(await onChain(payees[i]!)).toBe(parseAmount(done.deliveredAmount, 'USDT'));
      }
      await reconciled();
      await expectLedgerMatchesBalances(createDocumentClient(api.runtime.dynamoEndpoint), api.runtime.tableName, api.runtime.sandbox.companyId);
    } finally {
      await issuer().setFee(0, 0n);
    }
  });

  it('a deposit paid from an address on the shipped OFAC list is held as sender_sanctioned; deposits:release credits it once', { timeout: 120_000 }, async () => {
    const created = (await api.call('POST', '/deposits', { body: { method: 'usdt', network: 'tron', reference: 'from-sanctioned' } })).body.data;
    // The first TRON address of ../shared/screening/sanctioned_TRX.txt, which npm start loads.
    await api.chain.submitTransfer({ contract: USDT, from: 'TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFg', to: created.address, amount: parseAmount('12', 'USDT') });
    const held = await waitFor(() => deposit(created.id), (record) => record.status === 'held', 60_000);
    expect(held).toMatchObject({ status: 'held', holdReason: 'sender_sanctioned', creditedAmount: '0.000000' });
    const before = minorUnits((await usdtBalance()).available);

    const release = (args: string[]) => runOpsCommand('ops/deposits-release.ts', [...args, '--table', api.runtime.tableName], { DYNAMODB_ENDPOINT: api.runtime.dynamoEndpoint });
    expect((await release(['--deposit', created.id, '--reason', 'cleared by compliance'])).status).toBe(0);
    expect((await release(['--deposit', created.id, '--reason', 'cleared by compliance'])).stdout).toContain('Nothing held');
    expect(await deposit(created.id)).toMatchObject({ status: 'completed', holdReason: null, creditedAmount: '12.000000' });
    expect(minorUnits((await usdtBalance()).available)).toBe(before + 12_000_000n);
    await expectLedgerMatchesBalances(createDocumentClient(api.runtime.dynamoEndpoint), api.runtime.tableName, api.runtime.sandbox.companyId);
  });
});

/** A decimal string of 6 places in minor units, zero allowed (balances), and back: never a float. */
const minorUnits = (decimal: string) => BigInt(decimal.replace('.', ''));
const formatted = (minor: bigint) => `${minor / 1_000_000n}.${String(minor % 1_000_000n).padStart(6, '0')}`;
