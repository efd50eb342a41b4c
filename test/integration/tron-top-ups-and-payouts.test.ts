import { randomBytes } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { createDeposit, type Deposit } from '#functions/deposits/deposits';
import { scanDeposits } from '#functions/deposits/deposit-scan';
import { confirmDeposits } from '#functions/deposits/deposit-confirmation';
import { getWithdrawal, requestWithdrawal, type Withdrawal } from '#functions/withdrawals/withdrawals';
import { hotWalletTrxOf, sendWithdrawals, settleWithdrawals, type SendingDeps } from '#functions/networks/tron/withdrawal-sending';
import { sweepDepositAddresses, type SweepDeps } from '#functions/networks/tron/sweeps';
import { SANDBOX_TRX } from '#functions/networks/tron/sandbox-chain';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { DynamoDepositChainStore, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { LocalKeySigner } from '#adapters/signer/local-key-signer';
import type { Log } from '#functions/shared/log';
import { STAGES } from '../../config/stages.ts';
import { TRON_DEPOSIT_SETTINGS } from '../support/deposit-settings.ts';
import { creditAvailable, usdt, WITHDRAWAL_RULES } from '../support/money.ts';
import { failingBroadcaster, sandboxChainWithHotWallet, sandboxSending, sandboxSweeping, USDT } from '../support/sandbox-chain-jobs.ts';

/**
 * TRON's sweeper and withdrawal sender spend the same hot wallet's TRX, each a Lambda of its own on
 * its own lease, a minute apart or side by side: the sweeper's top-ups leave the TRX the payouts may
 * burn (functions/networks/tron/sweeps.ts payoutReserveSun), payouts before sweeps, on the sandbox
 * chain, which mines a payout OUT_OF_ENERGY when the TRX for its energy is short.
 */
const { env, clock, chain } = sandboxChainWithHotWallet('2026-11-23T00:00:00.000Z');
const withdrawals = new DynamoWithdrawalStore(env.db, env.tableName);
const deposits = new DynamoDepositStore(env.db, env.tableName);
const quiet: Log = { warn: () => {}, error: () => {} };
/** Where the outside world pays from: a wallet no deposit was made for. */
const payer = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 900_300);
const feeLimitSun = BigInt(STAGES.sandbox.functionEnvironment.WITHDRAWAL_FEE_LIMIT_SUN!);
const feeTopUp = BigInt(STAGES.sandbox.functionEnvironment.SWEEP_TOP_UP_SUN!);
let companyId: string;

const depositJobs = () => ({ network: 'tron' as const, chain, store: new DynamoDepositChainStore(env.db, env.tableName, 'tron'), usdtContract: USDT, now: clock.now });
const scan = () => scanDeposits({ ...depositJobs(), cursor: new DynamoScanCursor(env.db, env.tableName, 'tron-usdt'), owner: 'scanner' });

const withdraw = (amount: string): Promise<Withdrawal> =>
  requestWithdrawal(withdrawals, WITHDRAWAL_RULES, companyId, { reference: `w-${Math.random()}`, address: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 900_301), amount: usdt(amount) }, clock.now());
const read = (withdrawal: Withdrawal) => getWithdrawal(withdrawals, companyId, withdrawal.id);

/** Deposits each paid `amount`, scanned and confirmed: their addresses due for a sweep. */
async function dueDeposits(count: number, amount: string): Promise<Deposit[]> {
  const made: Deposit[] = [];
  for (let i = 0; i < count; i++) {
    const deposit = await createDeposit(deposits, TRON_DEPOSIT_SETTINGS, companyId, { network: 'tron', reference: `due-${i}-${Math.random()}` }, clock.now());
    await chain.submitTransfer({ contract: USDT, from: payer, to: deposit.address, amount: usdt(amount) });
    made.push(deposit);
  }
  clock.advanceBlocks(1);
  while (((await scan()).lagBlocks ?? 0) > 0);
  clock.advanceBlocks(20);
  expect(await confirmDeposits(depositJobs())).toMatchObject({ confirmed: count });
  return made;
}

/**
 * A hot wallet of the test's own (not the sandbox's treasury, which holds a million TRX), holding
 * `usdtAmount` and `trxSun`; the sender as the job wires it (the float and the TRX checked), and the
 * sweeper as the job wires it (the payouts' reserve read from the same table and hot wallet).
 */
