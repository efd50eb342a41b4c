import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { evmSandboxPayer } from '#functions/networks/evm/sandbox-payer';
import { EvmChain } from '#functions/networks/evm/evm-chain';
import { localEvmSigner } from '#functions/networks/evm/signer';
import { STAGES } from '../../config/stages.ts';
import { startEvmNetworks } from '#local/evm-networks';
import { toChecksumAddress } from '#functions/networks/evm/evm-address';
import { anvilAccount } from '#local/evm-contracts';
import type { LocalRuntime } from '#local/runtime';
import { startBanner } from '#local/start-banner';
import { apiClient, newCompany, startTestApi } from '../support/local-api.ts';
import { signedUpOwner, STRONG_PASSWORD } from '../support/dashboard.ts';
import { runOpsCommand } from '../support/ops-commands.ts';
import { operatorAuditEntryItem } from '#adapters/dynamo/items/operator-audit-entry';
import { itemsUnder } from '#adapters/dynamo/queries';
import { operator } from '../../ops/screening-target.ts';
import { expectLedgerMatchesBalances, usdt } from '../support/money.ts';
import { waitFor } from '../support/wait.ts';

/**
 * The local runtime with an EVM network open (ethereum, one anvil node, a block a second, final 3
 * deep), through a real socket: a deposit made with the API, paid with `npm run sandbox:pay` or
 * the dashboard's Simulate payment, completes and is credited within seconds, and the runtime's
 * sweeper empties its forwarder; a split's forward is sent on ethereum by the runtime's sender and
 * lands at the split address. The runtime keeps its
 * state file in a data folder of its own, so the ops command, run from beside it, finds its node
 * as it finds `npm start`'s.
 */
const workDir = mkdtempSync(join(tmpdir(), 'cambio-evm-runtime-'));
let runtime: LocalRuntime;
const DEPOSIT_WITHIN_MS = 20_000;
/** A valid EIP-55 address no test holds a key to. */
const SPLIT_TO = '0x52908400098527886E0F7030069857D2E4169EE7';

beforeAll(async () => {
  runtime = await startTestApi({ dataDir: join(workDir, '.data'), evmNetworks: ['ethereum'], pollIntervalMs: 200 });
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
  rmSync(workDir, { recursive: true, force: true });
});

const sandboxPay = (...args: string[]) => runOpsCommand('ops/sandbox-pay.ts', args, {}, workDir);

async function completed(call: ReturnType<typeof apiClient>, id: string) {
  return waitFor(async () => (await call('GET', `/deposits/${id}`)).body.data, (deposit) => deposit.status === 'completed', DEPOSIT_WITHIN_MS);
}

describe('npm start with ethereum open', () => {
  it('prints the node in the spec form: name, JSON-RPC URL, USDT and its contract, and the issuer that owns it', async () => {
    const ethereum = runtime.evmNetworks.ethereum!;
    const lines = startBanner(runtime).split('\n');
    // Both addresses in EIP-55, as networks.md writes an EVM address.
    expect(lines).toContain(`  ethereum        ${ethereum.rpcUrl}  USDT ${toChecksumAddress(ethereum.usdtContract!)}  issuer ${anvilAccount.issuer().address}`);
    expect(lines.find((line) => line.startsWith('  ethereum'))).toMatch(/USDT 0x(?=[0-9a-f]*[A-F])[0-9a-fA-F]{40} /);
    expect(lines.filter((line) => /^ {2}ethereum {8}http:\/\/127\.0\.0\.1:\d+ {2}USDT 0x[0-9a-fA-F]{40} {2}issuer 0x[0-9a-fA-F]{40}$/.test(line))).toHaveLength(1);
    // The token is Tether's, owned by the issuer the line names.
    const owner = await fetch(ethereum.rpcUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: ethereum.usdtContract, data: '0x893d20e8' /* getOwner() */ }, 'latest'] }),
    });
    expect(((await owner.json()) as { result: string }).result.slice(-40)).toBe(anvilAccount.issuer().address.slice(2).toLowerCase());
    // The URL is the node itself, answering with Ethereum's chain id.
    const answer = await fetch(ethereum.rpcUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) });
    expect(((await answer.json()) as { result: string }).result).toBe('0x1');
    // Only the networks asked for are open.
    expect(Object.keys(runtime.evmNetworks)).toEqual(['ethereum']);
  });

  it('deploys the same contracts on every fresh node, so deposit addresses handed out before a restart stay valid', async () => {
    const again = await startEvmNetworks(['ethereum']);
    try {
      const { rpcUrl: _url, ...contracts } = again.settings.ethereum!;
      const { rpcUrl: _running, ...runningContracts } = runtime.evmNetworks.ethereum!;
      expect(contracts).toEqual(runningContracts);
    } finally {
      await again.stop();
    }
  });
});

