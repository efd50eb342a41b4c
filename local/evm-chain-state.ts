import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Address, Hex } from 'viem';
import { rpc } from './anvil.ts';
import { writeAtomically } from './data-folder.ts';
import type { NetworkContracts } from './evm-contracts.ts';

/**
 * A local EVM node's chain kept under the data folder across `npm start` restarts
 * (../shared/networks.md, "Local chains survive a restart"), so that deposits, floats and nonces
 * still agree with the ledger kept beside it. Per network, in `<data>/evm/<network>/`:
 * - `state.json`: anvil's own state (anvil_dumpState: accounts, blocks, mined transactions and
 *   their receipts, the head), loaded at start with --load-state;
 * - `contracts.json`: what was deployed on the chain when it began (./evm-contracts.ts), which the
 *   stage's EVM_NETWORKS names: a restored chain has them already and deploys nothing.
 *
 * The state is taken over JSON-RPC and written to a temporary file renamed over the last, never in
 * place (anvil's own --state writes in place, and a kill -9 mid-write would leave half a file):
 * every few seconds when a block with a transaction was mined since (./evm-networks.ts), and at
 * stop. A kill -9 of `npm start` loses at most the last seconds of the chain; the nonce resume
 * (./evm-nonce-resume.ts) then broadcasts again what the ledger holds and the chain lost.
 *
 * anvil keeps every block, about 1.7 KB even empty, and at a block a second the state would grow
 * by ~140 MB a day, rewritten whole at each save. The empty blocks are what the saved state leaves
 * out, but for the last KEPT_RECENT_BLOCKS: what it keeps grows with the transactions, not with
 * time. An empty block older than those reads as absent (eth_getBlockByNumber: null); nothing
 * Cambio reads goes back that far (the scanner re-reads to its finality depth).
 */

/** Recent blocks kept whether or not they hold a transaction: past any finality depth, and past
 * the scanner's widest read (maxBlockRange, ./evm-networks.ts). */
const KEPT_RECENT_BLOCKS = 1_100;

const STATE_FILE = 'state.json';
const CONTRACTS_FILE = 'contracts.json';

/** Where a network's chain is kept under a data folder. */
export const chainDirOf = (dataDir: string, network: string): string => join(dataDir, 'evm', network);

/** What was deployed when the chain began, as ./evm-networks.ts turns it into the network's settings:
 * the contracts as ./evm-contracts.ts deployed them, the accounts by address. */
export type SavedContracts = Pick<NetworkContracts, 'usdt' | 'usdtDecimals' | 'usdtToken' | 'tokenControls' | 'factory' | 'implementation'> & {
  chainId: number;
  /** The factory's owner: the stage's hot wallet when the chain began. */
  hotWallet: Address;
  /** The hot wallet's float (./evm-contracts.ts), recorded in the ledger. */
  floatTxHash: Hex;
};

/** A saved chain that cannot be gone on from: `npm start` stops and says why and what to remove
 * (it does not start that chain afresh on its own: the ledger kept beside it would then disagree
 * with the chain, which is what keeping it is for). */
export class SavedChainUnusable extends Error {
  constructor(network: string, dir: string, why: string) {
    super(
      `The ${network} chain saved in ${dir}/ cannot be used: ${why}.\n` +
        `Remove ${dir}/ to start that chain afresh (the ledger in the data folder then no longer agrees with it: npm run reconcile reports the difference), ` +
        `or remove the whole data folder to start everything afresh.`,
    );
  }
}

export interface SavedChain {
  stateFile: string;
  contracts: SavedContracts;
  /** The head when it was saved. */
  head: number;
}

/**
 * The chain saved in `dir`, or null when none was (a first start, or a data folder from before
 * chains were kept: contracts.json is written only once the chain's first state is saved).
 * SavedChainUnusable when its files cannot be read, or were saved for another chain id or hot wallet.
 */
export function savedChainIn(network: string, dir: string, expected: { chainId: number; hotWallet: Address }): SavedChain | null {
  const contractsFile = join(dir, CONTRACTS_FILE);
  const stateFile = join(dir, STATE_FILE);
  if (!existsSync(contractsFile)) return null;
  let contracts: SavedContracts;
  try {
    contracts = JSON.parse(readFileSync(contractsFile, 'utf8')) as SavedContracts;
  } catch (error) {
    throw new SavedChainUnusable(network, dir, `${CONTRACTS_FILE} is unreadable (${(error as Error).message})`);
  }
  for (const field of ['usdt', 'factory', 'implementation', 'hotWallet', 'floatTxHash'] as const) {
    if (typeof contracts?.[field] !== 'string' || !/^0x[0-9a-fA-F]+$/.test(contracts[field])) throw new SavedChainUnusable(network, dir, `${CONTRACTS_FILE} has no ${field}`);
  }
  if (contracts.chainId !== expected.chainId) throw new SavedChainUnusable(network, dir, `it was saved for chain id ${String(contracts.chainId)}, and ${network}'s is ${expected.chainId}`);
  if (contracts.hotWallet.toLowerCase() !== expected.hotWallet.toLowerCase()) {
    throw new SavedChainUnusable(network, dir, `its forwarder factory belongs to the hot wallet ${contracts.hotWallet}, and the stage's hot wallet is ${expected.hotWallet}`);
  }
  if (!existsSync(stateFile)) throw new SavedChainUnusable(network, dir, `${STATE_FILE} is missing`);
  let head: unknown;
  try {
    const state = JSON.parse(readFileSync(stateFile, 'utf8')) as { best_block_number?: unknown; accounts?: unknown; blocks?: unknown };
    if (typeof state.accounts !== 'object' || state.accounts === null || !Array.isArray(state.blocks)) throw new Error('not an anvil state');
    head = Number(state.best_block_number);
  } catch (error) {
    throw new SavedChainUnusable(network, dir, `${STATE_FILE} is unreadable (${(error as Error).message})`);
  }
  if (!Number.isSafeInteger(head)) throw new SavedChainUnusable(network, dir, `${STATE_FILE} names no head block`);
  return { stateFile, contracts, head: head as number };
}

