import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { JournaledMessage, QueueJournal } from '../webhooks/in-process-queue.ts';
import { localQueueMessageItem } from './items/local-queue-message.ts';
import { itemsUnder } from './queries.ts';

/**
 * Where the local runtime's in-process queue keeps its messages: the runtime's own table on
 * DynamoDB Local, which is on disk under .data/. A message is put before `send` resolves and
 * deleted when the sender is done with it, so what a killed process held is there on restart.
 */
export class DynamoQueueJournal implements QueueJournal {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly queue: string,
  ) {}

  async put(message: JournaledMessage): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: localQueueMessageItem.toItem(this.queue, message),
      }),
    );
  }

  async remove(messageId: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: localQueueMessageItem.key(this.queue, messageId) }));
  }

  async load(): Promise<JournaledMessage[]> {
    const items = await itemsUnder(this.db, this.tableName, localQueueMessageItem.ofQueue(this.queue));
    return items.map(localQueueMessageItem.fromItem);
  }
}
