import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { erc20Abi, type Address, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { scanCursorItem } from '#adapters/dynamo/items/chain-transfer';
import { readItem } from '#adapters/dynamo/queries';
import { evmScanCursorName } from '#functions/networks/evm/from-settings';
import { evmSandboxPayer } from '#functions/networks/evm/sandbox-payer';
import { EVM_NETWORKS } from '#functions/networks/evm/networks';
import type { EvmNetworkName } from '#functions/networks/names';
import type { Withdrawal } from '#functions/withdrawals/withdrawals';
import { rpc } from '#local/anvil';
import { localEvmChain, localPublicClient } from '#local/evm-contracts';
import { startEvmNetworks } from '#local/evm-networks';
import { STAGES } from '../../config/stages.ts';
import { creditAvailable, expectLedgerMatchesBalances, usdt } from '../support/money.ts';
import { runOpsCommand } from '../support/ops-commands.ts';
import { killAll, killed, startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process.ts';
import { waitFor } from '../support/wait.ts';

/**
 * `npm start` keeps each EVM node's chain in its data folder (../shared/networks.md, "Local chains
 * survive a restart"; local/evm-chain-state.ts): the runtime in a process of its own on a data
 * folder, as `npm start` on .data/, with its ledger on the run's DynamoDB Local, which outlives
 * it. Stopped as Ctrl-C stops it and started again, each chain goes on where it stood and reconcile
 * balances on every network; killed (-9) in the middle of a burst of payouts, started again, every
 * payout lands once on the chain, on nonces without a gap, and later payouts follow.
 */
const endpoint = inject('dynamoEndpoint');
const db = createDocumentClient(endpoint);
const children: ChildProcess[] = [];
const workDirs: string[] = [];
const HOT_WALLET = privateKeyToAccount(`0x${STAGES.local.functionEnvironment.LOCAL_HOT_WALLET_KEY!}`).address;
const SETTLED_WITHIN_MS = 60_000;

afterAll(() => {
  killAll(children);
  db.destroy();
  for (const dir of workDirs) rmSync(dir, { recursive: true, force: true });
});

function dataFolder(): { workDir: string; dataDir: string } {
  const workDir = mkdtempSync(join(tmpdir(), 'cambio-evm-restart-'));
  workDirs.push(workDir);
  return { workDir, dataDir: join(workDir, '.data') };
}

async function call(runtime: RuntimeProcess, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; data: any }> {
  const response = await fetch(`${runtime.apiUrl}${path}`, {
    method,
    headers: { 'X-Api-Key': runtime.sandbox.apiKey, 'X-Api-Secret': runtime.sandbox.apiSecret, 'Content-Type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as { data: unknown };
  return { status: response.status, data: json.data };
}

/** SIGTERM, as Ctrl-C stops `npm start`: resolves with its exit code once it has stopped everything. */
async function stopped(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

const nodeOf = (runtime: RuntimeProcess, network: EvmNetworkName) => localPublicClient(localEvmChain(runtime.evmNetworks[network]!.rpcUrl!, EVM_NETWORKS[network].chainId));

/** USDT held on the node, in 6 decimals whatever the token's. */
async function usdtOnNode(runtime: RuntimeProcess, network: EvmNetworkName, address: Address): Promise<bigint> {
  const held = await nodeOf(runtime, network).readContract({ address: runtime.evmNetworks[network]!.usdtContract as Address, abi: erc20Abi, functionName: 'balanceOf', args: [address] });
  return held / 10n ** BigInt(EVM_NETWORKS[network].tokenDecimals - 6);
}

const reconcile = (workDir: string) => runOpsCommand('local/reconcile.ts', [], {}, workDir);

describe('npm start stopped and started again on the same data folder', () => {
  const NETWORKS: EvmNetworkName[] = ['ethereum', 'bsc', 'polygon', 'arbitrum'];

  it('goes on with each chain: the same USDT contracts, the deposits and payouts made before still on them, new ones credited, reconcile balanced on every network', async () => {
    const { workDir, dataDir } = dataFolder();
    const child = { CHILD_DATA_DIR: dataDir, CHILD_EVM_NETWORKS: NETWORKS.join(','), CHILD_POLL_INTERVAL_MS: '200' };
    const tableName = `evm-restart-${randomUUID()}`;
    const first = await startRuntimeProcess(endpoint, tableName, children, child);
    const payee = privateKeyToAccount(generatePrivateKey()).address;

    // On each network: a deposit paid and credited, then a payout of part of it, completed.
    const made = await Promise.all(
      NETWORKS.map(async (network) => {
        const created = await call(first, 'POST', '/deposits', { method: 'usdt', network, reference: `before-${network}`, amount: '25' });
        expect(created.status, JSON.stringify(created.data)).toBe(201);
        const { txHash } = await evmSandboxPayer(network, first.evmNetworks[network]!).pay(created.data.address, usdt('25'));
        const deposit = await waitFor(async () => (await call(first, 'GET', `/deposits/${created.data.id}`)).data, (row) => row.status === 'completed', SETTLED_WITHIN_MS);
        expect(deposit.status, `${network} deposit`).toBe('completed');
        const payout = await call(first, 'POST', '/withdrawals', { method: 'usdt', network, address: payee, amount: '10', reference: `before-${network}` });
        expect(payout.status, JSON.stringify(payout.data)).toBe(201);
        const sent = await waitFor(async () => (await call(first, 'GET', `/withdrawals/${payout.data.id}`)).data, (row) => row.status === 'completed', SETTLED_WITHIN_MS);
        expect(sent.status, `${network} payout`).toBe('completed');
        return { network, depositTx: txHash, payoutTx: sent.txHash as Hash };
      }),
    );
    const heads = Object.fromEntries(await Promise.all(NETWORKS.map(async (network) => [network, await nodeOf(first, network).getBlockNumber()] as const)));
    expect(await stopped(first.child)).toBe(0);

    const second = await startRuntimeProcess(endpoint, tableName, children, child);
    for (const network of NETWORKS) {
      const [before, after] = [first.evmNetworks[network]!, second.evmNetworks[network]!];
      // The same contracts, so the same deposit addresses; nothing deployed again.
      expect({ usdt: after.usdtContract, factory: after.forwarderFactory }).toEqual({ usdt: before.usdtContract, factory: before.forwarderFactory });
      const node = nodeOf(second, network);
      expect(await node.getBlockNumber(), `${network}'s head goes on`).toBeGreaterThanOrEqual(heads[network]!);
    }
    for (const { network, depositTx, payoutTx } of made) {
      const node = nodeOf(second, network);
      expect((await node.getTransactionReceipt({ hash: depositTx as Hash })).status, `${network} deposit still mined`).toBe('success');
      expect((await node.getTransactionReceipt({ hash: payoutTx })).status, `${network} payout still mined`).toBe('success');
      expect(await usdtOnNode(second, network, payee), `${network} payee`).toBe(usdt('10'));
    }

    const reconciled = await reconcile(workDir);
    expect(reconciled.stderr).toBe('');
    for (const network of NETWORKS) expect(reconciled.stdout).toMatch(new RegExp(`^${network} .* balanced {2}gas \\d+$`, 'm'));
    expect(reconciled.stdout).toMatch(/^balanced$/m);
    expect(reconciled.status).toBe(0);

    // The scan went on where it stood: a deposit paid after the restart is credited.
    const created = await call(second, 'POST', '/deposits', { method: 'usdt', network: 'bsc', reference: 'after-bsc', amount: '3' });
    await evmSandboxPayer('bsc', second.evmNetworks.bsc!).pay(created.data.address, usdt('3'));
    const deposit = await waitFor(async () => (await call(second, 'GET', `/deposits/${created.data.id}`)).data, (row) => row.status === 'completed', SETTLED_WITHIN_MS);
    expect(deposit).toMatchObject({ status: 'completed', creditedAmount: '3.000000' });
    expect(await stopped(second.child)).toBe(0);
  }, 240_000);
});

describe('kill -9 of npm start in the middle of 20 payouts, then npm start again', () => {
  const NETWORK = 'ethereum';
  const AMOUNT = '2';
  const FUNDED = '1000';

  it('every payout lands on the restored chain exactly once, on nonces without a gap, and later payouts follow', async () => {
    const { dataDir } = dataFolder();
    const tableName = `evm-restart-kill-${randomUUID()}`;
    const withdrawals = new DynamoWithdrawalStore(db, tableName);
    const child = { CHILD_DATA_DIR: dataDir, CHILD_EVM_NETWORKS: NETWORK, CHILD_POLL_INTERVAL_MS: '200' };
    // The chain saved once, at start, and not again before the kill: what a kill -9 loses of it
    // (at most the last seconds, under `npm start`) is here every payout made since.
    const first = await startRuntimeProcess(endpoint, tableName, children, { ...child, CHILD_EVM_SAVE_EVERY_MS: '600000' });
    const { companyId } = first.sandbox;
    await creditAvailable(db, tableName, companyId, 'USDT', FUNDED, NETWORK);
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    const queue = async (runtime: RuntimeProcess, count: number, prefix: string) => {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const created = await call(runtime, 'POST', '/withdrawals', { method: 'usdt', network: NETWORK, address: payee, amount: AMOUNT, reference: `${prefix}-${i}` });
        expect(created.status, JSON.stringify(created.data)).toBe(201);
        ids.push(created.data.id);
      }
      return ids;
    };
    const rows = (ids: string[]): Promise<Withdrawal[]> => Promise.all(ids.map(async (id) => (await withdrawals.getWithdrawal(companyId, id))!));
    const count = (of: Withdrawal[], status: Withdrawal['status']) => of.filter((row) => row.status === status).length;

    // 8 completed in the ledger before the kill, 12 more queued and being sent when it comes.
    const firstWave = await queue(first, 8, 'first');
    await waitFor(() => rows(firstWave), (of) => count(of, 'completed') > 0, SETTLED_WITHIN_MS);
    const secondWave = await queue(first, 12, 'second');
    await waitFor(() => rows(secondWave), (of) => count(of, 'processing') > 0, SETTLED_WITHIN_MS);
    await killed(first.child);
    const ids = [...firstWave, ...secondWave];
    const atKill = await rows(ids);
    expect(count(atKill, 'completed'), `at the kill: ${atKill.map((row) => row.status).join(',')}`).toBeGreaterThan(0);
    expect(count(atKill, 'completed'), `at the kill: ${atKill.map((row) => row.status).join(',')}`).toBeLessThan(ids.length);
    // The saved chain is behind the ledger: the hot wallet had sent nothing when it was saved.
    const saved = JSON.parse(readFileSync(join(dataDir, 'evm', NETWORK, 'state.json'), 'utf8')) as { accounts: Record<string, { nonce: number }> };
    expect(saved.accounts[HOT_WALLET.toLowerCase()]?.nonce ?? 0).toBe(0);

    const second = await startRuntimeProcess(endpoint, tableName, children, child);
    expect(second.evmNetworks[NETWORK]!.usdtContract).toBe(first.evmNetworks[NETWORK]!.usdtContract);
    const after = await waitFor(() => rows(ids), (of) => count(of, 'completed') === ids.length, SETTLED_WITHIN_MS);
    expect(after.map((row) => `${row.status}${row.failureReason ? ` (${row.failureReason})` : ''}`), `at the kill: ${atKill.map((row) => row.status).join(',')}`).toEqual(ids.map(() => 'completed'));

    // Each on the chain once: its own transaction, mined, and the payee holds exactly the 20.
    const node = nodeOf(second, NETWORK);
    const receipts = await Promise.all(after.map((row) => node.getTransactionReceipt({ hash: row.txHash as Hash }).catch(() => null)));
    expect(receipts.map((receipt) => receipt?.status ?? 'not on the chain')).toEqual(ids.map(() => 'success'));
    expect(new Set(after.map((row) => row.txHash)).size).toBe(ids.length);
    const nonces = (await Promise.all(after.map((row) => node.getTransaction({ hash: row.txHash as Hash })))).map((transaction) => transaction.nonce).sort((a, b) => a - b);
    expect(nonces).toEqual(nonces.map((_, i) => i));
    expect(await usdtOnNode(second, NETWORK, payee)).toBe(usdt(AMOUNT) * BigInt(ids.length));

    // Later payouts follow, right behind them.
    const later = await queue(second, 2, 'later');
    const laterRows = await waitFor(() => rows(later), (of) => count(of, 'completed') === later.length, SETTLED_WITHIN_MS);
    expect(laterRows.map((row) => row.status)).toEqual(['completed', 'completed']);
    expect(await usdtOnNode(second, NETWORK, payee)).toBe(usdt(AMOUNT) * BigInt(ids.length + later.length));
    expect(await node.getTransactionCount({ address: HOT_WALLET, blockTag: 'pending' })).toBe(ids.length + later.length);

    // The company paid amount + fee once per payout.
    const charged = [...after, ...laterRows].reduce((sum, row) => sum + row.amount + row.fee, 0n);
    const balance = (await new DynamoCompanyStore(db, tableName).getBalances(companyId)).find((row) => row.currency === 'USDT');
    expect(balance).toMatchObject({ available: usdt(FUNDED) - charged, locked: 0n });
    await expectLedgerMatchesBalances(db, tableName, companyId);
    expect(await stopped(second.child)).toBe(0);
  }, 180_000);
});

describe('npm start again on a data folder whose runtime is running', () => {
  it('is refused before it starts or writes anything, naming the running one, which goes on answering', async () => {
    const { dataDir } = dataFolder();
    const tableName = `evm-restart-twice-${randomUUID()}`;
    // Its chain saved once, at start: the scan below stands past the saved head, as a running scan does.
    const child = { CHILD_DATA_DIR: dataDir, CHILD_EVM_NETWORKS: 'ethereum', CHILD_EVM_SAVE_EVERY_MS: '600000' };
    const first = await startRuntimeProcess(endpoint, tableName, children, child);
    const network = first.evmNetworks.ethereum!;
    await rpc(network.rpcUrl!, 'anvil_mine', ['0x14']);
    const cursorKey = scanCursorItem.key(evmScanCursorName('ethereum', network));
    const cursor = new DynamoScanCursor(db, tableName, evmScanCursorName('ethereum', network));
    await cursor.acquire('the first runtime', new Date(), 60_000);
    await cursor.advance('the first runtime', Number(await nodeOf(first, 'ethereum').getBlockNumber()) + 1);
    await cursor.release('the first runtime');
    const files = () => Object.fromEntries(['runtime.json', 'cognito.json', 'evm/ethereum/state.json'].map((file) => [file, readFileSync(join(dataDir, file), 'utf8')]));
    const [filesBefore, cursorBefore] = [files(), await readItem(db, tableName, cursorKey)];

    const second = startRuntimeProcess(endpoint, tableName, children, child);
    await expect(second).rejects.toThrow(`Cambio's local runtime already runs on ${dataDir}/ (process ${first.child.pid}, API ${first.apiUrl})`);

    expect(await readItem(db, tableName, cursorKey)).toEqual(cursorBefore);
    expect(files()).toEqual(filesBefore);
    expect((await call(first, 'GET', '/company')).status).toBe(200);
    expect(await stopped(first.child)).toBe(0);
    // Ctrl-C gives the folder back.
    expect(existsSync(join(dataDir, 'runtime.lock'))).toBe(false);
  }, 60_000);
});

describe('a saved chain npm start cannot go on from', () => {
  it('stops the start, naming the folder to remove: an unreadable state, or one without the contracts it was saved with', async () => {
    const { dataDir } = dataFolder();
    const hotWalletKey = STAGES.local.functionEnvironment.LOCAL_HOT_WALLET_KEY!;
    await (await startEvmNetworks(['polygon'], { dataDir, hotWalletKey })).stop();
    const dir = join(dataDir, 'evm', 'polygon');
    const state = readFileSync(join(dir, 'state.json'), 'utf8');
    const contracts = JSON.parse(readFileSync(join(dir, 'contracts.json'), 'utf8')) as { usdt: string };

    writeFileSync(join(dir, 'state.json'), state.slice(0, state.length / 2));
    await expect(startEvmNetworks(['polygon'], { dataDir, hotWalletKey })).rejects.toThrow(`The polygon chain saved in ${dir}/ cannot be used: state.json is unreadable`);
    // JSON of the right shape that anvil itself cannot load: anvil says so, and that is the chain's fault too.
    writeFileSync(join(dir, 'state.json'), JSON.stringify({ accounts: { '0xnot-an-address': {} }, blocks: [], best_block_number: 3 }));
    await expect(startEvmNetworks(['polygon'], { dataDir, hotWalletKey })).rejects.toThrow(`The polygon chain saved in ${dir}/ cannot be used: anvil did not start on it`);

    writeFileSync(join(dir, 'state.json'), state);
    const elsewhere = privateKeyToAccount(generatePrivateKey()).address;
    writeFileSync(join(dir, 'contracts.json'), JSON.stringify({ ...contracts, usdt: elsewhere }));
    const refused = startEvmNetworks(['polygon'], { dataDir, hotWalletKey });
    await expect(refused).rejects.toThrow(`its USDT contract ${elsewhere} is not on the chain state.json holds`);
    await expect(refused).rejects.toThrow(`Remove ${dir}/ to start that chain afresh`);
  });
});
