import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { freePort } from '#local/dynamodb-local';
import { deployNetworkContracts, type NetworkContracts } from '#local/evm-contracts';

/**
 * A real EVM node for a test file: anvil from npm (@foundry-rs/anvil), one process per call, on a
 * free port with the network's chain id. Start it once per file (about 100 ms) and deploy the
 * contracts with deployNetworkContracts.
 */
export interface Anvil {
  url: string;
  chainId: number;
  stop(): Promise<void>;
}

/**
 * The platform package's binary itself rather than node_modules/.bin/anvil, a Node wrapper that
 * spawns it: one process less to start, and no wrapper between the signal we send and the node.
 */
function anvilBinary(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const binary = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  try {
    return createRequire(import.meta.url).resolve(`@foundry-rs/anvil-${process.platform}-${arch}/bin/${binary}`);
  } catch {
    return fileURLToPath(new URL('../../node_modules/.bin/anvil', import.meta.url));
  }
}

/**
 * Anvil under a watchdog shell, as local/dynamodb-local.ts runs Java: the shell holds the read end
 * of a pipe whose write end only this process holds, so when this process ends, however it ends
 * (a SIGKILLed test worker runs no cleanup), the read returns and the shell stops anvil.
 */
const STOP_WITH_PARENT = [
  'exec 3<&0',
  '"$@" </dev/null & anvil_pid=$!',
  '(read _ <&3; kill "$anvil_pid" 2>/dev/null) & watchdog_pid=$!',
  'exec 3<&-',
  'wait "$anvil_pid"; status=$?',
  'kill "$watchdog_pid" 2>/dev/null',
  'exit "$status"',
].join('\n');

async function answersChainId(url: string): Promise<number | null> {
  try {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) });
    const { result } = (await response.json()) as { result?: string };
    return result ? Number(result) : null;
  } catch {
    return null;
  }
}

/** Starts anvil and resolves once it answers eth_chainId. `blockTime` in seconds; without it, each transaction is mined as it arrives. */
export async function startAnvil({ chainId, blockTime }: { chainId: number; blockTime?: number }): Promise<Anvil> {
  const port = await freePort();
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--silent', ...(blockTime ? ['--block-time', String(blockTime)] : [])];
  const child = spawn('sh', ['-c', STOP_WITH_PARENT, 'anvil', anvilBinary(), ...args], { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.stdin?.end();
    await exited;
  };

  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited with code ${child.exitCode}: ${stderr.trim()}`);
    const answered = await answersChainId(url);
    if (answered === chainId) break;
    if (answered !== null) {
      await stop();
      throw new Error(`${url} answers chain id ${answered}, not ${chainId}: another node took the port`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`anvil did not answer on ${url} within 15 s: ${stderr.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url, chainId, stop };
}

/** A node with the network's contracts deployed: the usual start of an EVM test file. */
export async function startAnvilWithContracts(options: { chainId: number; usdtDecimals: number; blockTime?: number }): Promise<Anvil & NetworkContracts> {
  const anvil = await startAnvil(options);
  try {
    return { ...anvil, ...(await deployNetworkContracts(anvil.url, { usdtDecimals: options.usdtDecimals })) };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
