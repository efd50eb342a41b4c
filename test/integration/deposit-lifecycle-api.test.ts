import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoRescanCursor, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { parseAmount } from '#functions/shared/money';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { STAGES } from '../../config/stages.ts';
import { useFastChainApi } from '../support/local-api.ts';
import { waitFor } from '../support/wait.ts';
import { storedEvents, storedLedgerEntries } from '../support/records.ts';
import { expectLedgerMatchesBalances } from '../support/money.ts';

const api = useFastChainApi();

describe('a deposit on the local runtime, paid on the sandbox chain', () => {
  it('goes awaiting_payment → confirming → completed while the balance goes pending → available', { timeout: 90_000 }, async () => {
    const created = await api.call('POST', '/deposits', { body: { method: 'usdt', network: 'tron', reference: 'e2e-1', amount: '25' } });
    expect(created.status).toBe(201);
    const { id, address } = created.body.data;

    const { txHash } = await api.chain.submitTransfer({
      contract: STAGES.local.functionEnvironment.USDT_CONTRACT,
      from: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 123_456),
      to: address,
      amount: parseAmount('25', 'USDT'),
    });

    // The confirming window is short with fast blocks, and a loaded machine may poll past it, so
    // the intermediate states are proven by what was written, not by catching them in flight.
    const done = await waitFor(
      async () => (await api.call('GET', `/deposits/${id}`)).body.data,
      (deposit) => deposit.status === 'completed',
    );
    expect(done).toMatchObject({ status: 'completed', receivedAmount: '25.000000', creditedAmount: '25.000000', amountStatus: 'exact' });
    expect(done.transactions).toEqual([expect.objectContaining({ txHash, amount: '25.000000', status: 'confirmed' })]);
    const balance = await api.call('GET', '/company/balance');
    expect(balance.body.data.balances[0]).toEqual({ currency: 'USDT', available: '25.000000', pending: '0.000000', locked: '0.000000' });

    const db = createDocumentClient(api.runtime.dynamoEndpoint);
    const events = await storedEvents(db, api.runtime.tableName, api.runtime.sandbox.companyId);
    expect(events.map((event) => event.type)).toEqual(['deposit.confirming', 'deposit.completed']);
    expect(events[0]!.data).toMatchObject({ id, status: 'confirming', receivedAmount: '25.000000', creditedAmount: '0.000000' });
    expect(events[1]!.data).toEqual(done);
    // The money went through pending first: tron → pending when seen, pending → available when solid.
    const entries = await storedLedgerEntries(db, api.runtime.tableName, api.runtime.sandbox.companyId);
    expect(entries.map((entry) => (entry.postings as { source: string; destination: string }[]).map((p) => `${p.source} → ${p.destination}`))).toEqual([
      [`external:tron → company:${api.runtime.sandbox.companyId}:pending`],
      [`company:${api.runtime.sandbox.companyId}:pending → company:${api.runtime.sandbox.companyId}:available`],
    ]);
    await expectLedgerMatchesBalances(db, api.runtime.tableName, api.runtime.sandbox.companyId);
  });

  it('is not recorded twice when the poller reads its blocks again for a rescan, beside its live scan', { timeout: 90_000 }, async () => {
    const db = createDocumentClient(api.runtime.dynamoEndpoint);
    const { id, address } = (await api.call('POST', '/deposits', { body: { method: 'usdt', network: 'tron', reference: 'e2e-rescan', amount: '4' } })).body.data;
    const { blockNumber } = await api.chain.submitTransfer({
      contract: STAGES.local.functionEnvironment.USDT_CONTRACT,
      from: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 123_457),
      to: address,
      amount: parseAmount('4', 'USDT'),
    });
    await waitFor(async () => (await api.call('GET', `/deposits/${id}`)).body.data, (deposit) => deposit.status === 'completed');
    const { companyId } = api.runtime.sandbox;
    const written = async () => ({ events: await storedEvents(db, api.runtime.tableName, companyId), entries: await storedLedgerEntries(db, api.runtime.tableName, companyId) });
    const before = await written();

    // What npm run deposits:rescan asks: the blocks from just before the payment's to the live scan's.
    const live = new DynamoScanCursor(db, api.runtime.tableName, 'sandbox:usdt');
    const rescans = new DynamoRescanCursor(db, api.runtime.tableName, 'sandbox:usdt');
    const scannedTo = (await live.position())!;
    expect((await rescans.start(blockNumber - 5, scannedTo - 1, new Date())).result).toBe('started');
    const finished = await waitFor(() => rescans.progress(), (rescan) => rescan!.nextBlock > rescan!.untilBlock);
    expect(finished).toMatchObject({ fromBlock: blockNumber - 5, nextBlock: scannedTo, untilBlock: scannedTo - 1 });
    // The live scan went on meanwhile, and the payment read again was not recorded again.
    expect(await live.position()).toBeGreaterThanOrEqual(scannedTo);
    expect(await written()).toEqual(before);
    expect((await api.call('GET', `/deposits/${id}`)).body.data).toMatchObject({ status: 'completed', creditedAmount: '4.000000', transactions: [expect.objectContaining({ amount: '4.000000' })] });
  });
});

describe('npm run sandbox:pay', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'ops/sandbox-pay.ts', ...args], { encoding: 'utf8', timeout: 30_000 });

  it('is refused in production with a clear message', () => {
    const result = run('--stage', 'production', '--address', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', '--amount', '1');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('refused in production');
  });

  it('refuses an invalid address or amount before touching any data', () => {
    expect(run('--address', 'T123', '--amount', '1').stderr).toContain('--address must be a TRON address');
    expect(run('--address', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', '--amount', '1e3').stderr).toContain('--amount');
  });
});
