import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { cambioAddressesOf } from '#adapters/dynamo/cambio-address-store';
import { hotWalletFloatItem } from '#adapters/dynamo/items/hot-wallet-float';
import { itemsUnder } from '#adapters/dynamo/queries';
import { SolanaRpcChain } from '#functions/networks/solana/rpc-chain';
import { LOAD_TEST_RATE_LIMITS, startLocalRuntime, type LocalRuntime, type LocalRuntimeOptions } from '#local/runtime';
import { LOCAL_SOLANA_HOT_WALLET } from '#local/solana-runtime';
import { startBanner } from '#local/start-banner';
import { runOpsCommand } from '../support/ops-commands.ts';
import { waitFor } from '../support/wait.ts';

describe('npm start on a machine without Java', () => {
  it('says what is missing and how to install it, and exits non-zero', () => {
    // A PATH with node and nothing else, so `java` cannot be found.
    const bin = mkdtempSync(join(tmpdir(), 'no-java-'));
    symlinkSync(process.execPath, join(bin, 'node'));
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'local/start.ts'], {
      env: { PATH: bin, PORT: '0', HOME: process.env.HOME ?? tmpdir() },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Java was not found');
    expect(result.stderr).toContain('openjdk-17');
  });
});

describe('npm start on a data folder whose cognito.json a kill -9 cut short', () => {
  it('stops, naming the file and what to do, and leaves the folder free for the next start', async () => {
    const workDir = mkdtempSync(join(tmpdir(), 'cambio-cognito-state-'));
    const dataDir = join(workDir, '.data');
    try {
      mkdirSync(dataDir);
      writeFileSync(join(dataDir, 'cognito.json'), '{"privateKeyPem":"-----BEGIN PRIVATE KEY-----\\nMIIEvQ');
      const start = startLocalRuntime({ dataDir, port: 0, dynamoEndpoint: inject('dynamoEndpoint'), tableName: `e2e-${randomUUID()}`, pollIntervalMs: 0, webhookIntervalMs: 0, screeningDefaults: false });

      await expect(start).rejects.toThrow(`${join(dataDir, 'cognito.json')} is unreadable`);
      await expect(start).rejects.toThrow('remove the whole data folder to start afresh');
      expect(existsSync(join(dataDir, 'runtime.lock'))).toBe(false);
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  }, 60_000);
});

/**
 * The local runtime with Solana open, as `npm start` opens it (local/solana-runtime.ts): its node
 * in the process, a slot every 400 ms, the chain kept in the data folder. The runtime keeps its
 * state file in a data folder of its own, so `npm run sandbox:pay`, run from beside it, finds the
 * node as it finds `npm start`'s. The chain jobs are off: the node, the banner and the payment are
 * what is shown here.
 */
describe('npm start with Solana open', () => {
  const workDir = mkdtempSync(join(tmpdir(), 'cambio-solana-runtime-'));
  const dataDir = join(workDir, '.data');
  const options = (): LocalRuntimeOptions => ({
    dataDir,
    port: 0,
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName,
    pollIntervalMs: 0,
    webhookIntervalMs: 0,
    ...LOAD_TEST_RATE_LIMITS,
    solana: true,
  });
  const tableName = `e2e-${randomUUID()}`;
  let runtime: LocalRuntime | undefined;
  const chain = () => new SolanaRpcChain({ rpcUrl: runtime!.solana!.rpcUrl!, rpcTimeoutMs: 5_000 });

  beforeAll(async () => {
    runtime = await startLocalRuntime(options());
  }, 60_000);
  afterAll(async () => {
    await runtime?.stop();
    rmSync(workDir, { recursive: true, force: true });
  });

  it("prints the node in the spec form, names it in SOLANA and runtime.json, and gives the hot wallet SOL and a float of USDT it records", async () => {
    const solana = runtime!.solana!;
    expect(startBanner(runtime!).split('\n').filter((line) => /^ {2}solana {10}http:\/\/127\.0\.0\.1:\d+ {2}USDT Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB$/.test(line))).toEqual([
      `  solana          ${solana.rpcUrl}  USDT ${solana.usdtMint}`,
    ]);
    expect(startBanner(runtime!)).toContain('--network <tron|solana>');
    // The issuer's one control on Solana's mint, beside the other networks' (sandbox:issuer takes it).
    expect(startBanner(runtime!)).toContain('npm run sandbox:issuer -- <freeze|unfreeze> --network solana --address <address>');
    expect(JSON.parse(process.env.SOLANA!)).toMatchObject({ rpcUrl: solana.rpcUrl, usdtMint: solana.usdtMint, confirmations: 32, sandbox: true, localHotWalletKey: expect.stringMatching(/^[0-9a-f]{128}$/) });
    expect(JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8')).solana).toEqual(solana);
    expect(await chain().feeBalance(LOCAL_SOLANA_HOT_WALLET)).toBe(100_000_000_000n);
    expect(await chain().tokenBalance(solana.usdtMint, LOCAL_SOLANA_HOT_WALLET)).toBe(1_000_000_000_000n);
    const db = createDocumentClient(runtime!.dynamoEndpoint);
    try {
      // Refused as a withdrawal's destination from the start, as the EVM hot wallets are.
      expect(await cambioAddressesOf(db, tableName).holdingsAt([LOCAL_SOLANA_HOT_WALLET])).toContainEqual(expect.objectContaining({ role: 'hot_wallet', network: 'solana' }));
      // Its float is Cambio's own USDT in the ledger, so reconcile balances.
      const floats = await itemsUnder(db, tableName, hotWalletFloatItem.ofNetwork('solana'));
      expect(floats.map(hotWalletFloatItem.fromItem)).toEqual([{ network: 'solana', txHash: expect.any(String), amount: 1_000_000_000_000n }]);
    } finally {
      db.destroy();
    }
    // Slots move on their own, every 400 ms.
    const slot = (await chain().latestBlock()).number;
    await waitFor(async () => (await chain().latestBlock()).number, (now) => now >= slot + 3, 5_000);
  });

  it('npm run sandbox:pay --network solana pays an owner from the customer wallet; the chain outlives a restart', async () => {
    const owner = (await generateKeyPairSigner()).address;
    const paid = await runOpsCommand('ops/sandbox-pay.ts', ['--network', 'solana', '--address', owner, '--amount', '5', '--json'], {}, workDir);
    expect(paid.stderr).toBe('');
    expect(paid.status).toBe(0);
    const { txHash } = JSON.parse(paid.stdout) as { txHash: string };
    expect(await chain().receipt(txHash)).toMatchObject({ result: 'SUCCESS', tokenTransfers: [{ to: owner, amount: 5_000_000n }] });

    // Closing the runtime closes the node and saves its chain; the next start goes on from it.
    const before = (await chain().latestBlock()).number;
    await runtime!.stop();
    runtime = undefined;
    expect(existsSync(join(dataDir, 'solana', 'chain.json'))).toBe(true);
    runtime = await startLocalRuntime(options());
    expect(await chain().tokenBalance(runtime.solana!.usdtMint, owner)).toBe(5_000_000n);
    expect((await chain().latestBlock()).number).toBeGreaterThan(before);
    // The float was given on the chain's first start only.
    expect(await chain().tokenBalance(runtime.solana!.usdtMint, LOCAL_SOLANA_HOT_WALLET)).toBe(1_000_000_000_000n);
  }, 60_000);
});
