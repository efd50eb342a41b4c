import { performance } from 'node:perf_hooks';

/** What a paced caller saw: every answer's status, and the time to each 200. */
export interface Paced {
  statuses: number[];
  latenciesMs: number[];
}

/** GET `url` at `rate` a second for `seconds`, each request on its own (none waits for the one
 * before): what an integrator's servers at that rate send. */
export async function paced(url: string, headers: Record<string, string>, rate: number, seconds: number): Promise<Paced> {
  const result: Paced = { statuses: [], latenciesMs: [] };
  const requests: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; i < rate * seconds; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const sent = performance.now();
    requests.push(
      fetch(url, { headers }).then(async (response) => {
        await response.arrayBuffer();
        result.statuses.push(response.status);
        if (response.status === 200) result.latenciesMs.push(performance.now() - sent);
      }),
    );
  }
  await Promise.all(requests);
  return result;
}
