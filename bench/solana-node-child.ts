import { startSolanaNode, type SolanaNode } from '#local/solana-node';
import { startLocalSolana } from '#local/solana-runtime';
import { serveJobs } from './child-worker.ts';
import { fillSlots, startNodeProxy } from './solana-backlog.ts';
import type { SolanaNodeAnswer, SolanaNodeJob } from './solana-node.ts';

/** The Solana scenarios' node in its own process (solana-node.ts says why): it answers JSON-RPC
 * over HTTP on 127.0.0.1 and the parent's jobs over IPC. */

let node: SolanaNode | undefined;

serveJobs<SolanaNodeJob & { id: number }, SolanaNodeAnswer>(async (job) => {
  if (job.kind === 'start') {
    if (node) throw new Error('the Solana node is started once');
    if (job.localRuntime) {
      const local = await startLocalSolana({ slotIntervalMs: job.slotIntervalMs });
      node = local.node;
      return { url: node.url, mint: node.mint, customer: node.customer.address, settings: local.settings, hotWallet: local.hotWallet };
    }
    node = await startSolanaNode({ slotIntervalMs: job.slotIntervalMs });
    return { url: node.url, mint: node.mint, customer: node.customer.address };
  }
  const started = node;
  if (!started) throw new Error('the Solana node is not started');
  switch (job.kind) {
    case 'advance':
      started.advanceSlots(job.slots);
      return { slot: Number(started.slot()) };
    case 'slot':
      return { slot: Number(started.slot()) };
    case 'fill':
      return fillSlots(started, job.plan, job.hitsUsed);
    case 'proxy':
      return { url: (await startNodeProxy(started.url, job.options)).url };
  }
});
