import type { SolanaNetworkSettings } from '#functions/networks/solana/settings';
import { ChildWorker } from './child-worker.ts';
import type { LoadedSlots, ProxyOptions, SlotPlan } from './solana-backlog.ts';

/**
 * The local Solana node (local/solana-node.ts: the real runtime, litesvm, behind JSON-RPC over
 * HTTP) in a child process of its own, for the Solana scenarios: a node is another machine, and
 * its work (executing transactions, encoding blocks) must not be counted as the sender's or the
 * scanner's, nor share their event loop. solana-node-child.ts runs it and answers these jobs.
 */

export type SolanaNodeJob =
  /** `npm start`'s node (local/solana-runtime.ts startLocalSolana: the hot wallet given SOL and its
   * float, the stage's SOLANA) when `localRuntime`, else a bare node (startSolanaNode). */
  | { kind: 'start'; slotIntervalMs: number | null; localRuntime: boolean }
  | { kind: 'advance'; slots: number }
  | { kind: 'slot' }
  | { kind: 'fill'; plan: SlotPlan; hitsUsed: number }
  | { kind: 'proxy'; options: ProxyOptions };

export interface StartedSolanaNode {
  url: string;
  mint: string;
  customer: string;
  /** With `localRuntime`: the stage's SOLANA for the node, and its hot wallet. */
  settings?: SolanaNetworkSettings;
  hotWallet?: string;
}

export type SolanaNodeAnswer = StartedSolanaNode | { slot: number } | LoadedSlots | { url: string };

export class SolanaNodeProcess {
  private readonly worker = new ChildWorker<SolanaNodeJob, SolanaNodeAnswer>(new URL('./solana-node-child.ts', import.meta.url), 'Solana node');

  /** The node's process, for its CPU time. */
  get pid(): number | undefined {
    return this.worker.pid;
  }

  async start(slotIntervalMs: number | null, localRuntime: boolean): Promise<StartedSolanaNode> {
    return (await this.worker.run({ kind: 'start', slotIntervalMs, localRuntime })) as StartedSolanaNode;
  }

  /** Produces `slots` slots now (whatever the timer does); answers the slot then current. */
  async advance(slots: number): Promise<number> {
    return ((await this.worker.run({ kind: 'advance', slots })) as { slot: number }).slot;
  }

  /** The current (`confirmed`) slot. */
  async slot(): Promise<number> {
    return ((await this.worker.run({ kind: 'slot' })) as { slot: number }).slot;
  }

  /** Fills slots with USDT transfers (solana-backlog.ts fillSlots), in the node's process. */
  async fill(plan: SlotPlan, hitsUsed: number): Promise<LoadedSlots> {
    return (await this.worker.run({ kind: 'fill', plan, hitsUsed })) as LoadedSlots;
  }

  /** A proxy in front of the node, in its process: answers held, blocks padded to mainnet's size
   * (solana-backlog.ts startNodeProxy). */
  async proxy(options: ProxyOptions): Promise<string> {
    return ((await this.worker.run({ kind: 'proxy', options })) as { url: string }).url;
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