/** After a restored node answers: the contracts it was saved with are on it, else SavedChainUnusable. */
export async function expectContractsOn(url: string, network: string, dir: string, contracts: SavedContracts): Promise<void> {
  for (const [what, address] of [
    ['USDT contract', contracts.usdt],
    ['forwarder factory', contracts.factory],
    ['forwarder implementation', contracts.implementation],
  ] as const) {
    const code = (await rpc(url, 'eth_getCode', [address, 'latest'])) as string;
    if (!code || code === '0x') throw new SavedChainUnusable(network, dir, `its ${what} ${address} is not on the chain ${STATE_FILE} holds`);
  }
}

export function saveContracts(dir: string, contracts: SavedContracts): void {
  writeAtomically(join(dir, CONTRACTS_FILE), `${JSON.stringify(contracts, null, 2)}\n`);
}

/** Takes the node's state and writes it over the last saved; resolves with the head it holds. */
export async function saveChainState(url: string, dir: string): Promise<number> {
  const dump = (await rpc(url, 'anvil_dumpState', [])) as string;
  const bytes = Buffer.from(dump.replace(/^0x/, ''), 'hex');
  // gzip's magic number: anvil compresses what it answers.
  const json = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
  const { text, head } = withoutOldEmptyBlocks(json);
  writeAtomically(join(dir, STATE_FILE), text);
  return head;
}

/** The state without the empty blocks older than KEPT_RECENT_BLOCKS (the genesis block kept). */
function withoutOldEmptyBlocks(json: string): { text: string; head: number } {
  const state = JSON.parse(json) as { best_block_number: number | string; blocks: { header: { number: string }; transactions: unknown[] }[] };
  const head = Number(state.best_block_number);
  // A number past what JavaScript reads exactly would not be written back as anvil wrote it: the
  // state is then kept whole (none is expected: anvil writes amounts and hashes as hex strings).
  if (/[:[,]\s*-?\d{16,}/.test(json)) return { text: json, head };
  state.blocks = state.blocks.filter((block) => {
    const number = Number(block.header.number);
    return number === 0 || number > head - KEPT_RECENT_BLOCKS || block.transactions.length > 0;
  });
  return { text: JSON.stringify(state), head };
}

/** The saves of one node while it runs. */
export interface ChainKeeper {
  /** Saves now (after a change no block shows, as an anvil_setNonce). */
  save(): Promise<void>;
  /** Saves a last time and stops saving; the node may then be stopped. */
  stop(): Promise<void>;
}

/** Past this many blocks since the last save, the chain is saved even if none held a transaction:
 * its head and time move on little by little after a kill -9 too. */
const SAVE_AFTER_EMPTY_BLOCKS = 50;

/**
 * Saves the node's state every `everyMs` when a block mined since the last save holds a transaction
 * (or SAVE_AFTER_EMPTY_BLOCKS passed), one save at a time, and once more at stop. A save that fails
 * is logged and tried again at the next turn.
 */
export function keepChainSaved(url: string, dir: string, { everyMs, savedHead }: { everyMs: number; savedHead: number }): ChainKeeper {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  // Every save in turn: two would race to rename their files, and the older could land last.
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const done = queue.then(work);
    queue = done.catch(() => undefined);
    return done;
  };
  const saveNow = async () => {
    savedHead = await saveChainState(url, dir);
  };
  const changedSinceSave = async (): Promise<boolean> => {
    const head = Number(await rpc(url, 'eth_blockNumber', []));
    if (head <= savedHead) return false;
    if (head - savedHead >= SAVE_AFTER_EMPTY_BLOCKS) return true;
    for (let number = savedHead + 1; number <= head; number++) {
      if (Number(await rpc(url, 'eth_getBlockTransactionCountByNumber', [`0x${number.toString(16)}`])) > 0) return true;
    }
    return false;
  };
  const turn = async () => {
    try {
      if (!stopped && (await changedSinceSave())) await saveNow();
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', message: `saving the chain in ${dir} failed; tried again in ${everyMs} ms`, error: String(error) }));
    }
  };
  const schedule = () => {
    if (!stopped) timer = setTimeout(() => void inTurn(turn).then(schedule), everyMs);
  };
  schedule();
  return {
    save: () => inTurn(saveNow),
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await inTurn(async () => {
        try {
          await saveNow();
        } catch (error) {
          console.error(JSON.stringify({ level: 'error', message: `saving the chain in ${dir} at stop failed: the last save stands`, error: String(error) }));
        }
      });
    },
  };
}
