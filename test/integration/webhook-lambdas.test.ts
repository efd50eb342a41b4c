import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { webhookItem } from '#adapters/dynamo/items/webhook';
import { companyItem } from '#adapters/dynamo/items/company';
import { membershipItem } from '#adapters/dynamo/items/team';
import { webhookDeliveryItem } from '#adapters/dynamo/items/webhook-delivery';
import { eventItem } from '#adapters/dynamo/items/event';
import { MoneyTransaction } from '#adapters/dynamo/transaction';
import { DynamoWebhookRegistry } from '#adapters/dynamo/webhook-registry-store';
import { domainEvent } from '#functions/shared/events';
import { newId } from '#functions/shared/ids';
import { KmsSecretSealer } from '#adapters/webhook-secrets/kms-sealer';
import type { Webhook } from '#functions/webhooks/webhooks';
import { registeredWebhook } from '../support/records.ts';
import { freshTable } from '../support/dynamo.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';
import { mailsTo } from '../support/outbox.ts';

/**
 * The two Lambdas as AWS runs them: the dispatcher on a DynamoDB stream batch, the sender on an SQS
 * batch with partial failures, against SQS mocked by aws-sdk-client-mock (no AWS here) and DynamoDB
 * Local. The contract's own retry schedule is in force (5 s first). Secrets are sealed by KMS, as
 * in a deployed stage, mocked by a stand-in that opens a ciphertext only with the key and
 * encryption context it was made with, as KMS does.
 */
const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/000000000000/WebhookQueue';
const DLQ_URL = 'https://sqs.us-east-1.amazonaws.com/000000000000/WebhookDlq';
const KEY_ARN = 'arn:aws:kms:us-east-1:000000000000:key/00000000-0000-0000-0000-000000000000';
const sqs = mockClient(SQSClient);
const kms = mockClient(KMSClient);
const sealer = new KmsSecretSealer(KEY_ARN);

function fakeKms() {
  kms.on(EncryptCommand).callsFake(({ KeyId, Plaintext, EncryptionContext }) => ({
    KeyId,
    CiphertextBlob: Buffer.from(JSON.stringify({ KeyId, plaintext: Buffer.from(Plaintext).toString(), EncryptionContext })),
  }));
  kms.on(DecryptCommand).callsFake(({ KeyId, CiphertextBlob, EncryptionContext }) => {
    const blob = JSON.parse(Buffer.from(CiphertextBlob).toString());
    if (blob.KeyId !== KeyId || JSON.stringify(blob.EncryptionContext) !== JSON.stringify(EncryptionContext)) {
      throw Object.assign(new Error('InvalidCiphertextException'), { name: 'InvalidCiphertextException' });
    }
    return { KeyId, Plaintext: Buffer.from(blob.plaintext) };
  });
}
let db: ReturnType<typeof createDocumentClient>;
let tableName: string;
let store: DynamoWebhookRegistry;
let dispatcher: typeof import('../../functions/handlers/jobs/webhook-dispatcher.ts');
let sender: typeof import('../../functions/handlers/jobs/webhook-sender.ts');
let receiver: WebhookReceiver;
const outbox = mkdtempSync(join(tmpdir(), 'cambio-sender-outbox-'));

beforeAll(async () => {
  const table = await freshTable();
  ({ db, tableName } = table);
  store = new DynamoWebhookRegistry(db, tableName);
  Object.assign(process.env, {
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: table.endpoint,
    // The receiver listens on loopback, which only the local stage allows; the queue is SQS because
    // its URL is set, as the stack sets it.
    STAGE: 'local',
    WEBHOOK_ALLOW_LOOPBACK_HTTP: 'true',
    WEBHOOK_QUEUE_URL: QUEUE_URL,
    WEBHOOK_DLQ_URL: DLQ_URL,
    WEBHOOK_CATCH_UP_MIN_AGE_MS: '60000',
    WEBHOOK_SECRET_SEALER: 'kms',
    WEBHOOK_SECRET_KMS_KEY_ID: KEY_ARN,
    // The local stage's mail: the sender mails an endpoint's managers into this folder when it gives up.
    LOCAL_OUTBOX_DIR: outbox,
  });
  dispatcher = await import('../../functions/handlers/jobs/webhook-dispatcher.ts');
  sender = await import('../../functions/handlers/jobs/webhook-sender.ts');
  receiver = await new WebhookReceiver().start();
});

beforeEach(() => {
  sqs.reset();
  sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
  sqs.on(SendMessageCommand).resolves({});
  kms.reset();
  fakeKms();
  receiver.deliveries.length = 0;
  receiver.respond = (_, res) => res.writeHead(200).end();
});

afterAll(async () => {
  await receiver?.stop();
  db?.destroy();
  rmSync(outbox, { recursive: true, force: true });
});

