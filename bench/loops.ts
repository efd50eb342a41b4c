/** The chain jobs and webhook loops the local runtime runs (local/job-loops.ts), started by the
 * scenarios that need them on a runtime the bench starts with them off. */
export { startChainJobs, startWebhookLoops, type Loops } from '#local/job-loops';
