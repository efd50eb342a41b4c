/**
 * One run at a time of a job on one network. The withdrawal sender and the deposit sweeper of every
 * network are one Lambda function each, started once per network on each schedule (an EventBridge target per network): their concurrency
 * lets each network's run go side by side with the others' (lib/chain-jobs.ts), and a lease per
 * (job, network) in the table keeps two runs of one network from ever overlapping (a run that
 * outlives its schedule, a retried delivery), since two would race over the same withdrawals and
 * the hot wallet's nonces. A run that dies keeps its lease only until it expires.
 */
export interface RunLeases {
  /** Takes the lease `name` for `holder` until `until`, unless another holder's runs past `now`. */
  take(name: string, holder: string, until: Date, now: Date): Promise<boolean>;
  /** Ends `holder`'s lease at `now`; a lease another holder took since is left as it is. */
  release(name: string, holder: string, now: Date): Promise<void>;
}

/** `run` under the lease `name`, or 'held' when another run holds it: that run does this one's work. */
export async function leasedRun<T>(
  leases: RunLeases,
  { name, holder, leaseMs, now = () => new Date() }: { name: string; holder: string; leaseMs: number; now?: () => Date },
  run: () => Promise<T>,
): Promise<{ ran: true; result: T } | { ran: false }> {
  const takenAt = now();
  if (!(await leases.take(name, holder, new Date(takenAt.getTime() + leaseMs), takenAt))) return { ran: false };
  try {
    return { ran: true, result: await run() };
  } finally {
    // A release that fails leaves the lease to lapse at its expiry, as a run that dies does: what the
    // caller must see is the run's own outcome, its result or its error, not the release's.
    await leases.release(name, holder, now()).catch(() => undefined);
  }
}
