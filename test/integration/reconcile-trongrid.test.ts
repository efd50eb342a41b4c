import { TRON_DEPOSIT_SETTINGS } from '../support/deposit-settings.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { createDeposit, type Deposit } from '#functions/deposits/deposits';
import { scanDeposits } from '#functions/deposits/deposit-scan';
import { confirmDeposits } from '#functions/deposits/deposit-confirmation';
import { requestWithdrawal } from '#functions/withdrawals/withdrawals';
import { sendWithdrawals } from '#functions/networks/tron/withdrawal-sending';
import { sweepDepositAddresses } from '#functions/networks/tron/sweeps';
import { reconciliationReport } from '#functions/ledger/reconciliation';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { DynamoDepositChainStore, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { DynamoWithdrawalSendingStore } from '#adapters/dynamo/withdrawal-sending-store';
import { ChainResponseError, TOKEN_BALANCE_CONCURRENCY } from '#functions/networks/tron/trongrid-chain';
import { STAGES } from '../../config/stages.ts';
import { usdt, WITHDRAWAL_RULES } from '../support/money.ts';
import { jsonLines } from '../support/log-lines.ts';
import { startScriptedServer, type ScriptedReply, type ScriptedServer, type SeenRequest } from '../support/scripted-server.ts';
import { balanceOfHolder, constantResult, transactionInfo } from '../support/trongrid-stub.ts';
import { sandboxChainWithHotWallet, sandboxSending, sandboxSweeping, sandboxTransferBuilder, USDT } from '../support/sandbox-chain-jobs.ts';

/**
 * The scheduled reconcile job (functions/handlers/jobs/reconcile.ts) configured for TronGrid, against a
 * loopback TronGrid. The ledger is built by the real chain jobs on a sandbox chain in the same
 * table; the stub then answers balanceOf with what that chain holds, so "balanced" means the job
 * found every address holding owed USDT without reading every address ever issued.
 */
const LOCAL = STAGES.local.functionEnvironment;

const { env, clock, hotWallet, chain: sandbox } = sandboxChainWithHotWallet('2026-11-22T00:00:00.000Z');
let stub: ScriptedServer;
let reconcileNow: typeof import('#functions/handlers/jobs/reconcile').reconcileNow;
let reconcileJob: typeof import('#functions/handlers/jobs/reconcile').handler;

const address: Record<string, string> = {};
let processingTx: string;
/** What the chain holds, as the sandbox computed it once the ledger was built. */
let held: Map<string, bigint>;

/** balanceOf from `held` (after `adjust`), receipts of the one withdrawal in flight. */
function tronGrid(adjust: (holder: string, amount: bigint) => ScriptedReply | bigint = (_, amount) => amount) {
  return (request: SeenRequest): ScriptedReply => {
    if (request.path === '/wallet/triggerconstantcontract') {
      const holder = balanceOfHolder(request);
      const answer = adjust(holder, held.get(holder) ?? 0n);
      // Slow enough that the reads the adapter runs at once overlap here even on a loaded machine
      // (at 25 ms they sometimes did not, and the in-flight peak came out below the limit).
      return typeof answer === 'bigint' ? { body: constantResult(answer), delayMs: 250 } : answer;
    }
    if (request.path === '/wallet/gettransactioninfobyid' && request.body?.value === processingTx) {
      return { body: transactionInfo(processingTx, 1000, clock.epochMs(), 'SUCCESS') };
    }
    return { status: 404, body: { Error: `stub has no answer for ${request.path}` } };
  };
}

const balanceReads = () => stub.requests.filter((request) => request.path === '/wallet/triggerconstantcontract');

beforeAll(async () => {
  stub = await startScriptedServer();
  clock.advanceBlocks(30);

  const chainStore = new DynamoDepositChainStore(env.db, env.tableName, 'tron');
  const jobs = { network: 'tron' as const, chain: sandbox, store: chainStore, usdtContract: USDT, now: clock.now };
  const scan = () => scanDeposits({ ...jobs, cursor: new DynamoScanCursor(env.db, env.tableName, 'tron-usdt'), owner: 'scanner' });
  const builder = sandboxTransferBuilder(sandbox);
  // Production's minimum, so that a small deposit stays on its address.
  const sweeping = sandboxSweeping(env, sandbox, hotWallet, clock, { minimumSweep: usdt('20'), feeTopUp: 15_000_000n }, builder);
  const sending = sandboxSending(env, sandbox, hotWallet, clock, { builder });

  await scan();
  const { company } = await createCompany(new DynamoCompanyStore(env.db, env.tableName), { name: 'Reconciled Co', environment: 'sandbox' }, clock.now());
  const deposits = new DynamoDepositStore(env.db, env.tableName);
  const deposit = async (reference: string): Promise<Deposit> => {
    const created = await createDeposit(deposits, TRON_DEPOSIT_SETTINGS, company.id, { network: 'tron', reference }, clock.now());
    address[reference] = created.address;
    return created;
  };
  const payer = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 900_010);
  const pay = async (reference: string, amount: string) => sandbox.submitTransfer({ contract: USDT, from: payer, to: (await deposit(reference)).address, amount: usdt(amount) });

  // Swept to the hot wallet, and a 5 USDT deposit the sweeper leaves where it is (below 20).
  await pay('swept', '50');
  await pay('dust', '5');
  clock.advanceBlocks(1);
  await scan();
  clock.advanceBlocks(20);
  await confirmDeposits(jobs);
  // Top-up, sweep, the TRX's reclaim, and its landing, which clears the emptied address in the same run.
  for (let run = 0; run < 4; run++) {
    await sweepDepositAddresses(sweeping);
    clock.advanceBlocks(20);
  }
  // Confirmed, sweep due, not yet swept: more addresses than reads run at once.
  for (const [reference, amount] of [['due-1', '100'], ['due-2', '40'], ['due-3', '30'], ['due-4', '25'], ['due-5', '21']] as const) await pay(reference, amount);
  clock.advanceBlocks(1);
  await scan();
  clock.advanceBlocks(20);
  await confirmDeposits(jobs);
  // Seen on chain, still confirming (pending).
  await pay('confirming', '7');
  clock.advanceBlocks(1);
  await scan();
  // A withdrawal mined but not yet settled: it has left the hot wallet and is still owed.
  await requestWithdrawal(new DynamoWithdrawalStore(env.db, env.tableName), WITHDRAWAL_RULES, company.id, { reference: 'out', address: payer, amount: usdt('10') }, clock.now());
  await sendWithdrawals(sending);
  processingTx = (await new DynamoWithdrawalSendingStore(env.db, env.tableName, 'tron').withdrawalsInStatus('processing', 10))[0]!.txHash!;
  clock.advanceBlocks(1);
  // Never paid, and paid after the last scan: the ledger owes nothing on either.
  await deposit('unpaid');
  await pay('unscanned', '3');
  clock.advanceBlocks(1);
  held = await sandbox.balances(USDT);

  Object.assign(process.env, {
    STAGE: 'local',
    TABLE_NAME: env.tableName,
    DYNAMODB_ENDPOINT: env.endpoint,
    DEPOSIT_REQUIRED_CONFIRMATIONS: LOCAL.DEPOSIT_REQUIRED_CONFIRMATIONS,
    CHAIN_ADAPTER: 'trongrid',
    TRONGRID_URL: stub.baseUrl,
    USDT_CONTRACT: USDT,
    SIGNER: 'local',
    LOCAL_HOT_WALLET_KEY: LOCAL.LOCAL_HOT_WALLET_KEY,
  });
  ({ reconcileNow, handler: reconcileJob } = await import('#functions/handlers/jobs/reconcile'));
});

