import { existsSync, readFileSync } from 'node:fs';
import { writeAtomically } from './data-folder.ts';
import type { ChainLog, SavedAccounts, SolanaChain } from './solana-chain.ts';

/**
 * The local Solana chain kept in one file across restarts, as the EVM nodes' are
 * (../shared/networks.md, "Local chains survive a restart"; ./evm-chain-state.ts), so that
 * deposits, floats and payouts still agree with the ledger kept beside it. The file holds
 * every account the chain has written as it is now (litesvm 1.4, the release whose every platform's
 * binary the registry serves, has no serialisation of its own; its default programs and sysvars come
 * with any new one), the chain's log (./solana-chain.ts: slot, blocks with their transactions, by
 * which a transaction landed before a restart is refused after it) and the accounts the chain began
 * with.
 *
 * Written to a temporary file renamed over the last, never in place: a kill -9 mid-write leaves
 * the previous file whole. Saved every few seconds while a transaction landed since, or the slot
 * moved SAVE_AFTER_EMPTY_SLOTS, and at close.
 */

const FORMAT = 'cambio-local-solana/2';

/** Past this many slots since the last save, the chain is saved even if no transaction landed:
 * its slot moves on little by little after a kill -9 too. */
const SAVE_AFTER_EMPTY_SLOTS = 50;

/** The accounts the chain began with, by address: what a start expects to find in it. */
export interface SavedGenesis {
  mint: string;
  issuer: string;
  customer: string;
  faucet: string;
}

export interface SavedSolanaChain {
  genesis: SavedGenesis;
  accounts: SavedAccounts;
  log: ChainLog;
}

/** A saved chain that cannot be gone on from: the start stops and says why and what to remove
 * (rather than begin afresh on its own, and leave the ledger beside it disagreeing with the chain). */
export class SavedSolanaChainUnusable extends Error {
  constructor(file: string, why: string) {
    super(
      `The Solana chain saved in ${file} cannot be used: ${why}.\n` +
        `Remove ${file} to start that chain afresh (the ledger in the data folder then no longer agrees with it: npm run reconcile reports the difference), ` +
        `or remove the whole data folder to start everything afresh.`,
    );
  }
}

/** The chain saved in `file`, or null when there is none (a first start). */
export function readSavedSolanaChain(file: string, expected: SavedGenesis): SavedSolanaChain | null {
  if (!existsSync(file)) return null;
  let saved: { format?: unknown; genesis?: SavedGenesis; accounts?: unknown; log?: ChainLog };
  try {
    saved = JSON.parse(readFileSync(file, 'utf8'), reviveBigInts) as typeof saved;
  } catch (error) {
    throw new SavedSolanaChainUnusable(file, `it is unreadable (${(error as Error).message})`);
  }
  if (saved.format !== FORMAT) throw new SavedSolanaChainUnusable(file, `it is not a ${FORMAT} file`);
  if (typeof saved.accounts !== 'object' || saved.accounts === null || !saved.log || !Number.isSafeInteger(saved.log.slot) || !Array.isArray(saved.log.blocks)) {
    throw new SavedSolanaChainUnusable(file, 'it holds no chain state');
  }
  for (const role of ['mint', 'issuer', 'customer', 'faucet'] as const) {
    if (saved.genesis?.[role] !== expected[role]) throw new SavedSolanaChainUnusable(file, `its ${role} is ${String(saved.genesis?.[role])}, and this node's is ${expected[role]}`);
  }
  return { genesis: saved.genesis!, accounts: saved.accounts as SavedAccounts, log: saved.log };
}

export function writeSavedSolanaChain(file: string, chain: SavedSolanaChain): void {
  const text = JSON.stringify({ format: FORMAT, genesis: chain.genesis, log: chain.log, accounts: chain.accounts }, replaceBigInts);
  writeAtomically(file, text);
}

/** The saves of one chain while it runs. */
export interface SolanaChainKeeper {
  /** Saves now. */
  save(): void;
  /** Saves a last time and stops saving. */
  stop(): void;
}

export function keepSolanaChainSaved(file: string, chain: SolanaChain, { everyMs, genesis }: { everyMs: number; genesis: SavedGenesis }): SolanaChainKeeper {
  let saved = { revision: -1, slot: -1 };
  const save = () => {
    const { accounts, log } = chain.snapshot();
    writeSavedSolanaChain(file, { genesis, accounts, log });
    saved = { revision: chain.revision, slot: chain.latestSlot };
  };
  const changedSinceSave = () => chain.revision !== saved.revision || chain.latestSlot - saved.slot >= SAVE_AFTER_EMPTY_SLOTS;
  const timer = setInterval(() => {
    if (!changedSinceSave()) return;
    try {
      save();
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', message: `saving the Solana chain in ${file} failed; tried again in ${everyMs} ms`, error: String(error) }));
    }
  }, everyMs);
  // The node's HTTP server is what keeps a process running; this timer only follows it.
  timer.unref();
  save();
  return {
    save,
    stop: () => {
      clearInterval(timer);
      try {
        save();
      } catch (error) {
        console.error(JSON.stringify({ level: 'error', message: `saving the Solana chain in ${file} at close failed: the last save stands`, error: String(error) }));
      }
    },
  };
}

/** The log's amounts are bigint; JSON has no such type, so each is written as {"$bigint": "…"}. */
function replaceBigInts(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? { $bigint: value.toString() } : value;
}

function reviveBigInts(_key: string, value: unknown): unknown {
  if (typeof value === 'object' && value !== null && '$bigint' in value && typeof value.$bigint === 'string' && Object.keys(value).length === 1) return BigInt(value.$bigint);
  return value;
}
