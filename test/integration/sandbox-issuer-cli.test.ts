import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TetherUsdt } from '#functions/networks/evm/usdt-contracts';
import { localPublicClient } from '#local/evm-contracts';
import type { RunningRuntime } from '#local/runtime-files';
import { anvilNetworkSettings, startAnvilWithContracts } from '../support/anvil.ts';
import { runOpsCommand } from '../support/ops-commands.ts';

/**
 * `npm run sandbox:issuer` (ops/sandbox-issuer.ts) as an operator runs it: bad usage is refused with
 * what the command takes and exit 2, before anything is touched; bsc's token, which has no issuer
 * controls, is refused the same way; and against a running local runtime's ethereum node (its
 * .data/runtime.json, as `npm start` keeps it, in a folder of its own) a freeze, a refused fee and a
 * deprecation are sent as the issuer.
 */
type Node = Awaited<ReturnType<typeof startAnvilWithContracts>>;
let node: Node;
const workDir = mkdtempSync(join(tmpdir(), 'cambio-sandbox-issuer-'));
const idleDir = mkdtempSync(join(tmpdir(), 'cambio-sandbox-issuer-idle-'));
const STRANGER = '0x52908400098527886E0F7030069857D2E4169EE7';

beforeAll(async () => {
  node = await startAnvilWithContracts({ chainId: 1, usdtDecimals: 6 });
  // The state file `npm start` writes while up: this process stands in for it (its pid is alive).
  mkdirSync(join(workDir, '.data'));
  const running: RunningRuntime = {
    pid: process.pid,
    dynamoEndpoint: 'http://127.0.0.1:9',
    tableName: 'unused',
    apiUrl: 'http://127.0.0.1:9',
    evmNetworks: { ethereum: anvilNetworkSettings(node, { chainId: 1, confirmations: 1 }) },
  };
  writeFileSync(join(workDir, '.data', 'runtime.json'), JSON.stringify(running));
}, 60_000);

afterAll(async () => {
  await node?.stop();
  rmSync(workDir, { recursive: true, force: true });
  rmSync(idleDir, { recursive: true, force: true });
});

const issuerCommand = (args: string[], cwd = workDir) => runOpsCommand('ops/sandbox-issuer.ts', args, {}, cwd);
const isBlackListed = (address: Address) => localPublicClient(node.chain).readContract({ address: node.usdt, abi: TetherUsdt.abi, functionName: 'isBlackListed', args: [address] });

describe('npm run sandbox:issuer refuses bad usage with exit 2 and what it takes', () => {
  it.each([
    ['no action', [], /No action given/],
    ['an unknown action', ['mint', '--network', 'ethereum'], /Unknown action "mint"/],
    ['no --network', ['pause'], /--network is required/],
    ['an unknown network', ['pause', '--network', 'dogecoin'], /Unknown network "dogecoin"/],
    ['a pause on solana, whose USDT has no pause', ['pause', '--network', 'solana'], /Solana's USDT \(an SPL Token mint\) has no pause/],
    ['an unknown option', ['pause', '--network', 'ethereum', '--force'], /Unknown option '--force'/],
    ['freeze without --address', ['freeze', '--network', 'ethereum'], /--address must be an? Ethereum address/],
    ['a TRON address on ethereum', ['freeze', '--network', 'ethereum', '--address', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'], /--address must be/],
    ['an option of another action', ['pause', '--network', 'ethereum', '--address', STRANGER], /pause takes no --address/],
    ['fee without --basis-points', ['fee', '--network', 'ethereum'], /--basis-points must be a whole number from 0 to 20/],
    ['fee above 20 basis points', ['fee', '--network', 'ethereum', '--basis-points', '21'], /--basis-points must be a whole number from 0 to 20/],
    ['a maximum fee that is not an amount', ['fee', '--network', 'ethereum', '--basis-points', '10', '--max-fee', 'ten'], /--max-fee must be/],
    ['bsc, whose USDT has no issuer controls', ['freeze', '--network', 'bsc', '--address', STRANGER], /BNB Smart Chain's USDT \(BEP20USDT\) has no issuer controls/],
  ])('%s', async (_case, args, message) => {
    const { status, stderr, stdout } = await issuerCommand(args as string[], idleDir);

    expect(status).toBe(2);
    expect(stderr).toMatch(message);
    expect(stdout).toBe('');
  });

  it('an EVM network while no local runtime runs: says to start it, exit 2', async () => {
    const { status, stderr } = await issuerCommand(['pause', '--network', 'ethereum'], idleDir);

    expect(status).toBe(2);
    expect(stderr).toContain('runs only while the local runtime does: start it with npm start');
  });
});

describe('npm run sandbox:issuer against a running ethereum node', () => {
  it('freeze sends the issuer\'s addBlackList: the token then says the address is frozen; unfreeze lifts it', async () => {
    const frozen = await issuerCommand(['freeze', '--network', 'ethereum', '--address', STRANGER]);

    expect(frozen.stderr).toBe('');
    expect(frozen.status).toBe(0);
    expect(frozen.stdout).toContain(`Froze ${STRANGER} on ethereum`);
    expect(await isBlackListed(STRANGER)).toBe(true);

    const unfrozen = await issuerCommand(['unfreeze', '--network', 'ethereum', '--address', STRANGER, '--json']);

    expect(unfrozen.status).toBe(0);
    expect(JSON.parse(unfrozen.stdout)).toEqual({ network: 'ethereum', unfrozen: STRANGER });
    expect(await isBlackListed(STRANGER)).toBe(false);
  });

  it("a fee Tether's setParams would not take (20 basis points, or a fractional maximum) is refused with exit 2, nothing sent", async () => {
    for (const args of [
      ['--basis-points', '20'],
      ['--basis-points', '5', '--max-fee', '1.5'],
    ]) {
      const { status, stderr } = await issuerCommand(['fee', '--network', 'ethereum', ...args]);
      expect(status, args.join(' ')).toBe(2);
      expect(stderr).toMatch(/^Not done: .*TetherToken's setParams/);
    }
    expect(await localPublicClient(node.chain).readContract({ address: node.usdt, abi: TetherUsdt.abi, functionName: 'basisPointsRate' })).toBe(0n);
  });

  it('deprecate --json prints the upgraded contract the old one now forwards to', async () => {
    const { status, stdout } = await issuerCommand(['deprecate', '--network', 'ethereum', '--json']);

    expect(status).toBe(0);
    const { upgradedContract } = JSON.parse(stdout) as { upgradedContract: Address };
    expect(upgradedContract).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const client = localPublicClient(node.chain);
    expect(await client.readContract({ address: node.usdt, abi: TetherUsdt.abi, functionName: 'upgradedAddress' })).toBe(upgradedContract);
    expect(await client.readContract({ address: node.usdt, abi: TetherUsdt.abi, functionName: 'deprecated' })).toBe(true);
  });
});
