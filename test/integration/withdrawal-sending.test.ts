import { randomBytes } from 'node:crypto';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { requestWithdrawal, getWithdrawal, withdrawalView, type Withdrawal } from '#functions/withdrawals/withdrawals';
import { SANDBOX_FEES } from '#functions/networks/tron/sandbox-balances';
import { EXPIRY_SETTLE_MARGIN_MS } from '#functions/networks/chain';
import { SEND_BATCH, SETTLE_RESERVE_MS } from '#functions/withdrawals/withdrawal-sending';
import { hotWalletTrxOf, sendWithdrawals, settleWithdrawals, type SendingDeps } from '#functions/networks/tron/withdrawal-sending';
import { STAGES } from '../../config/stages.ts';
import type { Broadcaster } from '#functions/networks/chain';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { SANDBOX_FAILING_ADDRESS, SANDBOX_TRX } from '#functions/networks/tron/sandbox-chain';
import { TRANSACTION_LIFETIME_MS } from '#functions/networks/tron/tron-transfer-builder';
import { TronGridChain } from '#functions/networks/tron/trongrid-chain';
import { LocalKeySigner } from '#adapters/signer/local-key-signer';
import { storedEvents } from '../support/records.ts';
import { sandboxTransferItem } from '#adapters/dynamo/items/sandbox-chain';
import { withdrawalLimitItem } from '#adapters/dynamo/items/withdrawal-limit';
import { limitReader } from '#adapters/dynamo/withdrawal-limit-store';
import { limitDay } from '#functions/withdrawals/withdrawal-policy';
import { creditAvailable, expectLedgerMatchesBalances, usdt, WITHDRAWAL_RULES } from '../support/money.ts';
import { startScriptedServer, type ScriptedServer } from '../support/scripted-server.ts';
import { transactionInfo, tronBlock } from '../support/trongrid-stub.ts';
import { BLOCK_MS, failingBroadcaster, sandboxChainWithHotWallet, sandboxSending, USDT } from '../support/sandbox-chain-jobs.ts';
import { addStageEntry } from '#functions/screening/screening-import';
import { DynamoScreeningStore } from '#adapters/dynamo/screening-store';
import { tronSandboxIssuer } from '#functions/networks/tron/sandbox-issuer';
import { tokenStanding, usdtMayMove } from '#functions/networks/token-standing';
import { withdrawalSenderRun } from '#functions/networks/job-runs';


const { env, clock, hotWallet, chain } = sandboxChainWithHotWallet('2026-11-22T00:00:00.000Z');
const withdrawals = new DynamoWithdrawalStore(env.db, env.tableName);
const companies = new DynamoCompanyStore(env.db, env.tableName);
const deps: SendingDeps = sandboxSending(env, chain, hotWallet, clock);
let companyId: string;


async function transfersOnChain(txHash: string) {
  const { Items = [] } = await env.db.send(
    new QueryCommand({
      TableName: env.tableName,
      KeyConditionExpression: 'PK = :pk',
      FilterExpression: 'txHash = :tx',
      ExpressionAttributeValues: { ':pk': sandboxTransferItem.partition, ':tx': txHash },
    }),
  );
  return Items;
}

async function withdraw(address: string, amount = '10'): Promise<Withdrawal> {
  return requestWithdrawal(withdrawals, WITHDRAWAL_RULES, companyId, { reference: `w-${Math.random()}`, address, amount: usdt(amount) }, clock.now());
}

const read = (withdrawal: Withdrawal) => getWithdrawal(withdrawals, companyId, withdrawal.id);
const balance = async () => (await companies.getBalances(companyId)).find((row) => row.currency === 'USDT')!;

/** Blocks pass until the transaction's block is solidified; then the settling job runs. */
async function settle() {
  clock.advanceBlocks(20);
  return settleWithdrawals(deps);
}

async function eventTypes(): Promise<string[]> {
  return (await storedEvents(env.db, env.tableName, companyId)).map((event) => event.type);
}

const destination = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 424_242);
/** Off the screening list when a withdrawal to it is made, listed while it waits. */
const LISTED_LATER = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 424_243);

beforeAll(() => {
  clock.advanceBlocks(50);
});

