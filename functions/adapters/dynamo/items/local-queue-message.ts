import type { JournaledMessage } from '../../webhooks/in-process-queue.ts';
import type { Item } from './item.ts';

/**
 * The one owner of a stored `LocalQueueMessage`: each message of the local runtime's in-process webhook
 * queues, written through so that a restart, even a kill -9, loses none
 * (../local-queue-store.ts). One partition per queue. Never written in AWS, where the messages
 * live in SQS.
 */
export const localQueueMessageItem = {
  type: 'LocalQueueMessage',
  key: (queue: string, messageId: string) => ({ PK: `LOCAL_QUEUE#${queue}`, SK: `MESSAGE#${messageId}` }),
  ofQueue: (queue: string) => ({ PK: `LOCAL_QUEUE#${queue}`, skPrefix: 'MESSAGE#' }),
  toItem: (queue: string, message: JournaledMessage): Item => ({
    ...localQueueMessageItem.key(queue, message.messageId),
    type: localQueueMessageItem.type,
    queue,
    ...message,
  }),
  fromItem: (item: Item): JournaledMessage => ({
    messageId: item.messageId as string,
    body: item.body as string,
    sentAt: Number(item.sentAt),
    availableAt: Number(item.availableAt),
    receiveCount: Number(item.receiveCount),
  }),
};