async function setup(events: Webhook['events'] = ['*']) {
  const companyId = newId('company');
  const { secret, ...webhook } = await registeredWebhook(store, sealer, companyId, { url: receiver.url(), events });
  receiver.secret = secret;
  kms.resetHistory();
  const event = domainEvent(companyId, 'withdrawal.completed', { id: newId('withdrawal'), status: 'completed' }, new Date());
  await new MoneyTransaction(tableName).event(event).commit(db);
  return { companyId, webhook, event };
}

/** The stream record DynamoDB writes for the event item's insert (NEW_AND_OLD_IMAGES). */
function streamRecord(eventName: 'INSERT' | 'MODIFY', image: Record<string, string>) {
  return {
    eventName,
    dynamodb: { NewImage: Object.fromEntries(Object.entries(image).map(([name, value]) => [name, { S: value }])) },
  } as DynamoDBStreamEvent['Records'][number];
}

function sqsRecord(messageId: string, body: unknown) {
  return { messageId, body: typeof body === 'string' ? body : JSON.stringify(body) } as SQSEvent['Records'][number];
}

const sentBodies = () =>
  sqs.commandCalls(SendMessageBatchCommand).flatMap((call) => call.args[0].input.Entries!.map((entry) => ({ ...entry, body: JSON.parse(entry.MessageBody!) })));

describe('dispatcher Lambda on the table stream', () => {
  it('sends one SQS message per matching webhook for an inserted Event, ignores other records, then marks the event', async () => {
    const { companyId, webhook, event } = await setup(['withdrawal.completed']);
    const image = { PK: `COMPANY#${companyId}`, SK: `EVENT#${event.id}`, type: 'Event', id: event.id, companyId, eventType: event.type };

    const outcome = await dispatcher.handler({
      Records: [
        streamRecord('INSERT', image),
        streamRecord('MODIFY', image),
        streamRecord('INSERT', { ...image, type: 'Deposit', SK: 'DEPOSIT#x' }),
      ],
    });

    expect(outcome).toEqual({ events: 1, messages: 1 });
    expect(sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input.QueueUrl).toBe(QUEUE_URL);
    expect(sentBodies()).toEqual([
      expect.objectContaining({ DelaySeconds: 0, body: { companyId, eventId: event.id, webhookId: webhook.id, round: 0, attempt: 1 } }),
    ]);
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: eventItem.key(companyId, event.id), ConsistentRead: true }));
    expect(Item!.dispatchedTo).toEqual([webhook.id]);
    expect(Item!.GSI1PK).toBeUndefined();
  });

  it('fails the batch (for Lambda to bisect and retry) and leaves the event marked when SQS refuses', async () => {
    const { companyId, event } = await setup();
    sqs.on(SendMessageBatchCommand).rejects(new Error('SQS down'));

    await expect(
      dispatcher.handler({ Records: [streamRecord('INSERT', { type: 'Event', id: event.id, companyId, eventType: event.type })] }),
    ).rejects.toThrow('SQS down');

    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: eventItem.key(companyId, event.id), ConsistentRead: true }));
    expect(Item!.GSI1PK).toBe('EVENTS#UNDISPATCHED');
  });
});

