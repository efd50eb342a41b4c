import { getAddress, type Address } from 'viem';
import { ChildWorker } from './child-worker.ts';

/**
 * A stand-in for an Ethereum node's JSON-RPC, for the EVM scanner scenario: mining 300,000 real
 * transfers on anvil would take longer than the bench, so evm-node-child.ts answers the calls the
 * scanner and the confirmer make (eth_blockNumber, eth_getBlockByNumber, eth_getLogs,
 * eth_getTransactionReceipt, eth_chainId, TetherToken's deprecated() by eth_call, batches of them) from blocks it makes up, in a child
 * process: a node is another machine, and its work must not be counted as the scanner's.
 */

/** Ethereum's USDT (TetherToken), the contract whose Transfer logs the node serves. */
export const ETHEREUM_USDT_CONTRACT: Address = '0xdAC17F958D2ee523a2206206994597C13D831ec7';

/** What the node's blocks hold from `firstLoadedBlock` on (empty before it). */
export interface EvmNodePlan {
  /** The head before any loaded block is mined. */
  head: number;
  chainId: number;
  transfersPerBlock: number;
  /** Paid deposit addresses, used in order: every `hitEvery`th transfer of a block goes to the next
   * (mine() may set another `hitEvery` for the blocks it adds). */
  hitAddresses: string[];
  hitEvery: number;
  /** Blocks behind the head that the node answers for `finalized`. */
  finalizedDepth: number;
  /** The most logs one eth_getLogs answers; more is refused as Infura refuses it (-32005). */
  maxLogsPerResponse: number;
}

export interface EvmNodeStats {
  httpRequests: number;
  /** JSON-RPC calls by method (a batch counts each of its calls). */
  calls: Record<string, number>;
  refusedGetLogs: number;
}

export type EvmNodeJob = { kind: 'start'; plan: EvmNodePlan } | { kind: 'mine'; blocks: number; hitEvery?: number } | { kind: 'stats' };
export type EvmNodeAnswer = { url: string } | { head: number } | EvmNodeStats;

/** Kinds of synthetic address: the high byte of the 20, so no two kinds ever collide. */
export const ADDRESS_KIND = { deposit: 0xde, stranger: 0x5e, payer: 0xfa } as const;

/** The n-th address of a kind, EIP-55 checksummed as viem returns them. */
export function syntheticEvmAddress(kind: number, n: number): Address {
  return getAddress(`0x${kind.toString(16).padStart(2, '0')}${n.toString(16).padStart(38, '0')}`);
}

export class EvmNode {
  private readonly worker = new ChildWorker<EvmNodeJob, EvmNodeAnswer>(new URL('./evm-node-child.ts', import.meta.url), 'EVM node');

  /** The node's process, for its CPU time. */
  get pid(): number | undefined {
    return this.worker.pid;
  }

  async start(plan: EvmNodePlan): Promise<string> {
    return ((await this.worker.run({ kind: 'start', plan })) as { url: string }).url;
  }

  /** Adds `blocks` loaded blocks on top of the head, every `hitEvery`th transfer of each paying a
   * deposit (the plan's figure when absent); returns the new head. */
  async mine(blocks: number, hitEvery?: number): Promise<number> {
    return ((await this.worker.run({ kind: 'mine', blocks, hitEvery })) as { head: number }).head;
  }

  async stats(): Promise<EvmNodeStats> {
    return (await this.worker.run({ kind: 'stats' })) as EvmNodeStats;
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
