import { createRequire } from 'node:module';
import { serveJobs } from './child-worker.ts';
import type { LoadJob, LoadSample } from './harness.ts';

/** The part of autocannon 9 used here (the package ships no types). */
interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void): void;
}
interface AutocannonResult {
  start: Date;
  finish: Date;
  errors: number;
  timeouts: number;
  non2xx: number;
  requests: { sent: number };
}
/** A job's request and connections as autocannon takes them, with its own names for the time. */
type Autocannon = (options: Omit<LoadJob, 'id' | 'seconds'> & { duration: number; sampleInt?: number }) => AutocannonInstance;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/**
 * The load generator, in its own process so that autocannon never shares an event loop (or a
 * core's time slice, where the OS allows) with the servers it measures. It takes jobs over IPC
 * and answers with autocannon's figures plus every response's latency, so the parent can merge
 * rounds exactly and read percentiles below a millisecond (autocannon's own are whole ms).
 */
serveJobs(run);

async function run(job: LoadJob): Promise<LoadSample> {
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  // autocannon takes an explicit undefined as a value, so only set options that are present.
  const instance = autocannon({
    url: job.url,
    connections: job.connections,
    duration: job.seconds,
    // autocannon only stops on a sampling tick (1 s by default), so a short round would overrun.
    sampleInt: 100,
    ...(job.method && { method: job.method }),
    ...(job.headers && { headers: job.headers }),
    ...(job.body !== undefined && { body: job.body }),
    ...(job.idReplacement && { idReplacement: true }),
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
    latencies.push(responseTime);
  });
  const result = await instance;
  return {
    seconds: (Number(result.finish) - Number(result.start)) / 1000,
    sent: result.requests.sent,
    latencies: Float64Array.from(latencies),
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}
