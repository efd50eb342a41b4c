import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { erc20Abi, type Address, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { localEvmChain, localPublicClient, HOT_WALLET_USDT } from '#local/evm-contracts';
import { EVM_NETWORKS } from '#functions/networks/evm/networks';
import type { Withdrawal } from '#functions/withdrawals/withdrawals';
import { STAGES } from '../../config/stages.ts';
import { creditAvailable, expectLedgerMatchesBalances, usdt } from '../support/money.ts';
import { killAll, killed, startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process.ts';
import { waitFor } from '../support/wait.ts';

/**
 * kill -9 of the local runtime during a burst of ethereum payouts, then a start again on the same
 * table (../shared/networks.md; issue #34). The runtime's anvil dies with it, as `npm start`'s does,
 * and with no data folder to keep its chain in (`npm start` keeps it: evm-local-restart.test.ts),
 * the second start runs a fresh chain (local/evm-networks.ts): the payouts completed before the
 * kill are gone with the old chain, and the ones still processing or pending must land on the new
 * one, each once, on nonces without a gap (local/evm-nonce-resume.ts), while the company is charged
 * exactly once for every payout.
 */
const endpoint = inject('dynamoEndpoint');
const tableName = `evm-crash-${randomUUID()}`;
const db = createDocumentClient(endpoint);
const withdrawals = new DynamoWithdrawalStore(db, tableName);
const children: ChildProcess[] = [];
const NETWORK = 'ethereum';
const CHILD = { CHILD_EVM_NETWORKS: NETWORK, CHILD_POLL_INTERVAL_MS: '200' };
const AMOUNT = '2';
/** Sent and completed before the kill. */
const FIRST_WAVE = 4;
/** Queued after, and killed while being sent. */
const SECOND_WAVE = 12;
const FUNDED = '1000';
const HOT_WALLET = privateKeyToAccount(`0x${STAGES.local.functionEnvironment.LOCAL_HOT_WALLET_KEY!}`).address;

afterAll(() => {
  killAll(children);
  db.destroy();
});

async function queue(runtime: RuntimeProcess, to: Address, count: number, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${runtime.apiUrl}/withdrawals`, {
      method: 'POST',
      headers: { 'X-Api-Key': runtime.sandbox.apiKey, 'X-Api-Secret': runtime.sandbox.apiSecret, 'Content-Type': 'application/json' },
      body: JSON.stringify({ method: 'usdt', network: NETWORK, address: to, amount: AMOUNT, reference: `${prefix}-${i}` }),
    });
    const body = (await response.json()) as { data: { id: string } };
    expect(response.status, JSON.stringify(body)).toBe(201);
    ids.push(body.data.id);
  }
  return ids;
}

const statuses = (companyId: string, ids: string[]): Promise<Withdrawal[]> => Promise.all(ids.map(async (id) => (await withdrawals.getWithdrawal(companyId, id))!));
const count = (rows: Withdrawal[], status: Withdrawal['status']) => rows.filter((row) => row.status === status).length;

describe('kill -9 of the local runtime during a burst of EVM payouts', () => {
  it('after a start again, every payout completes once, the new chain has no nonce gap, and the balances are exact', async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const first = await startRuntimeProcess(endpoint, tableName, children, CHILD);
    const { companyId } = first.sandbox;
    await creditAvailable(db, tableName, companyId, 'USDT', FUNDED, NETWORK);

    const firstWave = await queue(first, to, FIRST_WAVE, 'first');
    const completedFirst = await waitFor(() => statuses(companyId, firstWave), (rows) => count(rows, 'completed') > 0, 40_000);
    expect(count(completedFirst, 'completed'), 'no payout of the first wave completed').toBeGreaterThan(0);
    const secondWave = await queue(first, to, SECOND_WAVE, 'second');
    await waitFor(() => statuses(companyId, secondWave), (rows) => count(rows, 'processing') > 0, 40_000);
    await killed(first.child);

    const ids = [...firstWave, ...secondWave];
    const atKill = await statuses(companyId, ids);
    const completedBefore = count(atKill, 'completed');
    expect(completedBefore, `states at the kill: ${atKill.map((row) => row.status).join(',')}`).toBeLessThan(ids.length);

    const second = await startRuntimeProcess(endpoint, tableName, children, CHILD);
    const after = await waitFor(() => statuses(companyId, ids), (rows) => count(rows, 'completed') === ids.length, 40_000);
    expect(after.map((row) => `${row.status}${row.failureReason ? ` (${row.failureReason})` : ''}`), `at the kill: ${atKill.map((row) => row.status).join(',')}`).toEqual(ids.map(() => 'completed'));
    expect(new Set(after.map((row) => row.txHash)).size).toBe(ids.length);

    // On the new chain: what had not completed before the kill, each once, on consecutive nonces,
    // and nothing waiting behind a gap (the wallet's count is the last nonce + 1).
    const node = second.evmNetworks[NETWORK]!;
    const client = localPublicClient(localEvmChain(node.rpcUrl!, EVM_NETWORKS[NETWORK].chainId));
    const landed = after.filter((_, i) => atKill[i]!.status !== 'completed');
    const transactions = await Promise.all(landed.map((row) => client.getTransaction({ hash: row.txHash as Hash })));
    const nonces = transactions.map((transaction) => transaction.nonce).sort((a, b) => a - b);
    expect(nonces).toEqual(nonces.map((_, i) => nonces[0]! + i));
    expect(await client.getTransactionCount({ address: HOT_WALLET, blockTag: 'pending' })).toBe(nonces.at(-1)! + 1);
    const balanceOf = (address: Address) => client.readContract({ address: node.usdtContract as Address, abi: erc20Abi, functionName: 'balanceOf', args: [address] });
    const paidOnNewChain = usdt(AMOUNT) * BigInt(landed.length);
    expect(await balanceOf(to)).toBe(paidOnNewChain);
    expect(await balanceOf(HOT_WALLET)).toBe(HOT_WALLET_USDT * 10n ** 6n - paidOnNewChain);

    // The company paid amount + fee once per payout, whichever chain carried it.
    const charged = after.reduce((sum, row) => sum + row.amount + row.fee, 0n);
    expect(charged).toBeGreaterThan(BigInt(ids.length) * usdt(AMOUNT));
    const balance = (await new DynamoCompanyStore(db, tableName).getBalances(companyId)).find((row) => row.currency === 'USDT');
    expect(balance).toMatchObject({ available: usdt(FUNDED) - charged, locked: 0n });
    await expectLedgerMatchesBalances(db, tableName, companyId);
  }, 150_000);
});
