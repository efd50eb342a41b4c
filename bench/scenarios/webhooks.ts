import { createDocumentClient } from '#adapters/dynamo/client';
import { MoneyTransaction } from '#adapters/dynamo/transaction';
import { SandboxChain } from '#functions/networks/tron/sandbox-chain';
import { domainEvent } from '#functions/shared/events';
import { parseAmount } from '#functions/shared/money';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { STAGES } from '../../config/stages.ts';
import { percentile } from '../harness.ts';
import { startChainJobs, startWebhookLoops } from '../loops.ts';
import { BenchReceiver } from '../receiver.ts';
import type { Scenario } from '../scenario.ts';
import { apiClient, newCompany } from '../support.ts';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1000);
const DEPOSITS = 10;
const LOOP_INTERVAL_MS = 100;
/** The runtime's sandbox block interval (run.ts sets SANDBOX_BLOCK_INTERVAL_MS=100). */
const blockMs = () => Number(process.env.SANDBOX_BLOCK_INTERVAL_MS);

/**
 * Issue 6. (1) Sender throughput: EVENTS events written through the domain code (domainEvent +
 * MoneyTransaction.event, as every state change writes them) while the loops are off, then the
 * dispatcher (catch-up pass every 100 ms) and the sender (in-process queue, SQS semantics) started; the
 * figure is verified deliveries per second at a node:http receiver on loopback, from the loops'
 * start to the last delivery. (2) Deposit-to-webhook latency: DEPOSITS deposits paid on the
 * sandbox chain (fast blocks), deposit poller every 100 ms; the time from the deposit completing
 * (the event's createdAt, written in the completing transaction) to its `deposit.completed` arriving.
 */
export const webhooksScenario: Scenario = {
  name: 'webhooks',
  title: 'Webhook sender throughput and deposit.completed latency (dispatcher + sender in-process)',
  async run({ runtime, log }) {
    const failures: string[] = [];
    const receiver = await new BenchReceiver().start();
    const company = await newCompany(runtime, 'Bench Webhooks');
    const api = apiClient(runtime.apiUrl, company);
    const registered = await api('POST', '/webhooks', { url: receiver.url(), events: ['*'] });
    if (registered.status !== 201) throw new Error(`POST /v1/webhooks answered ${registered.status}: ${JSON.stringify(registered.body)}`);
    receiver.secret = String(registered.body.data?.secret);

    const db = createDocumentClient(runtime.dynamoEndpoint);
    const loops: { stop(): Promise<void> }[] = [];
    try {
      // (1) Throughput.
      log(`  writing ${EVENTS} events (conversion.completed) through MoneyTransaction.event`);
      const written = new Set<string>();
      for (let i = 0; i < EVENTS; i += 25) {
        await Promise.all(
          Array.from({ length: Math.min(25, EVENTS - i) }, async (_, j) => {
            const event = domainEvent(company.companyId, 'conversion.completed', { id: `bench-${i + j}`, n: i + j }, new Date());
            written.add(event.id);
            await new MoneyTransaction(runtime.tableName).event(event).commit(db);
          }),
        );
      }
      log(`  starting the dispatcher and sender; waiting for ${EVENTS} verified deliveries`);
      const started = Date.now();
      loops.push(await startWebhookLoops(LOOP_INTERVAL_MS));
      const all = await receiver.waitForEvents(EVENTS, 120_000);
      const elapsed = (Math.max(...receiver.verified.map((d) => d.receivedAt)) - started) / 1000;
      const delivered = [...written].filter((id) => receiver.eventIds.has(id)).length;
      if (!all || delivered !== EVENTS) failures.push(`throughput: ${delivered} of ${EVENTS} events delivered within 120 s`);
      if (receiver.rejected) failures.push(`throughput: ${receiver.rejected} deliveries failed verification`);
      const duplicates = receiver.verified.length - receiver.eventIds.size;
      const perSecond = delivered / elapsed;
      log(`  ${delivered} delivered in ${elapsed.toFixed(2)} s: ${perSecond.toFixed(0)}/s (${duplicates} duplicate deliveries)`);

      // (2) Deposit completed → webhook.
      loops.push(startChainJobs(LOOP_INTERVAL_MS));
      const chain = new SandboxChain(db, runtime.tableName, {
        blockIntervalMs: blockMs(),
        solidifyAfter: Number(process.env.DEPOSIT_REQUIRED_CONFIRMATIONS),
      });
      const deposits: string[] = [];
      for (let i = 0; i < DEPOSITS; i++) {
        const created = await api('POST', '/deposits', { method: 'usdt', network: 'tron', reference: `bench-hook-${i}`, amount: '10' });
        if (created.status !== 201) throw new Error(`POST /v1/deposits answered ${created.status}`);
        deposits.push(String(created.body.data?.id));
        await chain.submitTransfer({
          contract: STAGES.local.functionEnvironment.USDT_CONTRACT,
          from: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 1_999_000_000 + i),
          to: String(created.body.data?.address),
          amount: parseAmount('10', 'USDT'),
        });
        // Spread the payments over a few blocks so the completions do not all fall in one poll.
        await new Promise((resolve) => setTimeout(resolve, 3 * blockMs()));
      }
      log(`  ${DEPOSITS} deposits paid on the sandbox chain; waiting for their deposit.completed`);
      const completed = () => receiver.verified.filter((d) => d.type === 'deposit.completed' && deposits.includes(d.dataId ?? ''));
      const deadline = Date.now() + 60_000;
      while (completed().length < DEPOSITS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const latencies = Float64Array.from(completed().map((d) => d.receivedAt - Date.parse(d.createdAt))).sort();
      if (latencies.length < DEPOSITS) failures.push(`latency: ${latencies.length} of ${DEPOSITS} deposit.completed arrived within 60 s`);
      const p50 = percentile(latencies, 50);
      const max = latencies.length ? latencies[latencies.length - 1]! : Number.NaN;

      return {
        name: 'webhooks',
        title: this.title,
        summaries: [],
        tables: [
          {
            title: 'Webhook delivery',
            columns: ['measure', 'value'],
            rows: [
              ['events written before the loops started', EVENTS],
              ['verified deliveries', delivered],
              ['duplicate deliveries', duplicates],
              ['seconds from loop start to last delivery', elapsed.toFixed(2)],
              ['**deliveries per second**', perSecond.toFixed(0)],
              [`deposit.completed latency p50 (ms, ${latencies.length} deposits)`, Math.round(p50)],
              ['deposit.completed latency max (ms)', Math.round(max)],
            ],
          },
        ],
        goals: [{ goal: 'deposit completed → webhook under 2 s', met: latencies.length === DEPOSITS && max < 2000, detail: `p50 ${Math.round(p50)} ms, max ${Math.round(max)} ms` }],
        failures,
        notes: [
          `Dispatcher catch-up pass and sender wait ${LOOP_INTERVAL_MS} ms; sandbox blocks every ${blockMs()} ms; ${process.env.DEPOSIT_REQUIRED_CONFIRMATIONS} confirmations; deposit poller every ${LOOP_INTERVAL_MS} ms.`,
          'Latency = receivedAt at the receiver − the event createdAt (written in the transaction that completes the deposit); same clock, same machine.',
          'Receiver, API, dispatcher and sender share one Node process and 2 cores with DynamoDB Local.',
        ],
      };
    } finally {
      for (const loop of loops.reverse()) await loop.stop();
      await receiver.stop();
      db.destroy();
    }
  },
};