describe('an ethereum deposit on the local runtime', () => {
  it.concurrent('paid with npm run sandbox:pay --network ethereum, completes and is credited within 20 s', async () => {
    const company = await newCompany(runtime, 'EVM Pay Co');
    const created = await company.call('POST', '/deposits', { body: { method: 'usdt', network: 'ethereum', reference: 'evm-pay', amount: '25' } });
    expect(created.status).toBe(201);
    const { id, address } = created.body.data;
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);

    const paid = await sandboxPay('--network', 'ethereum', '--address', address, '--amount', '25', '--json');
    expect(paid.stderr).toBe('');
    expect(paid.status).toBe(0);
    const { txHash } = JSON.parse(paid.stdout) as { txHash: string };
    expect(txHash).toMatch(/^0x[0-9a-f]{64}$/);

    const done = await completed(company.call, id);
    expect(done).toMatchObject({ status: 'completed', network: 'ethereum', receivedAmount: '25.000000', creditedAmount: '25.000000', amountStatus: 'exact' });
    expect(done.transactions).toEqual([expect.objectContaining({ txHash, amount: '25.000000', status: 'confirmed' })]);
    const balance = await company.call('GET', '/company/balance');
    expect(balance.body.data.balances[0]).toEqual({ currency: 'USDT', available: '25.000000', pending: '0.000000', locked: '0.000000' });
    // The runtime's ethereum sweeper then deploys the forwarder and empties it into the hot wallet.
    const ethereum = runtime.evmNetworks.ethereum!;
    const node = new EvmChain({ rpcUrl: ethereum.rpcUrl!, finalizedTag: false, confirmations: 1, maxBlockRange: 1_000, tokenDecimals: 6, tokenControls: 'tether' });
    await waitFor(() => node.tokenBalance(ethereum.usdtContract, address), (held) => held === 0n, DEPOSIT_WITHIN_MS);
    expect(await node.tokenBalance(ethereum.usdtContract, address)).toBe(0n);
  });

  it.concurrent('with a 10 % split: the company is credited 90 %, and the forward is sent on ethereum: the split address receives exactly its share', async () => {
    const company = await newCompany(runtime, 'EVM Split Co');
    const created = await company.call('POST', '/deposits', {
      body: { method: 'usdt', network: 'ethereum', reference: 'evm-split', amount: '10', split: { address: SPLIT_TO, percent: 10 } },
    });
    expect(created.status).toBe(201);
    const { id, address } = created.body.data;
    await evmSandboxPayer('ethereum', runtime.evmNetworks.ethereum!).pay(address, usdt('10'));

    const done = await completed(company.call, id);
    expect(done).toMatchObject({ status: 'completed', receivedAmount: '10.000000', split: { address: SPLIT_TO, forwardedAmount: '1.000000', withdrawalId: expect.stringMatching(/^wdr_/) } });
    // Sent by the runtime's ethereum sender from the hot wallet, completed once its block is 3 deep.
    const forward = await waitFor(
      async () => (await company.call('GET', `/withdrawals/${done.split.withdrawalId}`)).body.data,
      (withdrawal) => withdrawal.status === 'completed',
      DEPOSIT_WITHIN_MS,
    );
    expect(forward).toMatchObject({ status: 'completed', network: 'ethereum', address: SPLIT_TO, amount: '1.000000', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const ethereum = runtime.evmNetworks.ethereum!;
    const node = new EvmChain({ rpcUrl: ethereum.rpcUrl!, finalizedTag: false, confirmations: 1, maxBlockRange: 1_000, tokenDecimals: 6, tokenControls: 'tether' });
    expect(await node.tokenBalance(ethereum.usdtContract, SPLIT_TO)).toBe(usdt('1'));
    const balance = await company.call('GET', '/company/balance');
    expect(balance.body.data.balances[0]).toEqual({ currency: 'USDT', available: '9.000000', pending: '0.000000', locked: '0.000000' });
    const db = createDocumentClient(runtime.dynamoEndpoint);
    try {
      await expectLedgerMatchesBalances(db, runtime.tableName, company.companyId);
    } finally {
      db.destroy();
    }
  });

  it.concurrent("paid with the dashboard's Simulate payment, completes", async () => {
    const owner = await signedUpOwner(runtime, 'EVM Sim Co');
    const key = await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'evm', password: STRONG_PASSWORD } });
    expect(key.status).toBe(201);
    const call = apiClient(runtime, key.body.data);
    const created = await call('POST', '/deposits', { body: { method: 'usdt', network: 'ethereum', reference: 'evm-sim', amount: '7.5' } });
    expect(created.status).toBe(201);

    const paid = await owner.browser.call('POST', `/companies/${owner.companyId}/simulated-payments`, { body: { depositId: created.body.data.id, amount: '7.5' } });
    expect(paid.status).toBe(202);
    expect(paid.body.data.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await completed(call, created.body.data.id)).toMatchObject({ status: 'completed', creditedAmount: '7.500000' });
  });
});