beforeEach(async () => {
  // A company of its own per test, so balances and pending withdrawals start clean.
  ({ company: { id: companyId } } = await createCompany(companies, { name: 'Sender Co', environment: 'sandbox' }, clock.now()));
  await creditAvailable(env.db, env.tableName, companyId, 'USDT', '1000');
  // The USDT that backs that credit, on the hot wallet (the sandbox chain keeps balances, as TRON).
  await chain.submitTransfer({ contract: USDT, from: destination, to: await deps.signer.address(), amount: usdt('1000') });
  // Earlier tests' withdrawals are settled so each test sees only its own.
  await settle();
});

describe('sending withdrawals on chain', () => {
  it('pending → processing with a txHash → completed; locked funds spent, fee to revenue, exactly one transfer', async () => {
    const withdrawal = await withdraw(destination, '10');
    const trxBefore = await chain.feeBalance(await deps.signer.address());
    expect(await sendWithdrawals(deps)).toMatchObject({ sent: 1 });

    const processing = await read(withdrawal);
    expect(processing.status).toBe('processing');
    expect(processing.txHash).toMatch(/^[0-9a-f]{64}$/);
    const onChain = await transfersOnChain(processing.txHash!);
    expect(onChain).toHaveLength(1);
    expect(onChain[0]).toMatchObject({ from: await deps.signer.address(), to: destination, contract: USDT });
    expect(BigInt(onChain[0]!.amount.toString())).toBe(usdt('10'));

    expect(await settle()).toMatchObject({ completed: 1 });
    // What the payout burnt of the hot wallet's TRX (its energy, on the sandbox's figures) is its network cost.
    expect(await read(withdrawal)).toMatchObject({
      status: 'completed',
      completedAt: expect.any(String),
      failureReason: null,
      networkCost: { asset: 'TRX', amount: SANDBOX_FEES.trc20TransferSun, tokenAccountCreated: false },
    });
    expect(withdrawalView(await read(withdrawal)).networkCost).toEqual({ asset: 'TRX', amount: '13.000000', tokenAccountCreated: false });
    expect(await chain.feeBalance(await deps.signer.address())).toBe(trxBefore - SANDBOX_FEES.trc20TransferSun);
    expect(await balance()).toMatchObject({ available: usdt('989'), locked: 0n });
    expect(await eventTypes()).toEqual(['withdrawal.processing', 'withdrawal.completed']);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('a withdrawal to the documented failing address ends failed, its funds back in available', async () => {
    const withdrawal = await withdraw(SANDBOX_FAILING_ADDRESS, '10');
    await sendWithdrawals(deps);
    expect(await settle()).toMatchObject({ failed: 1 });
    // Failed on chain, it still burnt its energy: Cambio's cost, shown on the failed withdrawal.
    expect(await read(withdrawal)).toMatchObject({ status: 'failed', failureReason: 'REVERT', completedAt: null, networkCost: { asset: 'TRX', amount: SANDBOX_FEES.trc20TransferSun } });
    expect(await balance()).toMatchObject({ available: usdt('1000'), locked: 0n });
    expect(await eventTypes()).toEqual(['withdrawal.processing', 'withdrawal.failed']);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('a sender killed between storing the transaction and broadcasting: the next run sends it, once', async () => {
    const withdrawal = await withdraw(destination, '5');
    await sendWithdrawals({ ...deps, broadcaster: failingBroadcaster('process killed') });
    const stored = await read(withdrawal);
    expect(stored.status).toBe('processing');
    expect(stored.transaction?.broadcastAt).toBeNull();
    expect(await transfersOnChain(stored.txHash!)).toHaveLength(0);

    expect(await settleWithdrawals(deps)).toMatchObject({ rebroadcast: 1 });
    expect(await transfersOnChain(stored.txHash!)).toHaveLength(1);
    await settle();
    expect(await read(withdrawal)).toMatchObject({ status: 'completed', txHash: stored.txHash });
    expect(await transfersOnChain(stored.txHash!)).toHaveLength(1);
  });

  it('a stored transaction is not sent while the token is paused (it would revert and burn its TRX): it waits, and goes once the pause lifts', async () => {
    const withdrawal = await withdraw(destination, '5');
    await sendWithdrawals({ ...deps, broadcaster: failingBroadcaster('process killed') });
    const stored = await read(withdrawal);
    const trxBefore = await chain.feeBalance(await deps.signer.address());

    expect(await settleWithdrawals(deps, { hotWalletMaySend: false })).toMatchObject({ rebroadcast: 0, failed: 0 });
    expect(await transfersOnChain(stored.txHash!)).toHaveLength(0);
    expect(await chain.feeBalance(await deps.signer.address())).toBe(trxBefore);
    expect(await read(withdrawal)).toMatchObject({ status: 'processing' });

    expect(await settleWithdrawals(deps)).toMatchObject({ rebroadcast: 1 });
    await settle();
    expect(await read(withdrawal)).toMatchObject({ status: 'completed', txHash: stored.txHash });
  });

  it('a pause landing after the run read the standing sends nothing (each payout would be mined REVERT, its TRX burnt, and fail): the withdrawal waits pending, and goes once unpaused', async () => {
    const issuer = tronSandboxIssuer(env.db, env.tableName);
    const hot = await deps.signer.address();
    // The sender as the job wires it: the standing read again before each page it sends.
    const controlled: SendingDeps = { ...deps, usdtMayMoveNow: async () => usdtMayMove(await tokenStanding(chain, USDT, hot)) };
    const run = (beforeSending: () => Promise<void>) =>
      withdrawalSenderRun({
        standing: () => tokenStanding(chain, USDT, hot),
        beforeSending,
        send: () => sendWithdrawals(controlled),
        nothingSent: { sent: 0, rebroadcast: 0, completed: 0, failed: 0, awaitingFloat: 0, awaitingFee: 0 },
        settle: (hotWalletMaySend) => settleWithdrawals(controlled, { hotWalletMaySend }),
      });
    const withdrawal = await withdraw(destination, '5');
    const trxBefore = await chain.feeBalance(hot);
    try {
      // The issuer pauses the token between the run's read of its standing and its sending.
      const paused = await run(() => issuer.pause());
      expect(paused.outcome.standing).toEqual({ paused: false, hotWalletFrozen: false });
      expect(paused.outcome.sent).toMatchObject({ sent: 0, failed: 0 });
      expect(await settle()).toMatchObject({ failed: 0 });
      expect(await read(withdrawal)).toMatchObject({ status: 'pending', txHash: null, failureReason: null });
      expect(await chain.feeBalance(hot)).toBe(trxBefore);
    } finally {
      await issuer.unpause();
    }

    expect((await run(async () => {})).outcome.sent).toMatchObject({ sent: 1, failed: 0 });
    expect(await settle()).toMatchObject({ completed: 1, failed: 0 });
    expect(await read(withdrawal)).toMatchObject({ status: 'completed' });
    expect(await balance()).toMatchObject({ available: usdt('994'), locked: 0n });
    expect(await eventTypes()).toEqual(['withdrawal.processing', 'withdrawal.completed']);
  });

  it('a stored transaction the node keeps refusing is logged and left for the next run: another withdrawal completes in the same settling run', async () => {
    // The older one first in the page: stored, its broadcast lost.
    const refused = await withdraw(destination, '3');
    await sendWithdrawals({ ...deps, broadcaster: failingBroadcaster('process killed') });
    const other = await withdraw(destination, '4');
    expect(await sendWithdrawals(deps)).toMatchObject({ sent: 1 });
    clock.advanceBlocks(20);

    // TronGrid refuses every broadcast of this run: only the first needs one.
    const logged: Record<string, unknown>[] = [];
    const log = { warn: () => {}, error: (message: string, fields?: Record<string, unknown>) => void logged.push({ message, ...fields }) };
    const run = await settleWithdrawals({ ...deps, broadcaster: failingBroadcaster('TronGrid: SIGERROR'), log });

    expect(run).toMatchObject({ completed: 1, rebroadcast: 0 });
    expect(await read(other)).toMatchObject({ status: 'completed' });
    expect(await read(refused)).toMatchObject({ status: 'processing', transaction: expect.objectContaining({ broadcastAt: null }) });
    expect(logged).toEqual([expect.objectContaining({ message: 'rebroadcast failed; will retry', withdrawalId: refused.id, error: expect.stringContaining('SIGERROR') })]);

    // Taken on the next run, before it expires: sent once and completed.
    expect(await settleWithdrawals(deps)).toMatchObject({ rebroadcast: 1 });
    expect(await settle()).toMatchObject({ completed: 1 });
    expect(await read(refused)).toMatchObject({ status: 'completed' });
    expect(await transfersOnChain((await read(refused)).txHash!)).toHaveLength(1);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('a sender killed after broadcasting but before recording it: a rebroadcast is a duplicate, sent once', async () => {
    const withdrawal = await withdraw(destination, '6');
    let broadcasts = 0;
    const diesAfterSending: Broadcaster = {
      broadcast: async (signed) => {
        broadcasts++;
        await chain.broadcast(signed);
        throw new Error('process killed after broadcast');
      },
    };
    await sendWithdrawals({ ...deps, broadcaster: diesAfterSending });
    expect(broadcasts).toBe(1);
    const stored = await read(withdrawal);
    expect(stored.transaction?.broadcastAt).toBeNull();
    await expect(chain.broadcast(JSON.parse(stored.transaction!.signed))).resolves.toBe('duplicate');
    await settleWithdrawals(deps);
    await settle();
    expect(await read(withdrawal)).toMatchObject({ status: 'completed' });
    expect(await transfersOnChain(stored.txHash!)).toHaveLength(1);
    expect(await balance()).toMatchObject({ available: usdt('993'), locked: 0n });
  });

  it('two senders running at once never pick the same withdrawal', async () => {
    const created = await Promise.all(Array.from({ length: 10 }, (_, i) => withdraw(destination, String(2 + i))));
    const [a, b] = await Promise.all([sendWithdrawals(deps), sendWithdrawals(deps)]);
    expect(a.sent + b.sent).toBe(10);
    for (const withdrawal of created) {
      const sent = await read(withdrawal);
      expect(await transfersOnChain(sent.txHash!)).toHaveLength(1);
    }
    await settle();
    expect((await Promise.all(created.map(read))).every((w) => w.status === 'completed')).toBe(true);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('a transaction that never reaches the chain before it expires ends failed with its funds returned', async () => {
    const withdrawal = await withdraw(destination, '7');
    const down = failingBroadcaster('TronGrid unavailable');
    await sendWithdrawals({ ...deps, broadcaster: down });
    clock.advance(TRANSACTION_LIFETIME_MS + 20 * BLOCK_MS + EXPIRY_SETTLE_MARGIN_MS);
    expect(await settleWithdrawals({ ...deps, broadcaster: down })).toMatchObject({ failed: 1 });
    expect(await read(withdrawal)).toMatchObject({ status: 'failed', failureReason: 'TRANSACTION_EXPIRED' });
    expect(await balance()).toMatchObject({ available: usdt('1000'), locked: 0n });
  });

  it('a failed withdrawal gives its amount back to the daily limit of the day it counted on; a completed one does not', async () => {
    await env.db.send(new PutCommand({ TableName: env.tableName, Item: withdrawalLimitItem.toItem(companyId, { dailyLimit: usdt('25'), pending: null, version: 1 }) }));
    const sentToday = async () => (await limitReader(env.db, env.tableName).limitFor(companyId, limitDay(clock.now()))).sent;
    const refusal = (amount: string) => withdraw(destination, amount).then(() => null, (error: { code?: string }) => error.code);

    const failing = await withdraw(SANDBOX_FAILING_ADDRESS, '20');
    const completing = await withdraw(destination, '5');
    expect(await refusal('1')).toBe('LIMIT_REACHED');
    await sendWithdrawals(deps);
    expect(await settle()).toMatchObject({ failed: 1, completed: 1 });
    expect(await read(failing)).toMatchObject({ status: 'failed' });
    expect(await sentToday()).toBe(usdt('5'));
    // The 20 are usable again today; the 5 that left are not.
    await expect(withdraw(destination, '20')).resolves.toMatchObject({ status: 'pending' });
    expect(await refusal('1')).toBe('LIMIT_REACHED');
    // Nothing left pending for the tests after this one.
    await sendWithdrawals(deps);
    expect(await settle()).toMatchObject({ completed: 1 });
    expect(await read(completing)).toMatchObject({ status: 'completed' });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });
});

describe('settling past the expiration on TronGrid, whose full node can lag its solidity node', () => {
  let stub: ScriptedServer;
  beforeAll(async () => {
    stub = await startScriptedServer();
  });
  afterAll(() => stub.close());

  const lost = failingBroadcaster('TronGrid unavailable');

  /**
   * A withdrawal signed and stored, settled against a loopback TronGrid whose solidified block is
   * past its expiration, whose full node does not know it, and whose solidity node answers
   * `solidity` (a receipt, or {}).
   */
  async function settleOnTronGrid(solidity: 'SUCCESS' | 'REVERT' | 'unknown', solidifiedPastExpiryMs = EXPIRY_SETTLE_MARGIN_MS + 3_000) {
    const withdrawal = await withdraw(destination, '7');
    await sendWithdrawals({ ...deps, broadcaster: lost });
    const stored = (await deps.store.withdrawalsInStatus('processing', 100)).find((w) => w.id === withdrawal.id)!;
    const expiresAt = Date.parse(stored.transaction!.expiresAt!);
    clock.setTo(expiresAt + solidifiedPastExpiryMs + 60_000);
    stub.reset();
    stub.script = ({ path }) => {
      if (path === '/walletsolidity/getnowblock') return { body: tronBlock(70_000_100, expiresAt + solidifiedPastExpiryMs) };
      if (path === '/wallet/gettransactioninfobyid') return { body: {} };
      if (path === '/walletsolidity/gettransactioninfobyid') {
        return { body: solidity === 'unknown' ? {} : transactionInfo(stored.txHash!, 70_000_050, expiresAt - 30_000, solidity) };
      }
      return { status: 404, body: { Error: `no answer for ${path}` } };
    };
    const outcome = await settleWithdrawals({ ...deps, chain: new TronGridChain({ baseUrl: stub.baseUrl }), broadcaster: lost });
    return { withdrawal, outcome };
  }

  it('settles as completed when only the solidity node has the SUCCESS receipt: the funds left, they are not handed back', async () => {
    const { withdrawal, outcome } = await settleOnTronGrid('SUCCESS');

    expect(outcome).toMatchObject({ completed: 1, failed: 0 });
    expect(stub.requests.map((r) => r.path)).toEqual(['/walletsolidity/getnowblock', '/wallet/gettransactioninfobyid', '/walletsolidity/gettransactioninfobyid']);
    // TronGrid's `fee`: the TRX burnt for the energy and bandwidth the hot wallet had not staked.
    expect(await read(withdrawal)).toMatchObject({ status: 'completed', failureReason: null, networkCost: { asset: 'TRX', amount: 5_254_500n, tokenAccountCreated: false } });
    expect(await balance()).toMatchObject({ available: usdt('992'), locked: 0n });
    expect(await eventTypes()).toContain('withdrawal.completed');
    expect(await eventTypes()).not.toContain('withdrawal.failed');
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('a receipt the full node shows at a solidified height is not taken until the solidity node holds it too (a node on a fork the network left): it waits, then completes', async () => {
    const withdrawal = await withdraw(destination, '7');
    await sendWithdrawals({ ...deps, broadcaster: lost });
    const stored = (await deps.store.withdrawalsInStatus('processing', 100)).find((w) => w.id === withdrawal.id)!;
    const sentAt = Date.parse(stored.transaction!.expiresAt!) - 60_000;
    let solidityHolds = false;
    stub.reset();
    stub.script = ({ path }) => {
      if (path === '/walletsolidity/getnowblock') return { body: tronBlock(70_000_100, sentAt + 120_000) };
      if (path === '/wallet/gettransactioninfobyid') return { body: transactionInfo(stored.txHash!, 70_000_050, sentAt, 'SUCCESS') };
      if (path === '/walletsolidity/gettransactioninfobyid') return { body: solidityHolds ? transactionInfo(stored.txHash!, 70_000_050, sentAt, 'SUCCESS') : {} };
      return { status: 404, body: { Error: `no answer for ${path}` } };
    };
    const onTronGrid = { ...deps, chain: new TronGridChain({ baseUrl: stub.baseUrl }), broadcaster: lost };
    expect(await settleWithdrawals(onTronGrid)).toMatchObject({ completed: 0, failed: 0, rebroadcast: 0 });
    expect(stub.requests.map((r) => r.path)).toContain('/walletsolidity/gettransactioninfobyid');
    expect(await read(withdrawal)).toMatchObject({ status: 'processing' });

    solidityHolds = true;
    expect(await settleWithdrawals(onTronGrid)).toMatchObject({ completed: 1 });
    expect(await read(withdrawal)).toMatchObject({ status: 'completed' });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it("fails with the receipt's result when the solidity node has it failed", async () => {
    const { withdrawal } = await settleOnTronGrid('REVERT');

    expect(await read(withdrawal)).toMatchObject({ status: 'failed', failureReason: 'REVERT', networkCost: { asset: 'TRX', amount: 5_254_500n } });
    expect(await balance()).toMatchObject({ available: usdt('1000'), locked: 0n });
  });

  it('waits while the solidified chain is less than the margin past the expiration, even if neither node knows the transaction', async () => {
    const { withdrawal, outcome } = await settleOnTronGrid('unknown', EXPIRY_SETTLE_MARGIN_MS - 3_000);

    expect(outcome).toMatchObject({ completed: 0, failed: 0 });
    expect(await read(withdrawal)).toMatchObject({ status: 'processing' });
    expect(await balance()).toMatchObject({ locked: usdt('8') });
  });

  it('fails as TRANSACTION_EXPIRED, funds returned, only when neither node knows the transaction', async () => {
    const { withdrawal, outcome } = await settleOnTronGrid('unknown');

    expect(outcome).toMatchObject({ completed: 0, failed: 1 });
    expect(stub.requests.map((r) => r.path)).toContain('/walletsolidity/gettransactioninfobyid');
    expect(await read(withdrawal)).toMatchObject({ status: 'failed', failureReason: 'TRANSACTION_EXPIRED' });
    expect(await balance()).toMatchObject({ available: usdt('1000'), locked: 0n });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });
});

describe("the hot wallet's float", () => {
  it('a withdrawal the hot wallet cannot cover waits pending, not failed, while a smaller one goes; it leaves once funds arrive', async () => {
    // A hot wallet of its own, funded with exactly 10 USDT on the sandbox chain.
    const signer = new LocalKeySigner(randomBytes(32).toString('hex'));
    const hotWallet = await signer.address();
    const floatDeps: SendingDeps = { ...deps, signer, hotWalletUsdt: () => chain.tokenBalance(USDT, hotWallet) };
    await chain.submitTransfer({ contract: USDT, from: destination, to: hotWallet, amount: usdt('10') });
    await chain.submitTransfer({ contract: SANDBOX_TRX, from: destination, to: hotWallet, amount: 100_000_000n });
    clock.advanceBlocks(1);

    const first = await withdraw(destination, '8');
    const tooBig = await withdraw(destination, '5');
    const small = await withdraw(destination, '2');
    expect(await sendWithdrawals(floatDeps)).toMatchObject({ sent: 2, awaitingFloat: 1 });
    expect(await read(tooBig)).toMatchObject({ status: 'pending', txHash: null });
    expect(await settle()).toMatchObject({ completed: 2, failed: 0 });

    // Nothing left on the hot wallet: it still waits, run after run.
    expect(await sendWithdrawals(floatDeps)).toMatchObject({ sent: 0, awaitingFloat: 1 });
    await chain.submitTransfer({ contract: USDT, from: destination, to: hotWallet, amount: usdt('5') });
    clock.advanceBlocks(1);
    expect(await sendWithdrawals(floatDeps)).toMatchObject({ sent: 1, awaitingFloat: 0 });
    expect(await settle()).toMatchObject({ completed: 1, failed: 0 });
    for (const withdrawal of [first, tooBig, small]) expect((await read(withdrawal)).status).toBe('completed');
    expect(await chain.tokenBalance(USDT, hotWallet)).toBe(0n);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('a withdrawal waiting for the float whose destination is listed meanwhile is not sent once funds arrive: it fails DESTINATION_SANCTIONED, its funds back', async () => {
    const signer = new LocalKeySigner(randomBytes(32).toString('hex'));
    const hotWallet = await signer.address();
    const floatDeps: SendingDeps = { ...deps, signer, hotWalletUsdt: () => chain.tokenBalance(USDT, hotWallet) };
    await chain.submitTransfer({ contract: SANDBOX_TRX, from: destination, to: hotWallet, amount: 100_000_000n });
    clock.advanceBlocks(1);
    const waiting = await withdraw(LISTED_LATER, '8');
    expect(await sendWithdrawals(floatDeps)).toMatchObject({ sent: 0, awaitingFloat: 1 });
    expect(await balance()).toMatchObject({ available: usdt('991'), locked: usdt('9') });

    // Hours later: OFAC lists it (the daily import), or the stage does (npm run screening:add); then the float is funded.
    await addStageEntry(new DynamoScreeningStore(env.db, env.tableName), { network: 'tron', address: LISTED_LATER, reason: 'listed while pending', actor: 'test' }, clock.now());
    await chain.submitTransfer({ contract: USDT, from: destination, to: hotWallet, amount: usdt('10') });
    clock.advanceBlocks(1);

    expect(await sendWithdrawals(floatDeps)).toMatchObject({ sent: 0, failed: 1, awaitingFloat: 0 });
    expect(await read(waiting)).toMatchObject({ status: 'failed', failureReason: 'DESTINATION_SANCTIONED', txHash: null, transaction: null });
    expect(await balance()).toMatchObject({ available: usdt('1000'), locked: 0n });
    expect(await eventTypes()).toEqual(['withdrawal.failed']);
    expect((await storedEvents(env.db, env.tableName, companyId))[0]!.data).toMatchObject({ id: waiting.id, status: 'failed', failureReason: 'DESTINATION_SANCTIONED' });
    expect(await chain.tokenBalance(USDT, hotWallet)).toBe(usdt('10'));
    expect(await sendWithdrawals(floatDeps)).toMatchObject({ sent: 0, failed: 0 });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  /** A hot wallet of its own, holding `usdtAmount` and the TRX `trx` gives of the sandbox's fee limit, its sender checking its TRX. */
  async function hotWalletOfItsOwn(usdtAmount: bigint, trx: (feeLimitSun: bigint) => bigint) {
    const signer = new LocalKeySigner(randomBytes(32).toString('hex'));
    const hotWallet = await signer.address();
    const feeLimitSun = BigInt(STAGES.sandbox.functionEnvironment.WITHDRAWAL_FEE_LIMIT_SUN!);
    const trxDeps: SendingDeps = { ...deps, signer, hotWalletUsdt: () => chain.tokenBalance(USDT, hotWallet), hotWalletTrx: hotWalletTrxOf(chain, signer, feeLimitSun) };
    await chain.submitTransfer({ contract: USDT, from: destination, to: hotWallet, amount: usdtAmount });
    await chain.submitTransfer({ contract: SANDBOX_TRX, from: destination, to: hotWallet, amount: trx(feeLimitSun) });
    clock.advanceBlocks(1);
    return { hotWallet, feeLimitSun, trxDeps };
  }

  it('a hot wallet without the TRX one payout may burn sends nothing: the withdrawal waits pending, not failed OUT_OF_ENERGY, and leaves once TRX arrives', async () => {
    // A hot wallet of its own with USDT for the payout and 1 TRX, below the 30 TRX fee limit.
    const { hotWallet, feeLimitSun, trxDeps } = await hotWalletOfItsOwn(usdt('10'), () => 1_000_000n);
    const withdrawal = await withdraw(destination, '8');

    expect(await sendWithdrawals(trxDeps)).toMatchObject({ sent: 0, awaitingFee: 1 });
    expect(await settle()).toMatchObject({ failed: 0 });
    expect(await read(withdrawal)).toMatchObject({ status: 'pending', txHash: null });

    await chain.submitTransfer({ contract: SANDBOX_TRX, from: destination, to: hotWallet, amount: feeLimitSun });
    clock.advanceBlocks(1);
    expect(await sendWithdrawals(trxDeps)).toMatchObject({ sent: 1, awaitingFee: 0 });
    expect(await settle()).toMatchObject({ completed: 1, failed: 0 });
    expect((await read(withdrawal)).status).toBe('completed');
  });

  it('signs no more payouts in a run than the hot wallet’s TRX covers at one fee limit each: the rest wait pending, not failed', async () => {
    // TRX for two payouts' fee limits (and a little), three payouts pending.
    const { hotWallet, feeLimitSun, trxDeps } = await hotWalletOfItsOwn(usdt('30'), (feeLimit) => 2n * feeLimit + 1_000_000n);
    const withdrawals = [await withdraw(destination, '5'), await withdraw(destination, '6'), await withdraw(destination, '7')];

    expect(await sendWithdrawals(trxDeps)).toMatchObject({ sent: 2, awaitingFee: 1, hotWalletTrxShort: true });
    expect(await settle()).toMatchObject({ completed: 2, failed: 0 });
    expect((await Promise.all(withdrawals.map(read))).map((withdrawal) => withdrawal.status).sort()).toEqual(['completed', 'completed', 'pending']);
    // The next run reads the TRX left and sends the third, so no later test finds it pending.
    await chain.submitTransfer({ contract: SANDBOX_TRX, from: destination, to: hotWallet, amount: feeLimitSun });
    clock.advanceBlocks(1);
    expect(await sendWithdrawals(trxDeps)).toMatchObject({ sent: 1, awaitingFee: 0 });
    expect(await settle()).toMatchObject({ completed: 1, failed: 0 });
  });
});

describe('a run with more pending than one page', () => {
  // The sender runs once a minute in AWS: one page a run would cap payouts at SEND_BATCH a minute.
  it('sends and settles every pending withdrawal in one run, page after page', async () => {
    const many = [];
    for (let i = 0; i < SEND_BATCH + 3; i++) many.push(await withdraw(destination, '1'));
    expect(await sendWithdrawals(deps)).toMatchObject({ sent: many.length });
    expect(await settle()).toMatchObject({ completed: many.length, failed: 0 });
    for (const withdrawal of many) expect((await read(withdrawal)).status).toBe('completed');
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('takes no new page once the run is short of time, and sends the rest on the next run', async () => {
    const many = [];
    for (let i = 0; i < SEND_BATCH + 5; i++) many.push(await withdraw(destination, '1'));
    let pagesRead = 0;
    // Plenty of time for the first page, then less than settling needs.
    const timeLeftMs = () => (pagesRead++ === 0 ? 60_000 : SETTLE_RESERVE_MS - 1);
    expect(await sendWithdrawals({ ...deps, timeLeftMs })).toMatchObject({ sent: SEND_BATCH });
    expect(await sendWithdrawals(deps)).toMatchObject({ sent: 5 });
    expect(await settle()).toMatchObject({ completed: many.length });
  });

  it('lets a small withdrawal behind a full page of ones the float cannot cover go out', async () => {
    await creditAvailable(env.db, env.tableName, companyId, 'USDT', '2000');
    const big = [];
    for (let i = 0; i < SEND_BATCH; i++) big.push(await withdraw(destination, '60'));
    const small = await withdraw(destination, '5');
    const floatDeps: SendingDeps = { ...deps, hotWalletUsdt: async () => usdt('50') };
    expect(await sendWithdrawals(floatDeps)).toMatchObject({ sent: 1, awaitingFloat: SEND_BATCH });
    expect((await read(small)).status).toBe('processing');
    // The hot wallet is funded: the rest go, so no later test finds them pending.
    expect(await sendWithdrawals(deps)).toMatchObject({ sent: SEND_BATCH });
    expect(await settle()).toMatchObject({ completed: SEND_BATCH + 1 });
  });
});

describe('the sandbox chain as a broadcast target', () => {
  it('answers finalReceipt only once the block is solidified, as a solidity node does', async () => {
    const unsigned = await deps.builder.usdtTransfer({ from: await deps.signer.address(), to: destination, amount: 1n });
    const signature = await deps.signer.signTransactionId(Buffer.from(unsigned.txId, 'hex'));
    await chain.broadcast({ ...unsigned.transaction, signature: [Buffer.from(signature).toString('hex')] });
    clock.advanceBlocks(1);

    expect(await chain.receipt(unsigned.txId)).toMatchObject({ result: 'SUCCESS' });
    expect(await chain.finalReceipt(unsigned.txId)).toBeNull();
    clock.advanceBlocks(18);
    expect(await chain.finalReceipt(unsigned.txId)).toMatchObject({ txHash: unsigned.txId, result: 'SUCCESS' });
  });

  it('refuses a transaction signed by another key than its owner', async () => {
    const unsigned = await deps.builder.usdtTransfer({ from: await deps.signer.address(), to: destination, amount: 1n });
    const stranger = new LocalKeySigner('2'.repeat(64));
    const signature = await stranger.signTransactionId(Buffer.from(unsigned.txId, 'hex'));
    await expect(chain.broadcast({ ...unsigned.transaction, signature: [Buffer.from(signature).toString('hex')] })).rejects.toThrow('SIGERROR');
  });
});
