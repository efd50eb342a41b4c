import { createInterface } from 'node:readline';
import { paced } from './paced.ts';

/**
 * The fairness scenario's busy integrator (bench/scenarios/fairness.ts), in a process of its own:
 * company A's servers are not company B's, and a client that sent A's hundred requests a second
 * from B's event loop would time B's answers with A's callbacks in between. Each line on standard
 * input is one phase ({ url, headers, rate, seconds }); its answer is one line of JSON (./paced.ts).
 */
for await (const line of createInterface({ input: process.stdin })) {
  const { url, headers, rate, seconds } = JSON.parse(line) as { url: string; headers: Record<string, string>; rate: number; seconds: number };
  process.stdout.write(`${JSON.stringify(await paced(url, headers, rate, seconds))}\n`);
}
