import type { NetworkJobs } from './network.ts';
import type { NetworkName } from './names.ts';
import { tronJobs } from './tron/jobs.ts';
import { evmJobs } from './evm/jobs.ts';
import { solanaJobs } from './solana/jobs.ts';

/** Each registered network's signing jobs (withdrawal sender, deposit sweeper), for those two
 * functions alone: they carry every network's signing code, which no other function bundles. */
const JOBS: { readonly [N in NetworkName]: NetworkJobs } = {
  tron: tronJobs,
  ethereum: evmJobs('ethereum'),
  bsc: evmJobs('bsc'),
  polygon: evmJobs('polygon'),
  arbitrum: evmJobs('arbitrum'),
  solana: solanaJobs,
};

export const jobsOf = (name: NetworkName): NetworkJobs => JOBS[name];