afterAll(async () => {
  await stub.close();
});

beforeEach(() => stub.reset());

describe('scheduled reconcile on TronGrid', () => {
  it('reads the hot wallet and only the deposit addresses that may hold USDT, a few at a time, and balances', async () => {
    let throttled = false;
    stub.script = tronGrid((holder, amount) => {
      // TronGrid throttles one read: the adapter's retry absorbs it.
      if (holder === address['due-1'] && !throttled) {
        throttled = true;
        return { status: 429, body: '', headers: { 'retry-after': '0' } };
      }
      return amount;
    });

    const result = await reconcileNow();

    expect(result.balanced, reconciliationReport(result)).toBe(true);
    const listed = ['due-1', 'due-2', 'due-3', 'due-4', 'due-5', 'dust', 'confirming'].map((reference) => address[reference]);
    expect(new Set(balanceReads().map(balanceOfHolder))).toEqual(new Set([...listed, await hotWallet.address()]));
    expect(result.depositAddressesRead).toBe(listed.length);
    expect(result.depositAddressesUsdt).toBe(usdt('228'));
    expect(result.inFlightUsdt).toBe(usdt('10'));
    expect(throttled).toBe(true);
    expect(stub.maxInFlight).toBe(TOKEN_BALANCE_CONCURRENCY);
  });

  it('reports the shortfall when a listed address holds less than the ledger was credited with', async () => {
    stub.script = tronGrid((holder, amount) => (holder === address.dust ? amount - usdt('3') : amount));

    const result = await reconcileNow();

    expect(result.balanced).toBe(false);
    expect(result.difference).toBe(-usdt('3'));
    expect(result.mismatch).toBe('shortfall');
    expect(reconciliationReport(result)).toContain('MISMATCH: -3.000000 USDT (shortfall)');
  });

  it("publishes the network's surplus and shortfall under its Network, the dimensions its alarms read, and the total's without", async () => {
    // A float sent to the hot wallet by hand: 5 USDT more than the ledger owes on TRON.
    const hot = await hotWallet.address();
    stub.script = tronGrid((holder, amount) => (holder === hot ? amount + usdt('5') : amount));
    const written: string[] = [];
    // The test run turns metrics off (test/support/global-setup.ts); this test reads them.
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    const capture = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => (written.push(String(chunk)), true));
    try {
      await reconcileJob({}, { awsRequestId: 'reconcile-1', getRemainingTimeInMillis: () => 300_000 } as never);
    } finally {
      capture.mockRestore();
      vi.unstubAllEnvs();
    }

    const lines = jsonLines(written).filter((line) => line._aws);
    const dimensionsOf = (line: Record<string, any>) => line._aws.CloudWatchMetrics[0].Dimensions[0].sort();
    const tron = lines.filter((line) => line.Network === 'tron');
    expect(tron).toHaveLength(1);
    expect(dimensionsOf(tron[0]!)).toEqual(['Network', 'service', 'stage']);
    expect(tron[0]).toMatchObject({ ReconcileSurplusUsdt: 5, ReconcileShortfallUsdt: 0, ReconcileUnexplainedUsdt: 0 });
    const total = lines.filter((line) => 'ReconcileSurplusUsdt' in line && !('Network' in line));
    expect(total).toHaveLength(1);
    expect(dimensionsOf(total[0]!)).toEqual(['service', 'stage']);
    expect(total[0]).toMatchObject({ ReconcileSurplusUsdt: 5, ReconcileShortfallUsdt: 0 });
  });

  it('fails rather than sum part of the addresses when a balance cannot be read', async () => {
    stub.script = tronGrid((holder, amount) => (holder === address['due-3'] ? { body: { Error: 'contract validate error' } } : amount));

    await expect(reconcileNow()).rejects.toBeInstanceOf(ChainResponseError);
  });
});
