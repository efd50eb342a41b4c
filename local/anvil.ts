import { createRequire } from 'node:module';
import type { LocalAccount } from 'viem';
import { fileURLToPath } from 'node:url';
import { startEngineProcess } from './child-process.ts';
import { freePort } from './dynamodb-local.ts';
import { deployNetworkContracts, type LocalUsdtToken, type NetworkContracts } from './evm-contracts.ts';

/**
 * A real EVM node on this machine: anvil from npm (@foundry-rs/anvil), one process per call, on a
 * free port with the network's chain id, dying with the process that started it. `npm start` runs
 * one per EVM network (./evm-networks.ts); a test file starts its own (about 100 ms).
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
    return fileURLToPath(new URL('../node_modules/.bin/anvil', import.meta.url));
  }
}

export async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const { result, error } = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (error) throw new Error(`${method}: ${error.message}`);
  return result;
}

async function answersChainId(url: string): Promise<number | null> {
  try {
    const result = await rpc(url, 'eth_chainId', []);
    return result ? Number(result) : null;
  } catch {
    return null;
  }
}

/**
 * Starts anvil and resolves once it answers eth_chainId. `blockTime` in seconds; without it, each
 * transaction is mined as it arrives. `loadState`: a state file anvil saved (anvil_dumpState, as
 * ./evm-chain-state.ts keeps it) to go on from: its accounts, blocks and head. `ownProcessGroup`:
 * out of the terminal's reach (./child-process.ts), for a node whose state is saved at stop.
 */
export async function startAnvil({ chainId, blockTime, loadState, ownProcessGroup }: { chainId: number; blockTime?: number; loadState?: string; ownProcessGroup?: boolean }): Promise<Anvil> {
  const port = await freePort();
  const args = [
    ...['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--silent'],
    ...(blockTime ? ['--block-time', String(blockTime)] : []),
    ...(loadState ? ['--load-state', loadState] : []),
  ];
  const engine = startEngineProcess('anvil', anvilBinary(), args, undefined, { ownProcessGroup });
  const url = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + 15_000;
  for (;;) {
    if (engine.exitCode() !== null) throw new Error(`anvil exited with code ${engine.exitCode()}: ${engine.stderr()}`);
    const answered = await answersChainId(url);
    if (answered === chainId) break;
    if (answered !== null) {
      await engine.stop();
      throw new Error(`${url} answers chain id ${answered}, not ${chainId}: another node took the port`);
    }
    if (Date.now() > deadline) {
      await engine.stop();
      throw new Error(`anvil did not answer on ${url} within 15 s: ${engine.stderr()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url, chainId, stop: engine.stop };
}

/**
 * A node with the network's contracts deployed. With `blockTime`, the node mines each of the
 * deployment's transactions as it arrives and only then turns to a block every `blockTime`
 * seconds (evm_setIntervalMining, what --block-time sets at start): three transactions would
 * otherwise wait for three blocks.
 */
export async function startAnvilWithContracts(options: {
  chainId: number;
  usdtDecimals: number;
  /** Absent: the token of the network with this chain id (./evm-contracts.ts localUsdtTokenOf). */
  usdtToken?: LocalUsdtToken;
  blockTime?: number;
  hotWallet?: LocalAccount;
  ownProcessGroup?: boolean;
}): Promise<Anvil & NetworkContracts> {
  const anvil = await startAnvil({ chainId: options.chainId, ownProcessGroup: options.ownProcessGroup });
  try {
    const contracts = await deployNetworkContracts(anvil.url, { usdtDecimals: options.usdtDecimals, usdtToken: options.usdtToken, hotWallet: options.hotWallet });
    if (options.blockTime) await rpc(anvil.url, 'evm_setIntervalMining', [options.blockTime]);
    return { ...anvil, ...contracts };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
