import type { Context } from 'aws-lambda';
import { functionSettings } from '#functions/settings/functions';
import type { NetworkName } from '#functions/networks/names';

/**
 * What the local runtime runs beside the API in place of EventBridge, the DynamoDB stream and SQS
 * (and what `npm run bench` starts for the scenarios that need them).
 */
export interface Loops {
  stop(): Promise<void>;
}

/** The scheduled chain jobs, in the order EventBridge would run them each minute, through their
 * Lambda handlers (so each run logs and counts as in AWS: a line when it did something): the
 * deposit poller, the withdrawal sender and the deposit sweeper once per open network, their
 * schedules' input naming it (none for TRON, as in AWS). */
const noContext = {} as Context;
const chainJobsOf = (networks: readonly NetworkName[]) => [
  ...networks.map((network) => ({
    name: `deposit poller (${network})`,
    run: async () => (await import('../functions/handlers/jobs/deposit-poller.ts')).handler({ network }, noContext),
  })),
  ...networks.map((network) => ({
    name: `withdrawal sender (${network})`,
    run: async () => (await import('../functions/handlers/jobs/withdrawal-sender.ts')).handler(network === 'tron' ? {} : { network }, noContext),
  })),
  ...networks.map((network) => ({
    name: `deposit sweeper (${network})`,
    run: async () => (await import('../functions/handlers/jobs/deposit-sweeper.ts')).handler(network === 'tron' ? {} : { network }, noContext),
  })),
];

/**
 * The jobs EventBridge runs in AWS, on a timer here: the same handler modules, one run at a time
 * (the next starts when the last has finished), errors logged and the loop kept going. 0 turns
 * them off. `networks`: the open networks, whose deposits are polled (TRON alone by default).
 */
export function startChainJobs(intervalMs: number, networks: readonly NetworkName[] = ['tron']): Loops {
  if (intervalMs <= 0) return { stop: async () => undefined };
  const jobs = chainJobsOf(networks);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    for (const job of jobs) {
      try {
        await job.run();
      } catch (error) {
        console.error(JSON.stringify({ level: 'error', message: `${job.name} failed`, error: String(error) }));
      }
    }
    if (!stopped) timer = setTimeout(() => (running = tick()), intervalMs);
  };
  timer = setTimeout(() => (running = tick()), 0);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** Sender batches in flight at once. Lambda runs an SQS source's batches concurrently (five at
 * first, more as the queue grows), so an endpoint that hangs holds its own batch for the timeout,
 * never the queue: one company's hanging endpoint cannot delay another's retries. */
const SENDER_BATCHES_IN_FLIGHT = 10;

/**
 * Webhook delivery as the stack runs it, in this process: the dispatcher's catch-up pass on a timer (the
 * stream's job in AWS), and the sender over the in-process queue with SQS's semantics, through the
 * same handler the SQS event source calls, several batches at a time: the messages a batch reports
 * as failed stay in the queue and come back after the visibility timeout, the others are deleted.
 */
export async function startWebhookLoops(intervalMs: number): Promise<Loops> {
  if (intervalMs <= 0) return { stop: async () => undefined };
  const dispatcher = await import('../functions/handlers/jobs/webhook-dispatcher.ts');
  const sender = await import('../functions/handlers/jobs/webhook-sender.ts');
  const { localDeliveryQueue } = await import('../functions/adapters/webhooks/from-settings.ts');
  // The queue the sender's own slice builds (the same instance: one per process).
  const { queue } = localDeliveryQueue(functionSettings('jobs/webhook-sender'));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let dispatching: Promise<void> = Promise.resolve();
  const dispatch = async () => {
    try {
      await dispatcher.handler({});
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', message: 'webhook dispatcher failed', error: String(error) }));
    }
    if (!stopped) timer = setTimeout(() => (dispatching = dispatch()), intervalMs);
  };
  timer = setTimeout(() => (dispatching = dispatch()), 0);

  const sendBatch = async (received: Awaited<ReturnType<typeof queue.receive>>) => {
    const records = received.map((message) => ({
      messageId: message.messageId,
      receiptHandle: message.receiptHandle,
      body: message.body,
      attributes: { ApproximateReceiveCount: String(message.receiveCount), SentTimestamp: String(message.sentAt) },
    }));
    try {
      const { batchItemFailures } = await sender.handler({ Records: records as never });
      const failed = new Set(batchItemFailures.map((failure) => failure.itemIdentifier));
      for (const message of received) if (!failed.has(message.messageId)) await queue.delete(message.receiptHandle);
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', message: 'webhook sender failed', error: String(error) }));
    }
  };
  const inFlight = new Set<Promise<void>>();
  const send = async () => {
    while (!stopped) {
      if (inFlight.size >= SENDER_BATCHES_IN_FLIGHT) {
        await Promise.race(inFlight);
        continue;
      }
      let received: Awaited<ReturnType<typeof queue.receive>>;
      try {
        received = await queue.receive(10);
      } catch (error) {
        // The queue's journal (DynamoDB Local) failing: what was received comes back after the
        // visibility timeout; the loop goes on.
        console.error(JSON.stringify({ level: 'error', message: 'webhook queue receive failed', error: String(error) }));
        await queue.waitForMessage(intervalMs);
        continue;
      }
      if (received.length === 0) {
        await queue.waitForMessage(Math.min(queue.nextVisibleInMs() ?? intervalMs, intervalMs));
        continue;
      }
      const batch: Promise<void> = sendBatch(received).finally(() => inFlight.delete(batch));
      inFlight.add(batch);
    }
    await Promise.all(inFlight);
  };
  const sending = send();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      queue.wakeWaiters();
      await Promise.all([dispatching, sending]);
    },
  };
}
