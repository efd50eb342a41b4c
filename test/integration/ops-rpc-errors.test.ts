import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesToHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anvilAccount } from '#local/evm-contracts';
import { useFreshTable } from '../support/dynamo.ts';
import { runOpsCommand } from '../support/ops-commands.ts';

/**
 * An operator command whose node fails (a provider's 429 or 500), as an operator meets it: the
 * failure is named, the provider's key in its URL never printed. Hosted nodes carry the key in the
 * URL's path (Alchemy's /v2/<key>, Infura's /v3/<key>) or query, and viem's errors print the URL.
 * The node here is a local HTTP server answering every request with the status under test.
 */
const table = useFreshTable();
const folder = mkdtempSync(join(tmpdir(), 'cambio-ops-rpc-errors-'));
let node: { url: string; status: number; close: () => Promise<void> };

beforeAll(async () => {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(node.status, { 'Content-Type': 'text/plain' }).end(node.status === 429 ? 'Too Many Requests' : 'upstream failed'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  node = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, status: 429, close: () => new Promise((resolve) => server.close(() => resolve())) };
});
afterAll(async () => {
  await node?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** A provider's URL for the stub, its key where a provider puts one. */
const KEYED_URLS = [
  ['its path (Alchemy)', 429, (key: string) => `/v2/${key}`],
  ['its query', 500, (key: string) => `/rpc?apikey=${key}`],
] as const;

/** The local runtime float:record reads: .data/runtime.json in the folder it runs from, saying this
 * process is `npm start` and its polygon node is at `rpcUrl`. */
function runtimeWithPolygonAt(rpcUrl: string): string {
  const cwd = mkdtempSync(join(folder, 'runtime-'));
  mkdirSync(join(cwd, '.data'));
  // As local/runtime-files.ts RunningRuntime has it.
  const running = {
    pid: process.pid,
    dynamoEndpoint: table.endpoint,
    tableName: table.tableName,
    apiUrl: 'http://127.0.0.1:1',
    evmNetworks: {
      polygon: {
        chainId: 137,
        rpcUrl,
        usdtContract: privateKeyToAccount(generatePrivateKey()).address,
        forwarderFactory: privateKeyToAccount(generatePrivateKey()).address,
        forwarderImplementation: privateKeyToAccount(generatePrivateKey()).address,
        finalizedTag: false,
        confirmations: 1,
      },
    },
  };
  writeFileSync(join(cwd, '.data', 'runtime.json'), JSON.stringify(running));
  return cwd;
}

describe("a command whose node fails prints the failure, not the provider's key", () => {
  it.each(KEYED_URLS)('float:record, its key in %s', async (_where, status, keyed) => {
    node.status = status;
    const key = randomBytes(16).toString('hex');
    const cwd = runtimeWithPolygonAt(`${node.url}${keyed(key)}`);

    const run = await runOpsCommand('ops/float-record.ts', ['--network', 'polygon', '--tx', `0x${'ab'.repeat(32)}`], {}, cwd);

    expect(run.status).toBe(1);
    expect(run.stderr).not.toContain(key);
    expect(run.stderr).toContain('float:record failed: HTTP request failed.');
    expect(run.stderr).toContain(`Node: ${new URL(node.url).host}, HTTP ${status}.`);
  }, 60_000);

  it.each(KEYED_URLS)('evm:deploy-factory, its key in %s', async (_where, status, keyed) => {
    node.status = status;
    const key = randomBytes(16).toString('hex');
    const deployerKey = bytesToHex(anvilAccount.deployer().getHdKey().privateKey!);

    const run = await runOpsCommand('ops/evm-deploy-factory.ts', ['--network', 'polygon', '--rpc-url', `${node.url}${keyed(key)}`, '--owner', privateKeyToAccount(generatePrivateKey()).address], {
      EVM_DEPLOYER_KEY: deployerKey,
      EVM_DEPLOYER_KEY_FILE: '',
    });

    expect(run.status).toBe(1);
    expect(run.stderr).not.toContain(key);
    expect(run.stderr).toContain('HTTP request failed.');
    expect(run.stderr).toContain(`HTTP ${status}`);
  }, 60_000);
});
