import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { SQS_MAX_DELAY_SECONDS, SqsDeliveryQueue } from '#adapters/webhooks/sqs-delivery-queue';
import type { DeliveryMessage, QueuedMessage } from '#functions/webhooks/webhook-delivery';

/**
 * The webhook queue in AWS, over a mocked SQS client: SQS has no local engine, so these pin what
 * the sender hands SQS (batches, delays) and what it does when SQS refuses part of a batch.
 */
const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/000000000000/cambio-webhooks';
const DEAD_LETTER_URL = 'https://sqs.us-east-1.amazonaws.com/000000000000/cambio-webhooks-dlq';
const NO_WAIT = { maxAttempts: 3, baseDelayMs: 0, maxDelayMs: 0 };

const sqs = mockClient(SQSClient);
afterEach(() => sqs.reset());

const queue = () => new SqsDeliveryQueue(new SQSClient({ region: 'us-east-1' }), QUEUE_URL, DEAD_LETTER_URL, NO_WAIT);
const message = (n: number): DeliveryMessage => ({ companyId: 'cmp_1', eventId: `evt_${n}`, webhookId: 'whk_1', round: 0, attempt: 1 });
const queued = (n: number, delayMs = 0): QueuedMessage => ({ message: message(n), delayMs });
const sentEventIds = () =>
  sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input.Entries!.map((entry) => (JSON.parse(entry.MessageBody!) as DeliveryMessage).eventId));

describe('SqsDeliveryQueue', () => {
  it('sends in batches of ten, each delay rounded up to a second and held to SQS’s 15 minutes', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const messages = Array.from({ length: 23 }, (_, n) => queued(n, n === 0 ? 1500 : n === 1 ? 3_600_000 : 0));

    await queue().send(messages);

    expect(sentEventIds().map((ids) => ids.length)).toEqual([10, 10, 3]);
    const [first] = sqs.commandCalls(SendMessageBatchCommand);
    expect(first!.args[0].input.QueueUrl).toBe(QUEUE_URL);
    expect(first!.args[0].input.Entries!.slice(0, 3).map((entry) => entry.DelaySeconds)).toEqual([2, SQS_MAX_DELAY_SECONDS, 0]);
  });

  it('groups each message by its company, so that SQS serves one company’s backlog fairly beside the others’', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });

    await queue().send([queued(0), { message: { ...message(1), companyId: 'cmp_2' }, delayMs: 0 }]);

    const [call] = sqs.commandCalls(SendMessageBatchCommand);
    expect(call!.args[0].input.Entries!.map((entry) => entry.MessageGroupId)).toEqual(['cmp_1', 'cmp_2']);
  });

  it('sends again only the entries SQS refused, until none is left', async () => {
    sqs
      .on(SendMessageBatchCommand)
      .resolvesOnce({ Failed: [{ Id: '1', Code: 'InternalError', SenderFault: false }, { Id: '2', Code: 'InternalError', SenderFault: false }] })
      .resolvesOnce({ Failed: [{ Id: '2', Code: 'InternalError', SenderFault: false }] })
      .resolves({ Failed: [] });

    await queue().send([queued(0), queued(1), queued(2)]);

    expect(sentEventIds()).toEqual([['evt_0', 'evt_1', 'evt_2'], ['evt_1', 'evt_2'], ['evt_2']]);
  });

  it('gives up loudly after three sends, naming what SQS said, so the caller does not take the events as queued', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [{ Id: '0', Code: 'ThrottlingException', Message: 'Rate exceeded', SenderFault: false }] });

    await expect(queue().send([queued(0)])).rejects.toThrow('SQS refused 1 webhook messages: Rate exceeded');
    expect(sentEventIds()).toHaveLength(3);
  });

  it('keeps a message that ran out of tries in the dead-letter queue with the reason', async () => {
    sqs.on(SendMessageCommand).resolves({});

    await queue().sendToDeadLetter(message(7), 'HTTP 500 after 8 attempts');

    const [call] = sqs.commandCalls(SendMessageCommand);
    expect(call!.args[0].input.QueueUrl).toBe(DEAD_LETTER_URL);
    expect(JSON.parse(call!.args[0].input.MessageBody!)).toEqual({ ...message(7), reason: 'HTTP 500 after 8 attempts' });
  });
});