describe('npm run reconcile and npm run float:record beside npm start with ethereum open', () => {
  const floatRecord = (...args: string[]) => runOpsCommand('ops/float-record.ts', args, {}, workDir);
  /** Final 3 blocks deep, a block a second: waits until the transaction is final on the node. */
  async function finalOnNode(txHash: string) {
    const node = new EvmChain({ rpcUrl: runtime.evmNetworks.ethereum!.rpcUrl!, finalizedTag: false, confirmations: 3, maxBlockRange: 1_000, tokenDecimals: 6, tokenControls: 'tether' });
    await waitFor(() => node.finalReceipt(txHash), (receipt) => receipt !== null, DEPOSIT_WITHIN_MS);
  }

  it('float:record records USDT sent to the hot wallet by hand as a float, once, from what the chain shows; refuses a transaction that paid someone else', async () => {
    const ethereum = runtime.evmNetworks.ethereum!;
    const hotWallet = await localEvmSigner(STAGES.local.functionEnvironment.LOCAL_HOT_WALLET_KEY!).address();
    const { txHash } = await evmSandboxPayer('ethereum', ethereum).pay(hotWallet, usdt('500'));
    const { txHash: elsewhere } = await evmSandboxPayer('ethereum', ethereum).pay(SPLIT_TO, usdt('2'));
    await finalOnNode(txHash);
    await finalOnNode(elsewhere);

    const [recorded, refused] = await Promise.all([floatRecord('--network', 'ethereum', '--tx', txHash), floatRecord('--network', 'ethereum', '--tx', elsewhere)]);
    expect(recorded.stderr).toBe('');
    expect(recorded.stdout).toContain(`Recorded a float of 500.000000 USDT on ethereum's hot wallet ${hotWallet} (transaction ${txHash})`);
    expect(recorded.status).toBe(0);
    expect(refused.stderr).toContain(`Not recorded: ${elsewhere} moved no USDT to the hot wallet ${hotWallet} on ethereum`);
    expect(refused.status).toBe(2);
    const again = await floatRecord('--network', 'ethereum', '--tx', txHash);
    expect(again.stdout).toContain(`Already recorded: the float of 500.000000 USDT from ${txHash} on ethereum. Nothing written.`);
    expect(again.status).toBe(0);
    // The same hash in capitals (as an explorer may show it) is the same float.
    const capitals = await floatRecord('--network', 'ethereum', '--tx', `0x${txHash.slice(2).toUpperCase()}`);
    expect(capitals.stdout).toContain(`Already recorded: the float of 500.000000 USDT from ${txHash} on ethereum. Nothing written.`);
    // One operator audit entry, written with the float's ledger entry: who recorded it, and what.
    const db = createDocumentClient(runtime.dynamoEndpoint);
    try {
      const audits = (await itemsUnder(db, runtime.tableName, operatorAuditEntryItem.all())).map(operatorAuditEntryItem.fromItem).filter((entry) => entry.action === 'float.recorded');
      expect(audits).toEqual([
        {
          id: expect.stringMatching(/^aud_/),
          action: 'float.recorded',
          actor: operator(),
          target: `ethereum:${txHash}`,
          details: { network: 'ethereum', txHash, amount: '500.000000', currency: 'USDT', ledgerEntryId: expect.any(String) },
          createdAt: expect.any(String),
        },
      ]);
    } finally {
      db.destroy();
    }
  });

  it('float:record refuses bad usage before it reads anything: an unknown network, a TRON float on a deployed stage, another stage\'s table', async () => {
    const hash = `0x${'ab'.repeat(32)}`;
    const [unknown, tronDeployed, otherTable] = await Promise.all([
      floatRecord('--network', 'dogecoin', '--tx', hash),
      floatRecord('--network', 'tron', '--tx', hash, '--stage', 'production', '--table', 'Cambio-production-Table'),
      floatRecord('--network', 'polygon', '--tx', hash, '--stage', 'sandbox', '--table', 'Cambio-production-Table'),
    ]);
    expect(unknown).toMatchObject({ status: 2, stdout: '' });
    expect(unknown.stderr).toContain('Unknown network "dogecoin"');
    expect(tronDeployed).toMatchObject({ status: 2, stdout: '' });
    expect(tronDeployed.stderr).toContain('a TRON float is not recorded by it yet');
    expect(otherTable).toMatchObject({ status: 2, stdout: '' });
    expect(otherTable.stderr).toContain("--table Cambio-production-Table is not the sandbox stage's table");
  });

  it("reconcile balances, in total and on ethereum: the floats (npm start's own and the one recorded) are in the ledger as Cambio's own, and the deposits, sweeps and split forward above move both sides alike", async () => {
    const reconciled = await runOpsCommand('local/reconcile.ts', [], {}, workDir);
    expect(reconciled.stderr).toBe('');
    expect(reconciled.stdout).toMatch(/^\+ Cambio's own USDT +10005\d\d\.\d{6}$/m); // the floats, and any fees earned
    expect(reconciled.stdout).toMatch(/^ethereum .* balanced {2}gas \d+$/m);
    expect(reconciled.stdout).toMatch(/^balanced$/m);
    expect(reconciled.status).toBe(0);
  });
});

describe('npm run sandbox:pay on an EVM network', () => {
  it('refuses an unknown network and one the running runtime did not open, naming the choices', async () => {
    const [unknown, notOpen, solanaNotOpen] = await Promise.all([
      sandboxPay('--network', 'dogecoin', '--address', SPLIT_TO, '--amount', '1'),
      sandboxPay('--network', 'bsc', '--address', SPLIT_TO, '--amount', '1'),
      sandboxPay('--network', 'solana', '--address', '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', '--amount', '1'),
    ]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('Unknown network "dogecoin": --network must be "tron", "ethereum", "bsc", "polygon", "arbitrum" or "solana"');
    expect(notOpen.status).toBe(2);
    expect(notOpen.stderr).toContain('bsc is not open on the running local runtime; open are tron, ethereum.');
    expect(solanaNotOpen.status).toBe(2);
    expect(solanaNotOpen.stderr).toContain('solana is not open on the running local runtime; open are tron, ethereum.');
  });
});
