import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesToHex, createPublicClient, getAddress, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DepositForwarderFactory } from '#functions/networks/evm/contracts';
import { depositForwarderAddress, depositSalt, forwarderImplementationAddress } from '#functions/networks/evm/forwarder-address';
import { anvilAccount } from '#local/evm-contracts';
import { startAnvil, type Anvil } from '../support/anvil.ts';
import { runOpsCommand } from '../support/ops-commands.ts';

/**
 * `npm run evm:deploy-factory` (ops/evm-deploy-factory.ts) as an operator runs it, in a process of
 * its own, against a real anvil answering Polygon's chain id: the factory it prints is owned by the
 * hot wallet named, has the factory's code, and gives the deposit addresses Cambio computes
 * offline; a node of another chain is refused unless its id is confirmed; the deployer's key is
 * read from the environment or a file, never an argument, and never printed.
 */
let node: Anvil;
const folder = mkdtempSync(join(tmpdir(), 'cambio-deploy-factory-'));
const DEPLOYER_KEY = bytesToHex(anvilAccount.deployer().getHdKey().privateKey!);
/** A fresh address: no account of the node's owns the factory by accident. */
const owner = privateKeyToAccount(generatePrivateKey()).address;
beforeAll(async () => (node = await startAnvil({ chainId: 137 })));
afterAll(async () => {
  await node?.stop();
  rmSync(folder, { recursive: true, force: true });
});

const client = () => createPublicClient({ transport: http(node.url) });
const deployerNonce = () => client().getTransactionCount({ address: anvilAccount.deployer().address });
const deploy = (args: string[], env: Record<string, string> = { EVM_DEPLOYER_KEY: DEPLOYER_KEY }) =>
  runOpsCommand('ops/evm-deploy-factory.ts', ['--rpc-url', node.url, ...args], { EVM_DEPLOYER_KEY: '', EVM_DEPLOYER_KEY_FILE: '', ...env });
/** Each run is a process of its own (tsx, viem): seconds apiece on a loaded machine. */
const RUNS_TIMEOUT_MS = 180_000;
const printed = (stdout: string, name: string) => getAddress(stdout.match(new RegExp(`"${name}": "(0x[0-9a-fA-F]{40})"`))![1]!);

describe('npm run evm:deploy-factory', () => {
  it.each([
    ['EVM_DEPLOYER_KEY', () => ({ EVM_DEPLOYER_KEY: DEPLOYER_KEY })],
    ['EVM_DEPLOYER_KEY_FILE', () => (writeFileSync(join(folder, 'deployer.key'), `${DEPLOYER_KEY}\n`, { mode: 0o600 }), { EVM_DEPLOYER_KEY_FILE: join(folder, 'deployer.key') })],
  ])('deploys a factory owned by the hot wallet, with the key from %s, and prints the addresses for EVM_NETWORKS', async (_, env) => {
    const run = await deploy(['--network', 'polygon', '--owner', owner.toLowerCase()], env());
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const factory = printed(run.stdout, 'forwarderFactory');
    const implementation = printed(run.stdout, 'forwarderImplementation');
    expect(await client().readContract({ address: factory, abi: DepositForwarderFactory.abi, functionName: 'owner' })).toBe(owner);
    // The implementation printed is the factory's, deployed, and the one deposit addresses are
    // computed from, offline as on chain.
    expect(await client().readContract({ address: factory, abi: DepositForwarderFactory.abi, functionName: 'implementation' })).toBe(implementation);
    expect(implementation).toBe(forwarderImplementationAddress(factory));
    expect(await client().getCode({ address: implementation })).toMatch(/^0x[0-9a-f]{100,}$/);
    const salt = depositSalt('dep_01JDEPLOYFACTORYTEST0000000');
    expect(await client().readContract({ address: factory, abi: DepositForwarderFactory.abi, functionName: 'predictAddress', args: [salt] })).toBe(
      depositForwarderAddress({ factory, implementation, salt }),
    );
    expect(run.stdout).not.toContain(DEPLOYER_KEY.slice(2));
  }, RUNS_TIMEOUT_MS);

  it("refuses a node whose chain id is not the network's, sending nothing, unless that id is confirmed", async () => {
    const before = await deployerNonce();
    const refused = await deploy(['--network', 'ethereum', '--owner', owner]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("The node answers chain id 137, not ethereum's 1: pass --chain-id 137");
    const wrongConfirmation = await deploy(['--network', 'ethereum', '--owner', owner, '--chain-id', '11155111']);
    expect(wrongConfirmation.status).toBe(2);
    expect(wrongConfirmation.stderr).toContain('not the --chain-id 11155111 confirmed');
    expect(await deployerNonce()).toBe(before);

    const confirmed = await deploy(['--network', 'ethereum', '--owner', owner, '--chain-id', '137']);
    expect(confirmed.status).toBe(0);
    expect(await client().readContract({ address: printed(confirmed.stdout, 'forwarderFactory'), abi: DepositForwarderFactory.abi, functionName: 'owner' })).toBe(owner);
  }, RUNS_TIMEOUT_MS);

  it('takes the deployer key from the environment or a file only, and refuses bad usage before sending anything', async () => {
    const before = await deployerNonce();
    const asArgument = await deploy(['--network', 'polygon', '--owner', owner, '--deployer-key', DEPLOYER_KEY], {});
    expect(asArgument.status).toBe(2);
    const noKey = await deploy(['--network', 'polygon', '--owner', owner], {});
    expect(noKey.status).toBe(2);
    expect(noKey.stderr).toContain('EVM_DEPLOYER_KEY or EVM_DEPLOYER_KEY_FILE');
    const noOwner = await deploy(['--network', 'polygon']);
    expect(noOwner.status).toBe(2);
    expect(noOwner.stderr).toContain('--owner or --owner-kms-key');
    for (const run of [asArgument, noKey, noOwner]) expect(`${run.stdout}${run.stderr}`).not.toContain(DEPLOYER_KEY.slice(2));
    expect(await deployerNonce()).toBe(before);
  }, RUNS_TIMEOUT_MS);
});