async function hotWalletOfItsOwn(usdtAmount: bigint, trxSun: bigint) {
  const signer = new LocalKeySigner(randomBytes(32).toString('hex'));
  const address = await signer.address();
  const hotWalletUsdt = () => chain.tokenBalance(USDT, address);
  const sending: SendingDeps = { ...sandboxSending(env, chain, signer, clock), hotWalletUsdt, hotWalletTrx: hotWalletTrxOf(chain, signer, feeLimitSun), log: quiet };
  const sweeping: SweepDeps = {
    ...sandboxSweeping(env, chain, signer, clock, { minimumSweep: usdt('1'), feeTopUp }),
    payouts: { store: sending.store, feeLimitSun, hotWalletUsdt },
    log: quiet,
  };
  if (usdtAmount > 0n) await chain.submitTransfer({ contract: USDT, from: payer, to: address, amount: usdtAmount });
  await chain.submitTransfer({ contract: SANDBOX_TRX, from: payer, to: address, amount: trxSun });
  clock.advanceBlocks(1);
  return { address, sending, sweeping };
}

/** Blocks pass until what was sent is solidified; then the sender settles. */
async function settle(sending: SendingDeps) {
  clock.advanceBlocks(20);
  return settleWithdrawals(sending);
}

beforeAll(async () => {
  clock.advanceBlocks(30);
  // The scanner's first run starts at the newest block: every payment after it is seen.
  await scan();
});

beforeEach(async () => {
  ({ company: { id: companyId } } = await createCompany(new DynamoCompanyStore(env.db, env.tableName), { name: 'Top-ups Co', environment: 'sandbox' }, clock.now()));
  await creditAvailable(env.db, env.tableName, companyId, 'USDT', '1000');
});

describe("the sweeper's TRX top-ups and the payouts", () => {
  it("a pending payout the hot wallet's USDT cannot cover keeps no TRX from the top-ups: the sweep brings its float, and it is paid", async () => {
    const { sending, sweeping } = await hotWalletOfItsOwn(0n, 2n * feeLimitSun);
    const [deposit] = await dueDeposits(1, '10');
    const waiting = await withdraw('8');
    expect(await sendWithdrawals(sending)).toMatchObject({ sent: 0, awaitingFloat: 1 });

    expect(await sweepDepositAddresses(sweeping)).toMatchObject({ toppedUp: 1, held: 0 });
    clock.advanceBlocks(20);
    expect(await sweepDepositAddresses(sweeping)).toMatchObject({ swept: 1 });
    expect(await chain.tokenBalance(USDT, deposit!.address)).toBe(0n);

    expect(await sendWithdrawals(sending)).toMatchObject({ sent: 1, awaitingFloat: 0, awaitingFee: 0 });
    await settle(sending);
    expect(await read(waiting)).toMatchObject({ status: 'completed' });
    // The sweep ends (its TRX reclaim lands) and the address leaves the due list: the next test starts with none due.
    for (let run = 0; run < 3; run++) {
      await sweepDepositAddresses(sweeping);
      clock.advanceBlocks(20);
    }
    expect((await sweeping.store.dueAddresses(50)).due).toEqual([]);
  });

  it('top-ups leave the hot wallet the TRX its payouts may burn: a payout signed whose broadcast was lost and a pending one both complete, and the addresses are topped up once they have', async () => {
    // TRX for two payouts' fee limits and a little more, USDT for both; three addresses due, a 15 TRX top-up each.
    const { sending, sweeping } = await hotWalletOfItsOwn(usdt('30'), 2n * feeLimitSun + 1_000_000n);
    await dueDeposits(3, '4');
    // A sender's run set a fee limit aside for the one it signed, and ended with its broadcast lost.
    const signed = await withdraw('5');
    expect(await sendWithdrawals({ ...sending, broadcaster: failingBroadcaster('connection reset') })).toMatchObject({ sent: 1 });
    const pending = await withdraw('6');

    // The sweeper's run comes between two of the sender's.
    await sweepDepositAddresses(sweeping);
    await sendWithdrawals(sending);
    await settleWithdrawals(sending);
    await settle(sending);
    expect((await Promise.all([read(signed), read(pending)])).map(({ status, failureReason }) => ({ status, failureReason }))).toEqual([
      { status: 'completed', failureReason: null },
      { status: 'completed', failureReason: null },
    ]);

    // Nothing waits to be paid now: the TRX left goes to top-ups.
    expect((await sweepDepositAddresses(sweeping)).toppedUp).toBeGreaterThan(0);
  });
});
