import type { Context } from 'aws-lambda';

/**
 * The chain jobs and the webhook loops, started by a scenario on the runtime `npm run bench` already
 * runs (it starts it with them off, so the route scenarios measure the routes alone). The same code
 * as local/runtime.ts startPollers / startWebhookLoops (not exported there): the jobs through their
 * Lambda handlers, the sender over the in-process queue with SQS's semantics.
 */
export interface Loops {
  stop(): Promise<void>;
}

const noContext = {} as Context;

export function startChainJobs(intervalMs: number): Loops {
  const jobs = [
    { name: 'deposit poller', run: async () => (await import('../functions/jobs/deposit-poller.ts')).handler({}, noContext) },
    { name: 'withdrawal sender', run: async () => (await import('../functions/jobs/withdrawal-sender.ts')).handler({}, noContext) },
    { name: 'deposit sweeper', run: async () => (await import('../functions/jobs/deposit-sweeper.ts')).handler({}, noContext) },
  ];
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

export async function startWebhookLoops(intervalMs: number): Promise<Loops> {
  const dispatcher = await import('../functions/jobs/webhook-dispatcher.ts');
  const sender = await import('../functions/jobs/webhook-sender.ts');
  const { localDeliveryQueue } = await import('../functions/adapters/webhooks/in-process-queue.ts');
  const { queue } = localDeliveryQueue();
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

  const send = async () => {
    while (!stopped) {
      const received = queue.receive(10);
      if (received.length === 0) {
        await queue.waitForMessage(Math.min(queue.nextVisibleInMs() ?? intervalMs, intervalMs));
        continue;
      }
      const records = received.map((message) => ({
        messageId: message.messageId,
        receiptHandle: message.receiptHandle,
        body: message.body,
        attributes: { ApproximateReceiveCount: String(message.receiveCount), SentTimestamp: String(message.sentAt) },
      }));
      try {
        const { batchItemFailures } = await sender.handler({ Records: records as never });
        const failed = new Set(batchItemFailures.map((failure) => failure.itemIdentifier));
        for (const message of received) if (!failed.has(message.messageId)) queue.delete(message.receiptHandle);
      } catch (error) {
        console.error(JSON.stringify({ level: 'error', message: 'webhook sender failed', error: String(error) }));
      }
    }
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