describe('sender Lambda on the webhook queue', () => {
  it('delivers, re-queues a failed try on the schedule, and reports only unprocessable messages as batch item failures', async () => {
    const ok = await setup();
    const message = (ids: { companyId: string; event: { id: string }; webhook: { id: string } }, attempt = 1) => ({
      companyId: ids.companyId,
      eventId: ids.event.id,
      webhookId: ids.webhook.id,
      round: 0,
      attempt,
    });

    const first = await sender.handler({ Records: [sqsRecord('m-ok', message(ok)), sqsRecord('m-bad', '{not json')] });

    expect(first).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-bad' }] });
    expect(receiver.deliveries).toHaveLength(1);
    expect(receiver.deliveries[0]!.verifyError).toBeNull();

    const failing = await setup();
    receiver.respond = (_, res) => res.writeHead(500).end();
    const second = await sender.handler({ Records: [sqsRecord('m-500', message(failing))] });

    expect(second).toEqual({ batchItemFailures: [] });
    const [retry] = sentBodies();
    // 5 s ± 10 %, in whole seconds.
    expect(retry!.DelaySeconds).toBeGreaterThanOrEqual(5);
    expect(retry!.DelaySeconds).toBeLessThanOrEqual(6);
    expect(retry!.body).toMatchObject({ ...message(failing, 2), notBefore: expect.any(String) });
  });

  it('opens a webhook’s sealed secret with one KMS Decrypt, bound to its company and webhook, for a burst of deliveries', async () => {
    const { companyId, webhook } = await setup();
    const events = [];
    for (let i = 0; i < 5; i++) {
      const event = domainEvent(companyId, 'withdrawal.completed', { id: newId('withdrawal'), status: 'completed' }, new Date());
      await new MoneyTransaction(tableName).event(event).commit(db);
      events.push(event);
    }

    const result = await sender.handler({
      Records: events.map((event, i) => sqsRecord(`m-${i}`, { companyId, eventId: event.id, webhookId: webhook.id, round: 0, attempt: 1 })),
    });

    expect(result).toEqual({ batchItemFailures: [] });
    expect(receiver.deliveries).toHaveLength(5);
    expect(receiver.deliveries.every((delivery) => delivery.verifyError === null)).toBe(true);
    const decrypts = kms.commandCalls(DecryptCommand);
    expect(decrypts).toHaveLength(1);
    expect(decrypts[0]!.args[0].input).toMatchObject({
      KeyId: KEY_ARN,
      EncryptionContext: { purpose: 'webhook-signing', companyId, webhookId: webhook.id },
    });
  });

  it('reports the message as failed, and sends nothing, when the secret does not open (KMS refusing, or a ciphertext copied from another webhook)', async () => {
    const { companyId, event, webhook } = await setup();
    const other = await setup();
    // The other webhook's ciphertext written onto this one: KMS sees the wrong encryption context.
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: webhookItem.key(other.companyId, other.webhook.id) }));
    await db.send(new PutCommand({ TableName: tableName, Item: webhookItem.toItem({ ...webhook, sealedSecret: Item!.sealedSecret }) }));

    const result = await sender.handler({ Records: [sqsRecord('m-copied', { companyId, eventId: event.id, webhookId: webhook.id, round: 0, attempt: 1 })] });

    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-copied' }] });
    expect(receiver.deliveries).toHaveLength(0);
  });

  it('rides waits beyond SQS’s 15 minutes on notBefore: at most 900 s each time, re-delayed until due', async () => {
    const { companyId, event, webhook } = await setup();
    receiver.respond = (_, res) => res.writeHead(500).end();
    // Try 3 fails: the contract's next wait is 30 min.
    await sender.handler({ Records: [sqsRecord('m-3', { companyId, eventId: event.id, webhookId: webhook.id, round: 0, attempt: 3 })] });
    const [queued] = sentBodies();
    expect(queued!.DelaySeconds).toBe(900);
    sqs.resetHistory();

    // Back before it is due: sent back to wait again, without a try.
    const early = await sender.handler({ Records: [sqsRecord('m-4', queued!.body)] });

    expect(early).toEqual({ batchItemFailures: [] });
    expect(receiver.deliveries).toHaveLength(1);
    const [again] = sentBodies();
    expect(again!.body).toEqual(queued!.body);
    expect(again!.DelaySeconds).toBeGreaterThan(900 * 0.9);
  });

  it('after the last try sends the message to the dead-letter queue, marks the delivery failed, and mails the endpoint’s Owner', async () => {
    const { companyId, event, webhook } = await setup();
    const owner = `owner-${companyId}@example.com`;
    await db.send(new PutCommand({ TableName: tableName, Item: companyItem.toItem({ id: companyId, name: 'Lambda Co', environment: 'sandbox', status: 'active', createdAt: new Date().toISOString() }) }));
    await db.send(new PutCommand({ TableName: tableName, Item: membershipItem.toItem({ companyId, personId: 'person-owner', email: owner, role: 'Owner', createdAt: new Date().toISOString() }) }));
    receiver.respond = (_, res) => res.writeHead(502).end();

    const result = await sender.handler({
      Records: [sqsRecord('m-10', { companyId, eventId: event.id, webhookId: webhook.id, round: 0, attempt: 10 })],
    });

    expect(result).toEqual({ batchItemFailures: [] });
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(0);
    const [dead] = sqs.commandCalls(SendMessageCommand);
    expect(dead!.args[0].input.QueueUrl).toBe(DLQ_URL);
    expect(JSON.parse(dead!.args[0].input.MessageBody!)).toMatchObject({ eventId: event.id, attempt: 10, reason: 'all 10 tries failed; the last: HTTP 502' });
    const { Item } = await db.send(
      new GetCommand({ TableName: tableName, Key: webhookDeliveryItem.key(companyId, event.id, webhook.id), ConsistentRead: true }),
    );
    expect(Item!.status).toBe('failed');
    expect(mailsTo(outbox, owner).map((mail) => mail.subject)).toEqual([`Webhook deliveries failing: ${webhook.url}`]);
  });

  it('reports the message as failed when its follow-up cannot be queued, so SQS shows it again', async () => {
    const { companyId, event, webhook } = await setup();
    receiver.respond = (_, res) => res.writeHead(500).end();
    sqs.on(SendMessageBatchCommand).rejects(new Error('SQS down'));

    const result = await sender.handler({ Records: [sqsRecord('m-x', { companyId, eventId: event.id, webhookId: webhook.id, round: 0, attempt: 1 })] });

    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-x' }] });
  });
});
