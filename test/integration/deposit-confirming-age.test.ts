import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { createCompany } from '#functions/companies/company';
import { createDeposit } from '#functions/deposits/deposits';
import { confirmDeposits, oldestConfirmingAgeSeconds } from '#functions/deposits/deposit-confirmation';
import { SandboxChain } from '#functions/networks/tron/sandbox-chain';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import type { LocalRuntime } from '#local/runtime';
import { STAGES } from '../../config/stages.ts';
import { useFreshTable } from '../support/dynamo.ts';
import { TRON_DEPOSIT_SETTINGS } from '../support/deposit-settings.ts';
import { apiClient, startTestApi } from '../support/local-api.ts';
import { jsonLines } from '../support/log-lines.ts';
import { usdt } from '../support/money.ts';
import { BLOCK_MS, ChainClock, sandboxChainOver, USDT } from '../support/sandbox-chain-jobs.ts';
import { sandboxDepositJobs } from '../support/sandbox-deposit-jobs.ts';

/**
 * How long a deposit's transfer has been confirming, which the deposit poller publishes each run
 * (OldestConfirmingTransferAge, seconds) and the stack alarms on per network once it passes an hour
 * (DepositsStuckConfirming<Network>, lib/chain-alarms.ts): a transfer every network makes final
 * within minutes, still confirming, is stuck (a final view that stalled, a receipt no node gives).
 */
const PAYER = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 888_801);

describe('the age of the oldest transfer left confirming', () => {
  const env = useFreshTable();
  const clock = new ChainClock('2026-11-23T00:00:00.000Z', BLOCK_MS);
  const chain = sandboxChainOver(env, clock);
  const { deps, scan, settle } = sandboxDepositJobs(env, clock, chain);

  beforeAll(async () => {
    clock.advanceBlocks(100);
    await scan();
  });

  it('is 0 while none confirms, the time since its block while one waits for finality, and 0 again once it is credited', async () => {
    expect(await oldestConfirmingAgeSeconds(deps())).toBe(0);
    const { company } = await createCompany(new DynamoCompanyStore(env.db, env.tableName), { name: 'Confirming Co', environment: 'sandbox' }, clock.now());
    const deposit = await createDeposit(new DynamoDepositStore(env.db, env.tableName), TRON_DEPOSIT_SETTINGS, company.id, { network: 'tron', reference: 'confirming-age' }, clock.now());
    await chain.submitTransfer({ contract: USDT, from: PAYER, to: deposit.address, amount: usdt('7') });
    clock.advanceBlocks(1);
    expect((await scan()).recorded).toBe(1);

    // Ten blocks more, short of TRON's 19: left confirming, its block ten blocks of 3 s behind the newest.
    clock.advanceBlocks(10);
    expect(await confirmDeposits(deps())).toMatchObject({ confirmed: 0, waiting: 1 });
    expect(await oldestConfirmingAgeSeconds(deps())).toBe(30);

    expect(await settle()).toMatchObject({ confirmed: 1, waiting: 0 });
    expect(await oldestConfirmingAgeSeconds(deps())).toBe(0);
  });
});

describe('the deposit poller (functions/handlers/jobs/deposit-poller.ts)', () => {
  // One-second blocks and 100 confirmations: a payment stays confirming for over a minute.
  const BLOCK_INTERVAL_MS = 1000;
  let runtime: LocalRuntime;
  const written: string[] = [];

  beforeAll(async () => {
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    runtime = await startTestApi({ environment: { SANDBOX_BLOCK_INTERVAL_MS: String(BLOCK_INTERVAL_MS), DEPOSIT_REQUIRED_CONFIRMATIONS: '100' } });
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      written.push(String(chunk));
      return true;
    });
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await runtime?.stop();
  });

  it('publishes the age of the oldest transfer a poll leaves confirming, in seconds, and 0 while none is', async () => {
    const { handler } = await import('../../functions/handlers/jobs/deposit-poller.ts');
    const poll = (run: string) => handler({}, { awsRequestId: run } as never);
    // The poller's own EMF lines (TRON's carry no Network), in the order its runs wrote them.
    const pollerMetrics = () => jsonLines(written).filter((line) => line._aws && 'DepositsCredited' in line);

    await poll('poll-before-payment');
    const deposit = (await apiClient(runtime)('POST', '/deposits', { body: { method: 'usdt', network: 'tron', reference: 'confirming-age' } })).body.data;
    const chain = new SandboxChain(createDocumentClient(runtime.dynamoEndpoint), runtime.tableName, { blockIntervalMs: BLOCK_INTERVAL_MS, solidifyAfter: 100 });
    await chain.submitTransfer({ contract: STAGES.local.functionEnvironment.USDT_CONTRACT, from: PAYER, to: deposit.address, amount: usdt('5') });
    await new Promise((resolve) => setTimeout(resolve, 2 * BLOCK_INTERVAL_MS + 200));
    await poll('poll-after-payment');
    expect((await apiClient(runtime)('GET', `/deposits/${deposit.id}`)).body.data.status).toBe('confirming');

    const [before, after] = [pollerMetrics().at(0)!, pollerMetrics().at(-1)!];
    expect(before.OldestConfirmingTransferAge).toBe(0);
    // Two blocks at least since the payment's; TRON's 3 s a block count them (the local chain's are 1 s).
    expect(after.OldestConfirmingTransferAge).toBeGreaterThanOrEqual(2);
    expect(after._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'Cambio', Dimensions: [['service', 'stage']] });
    expect(after._aws.CloudWatchMetrics[0].Metrics).toContainEqual({ Name: 'OldestConfirmingTransferAge', Unit: 'Seconds' });
  });
});
