import { randomUUID } from 'node:crypto';
import type { DeliveryMessage, DeliveryQueue, QueuedMessage } from '#functions/webhooks/webhook-delivery';

/**
 * A stand-in for an SQS standard queue, for the local runtime: per-message delay, a visibility
 * timeout after each receive (a message not deleted in time comes back), a receive count, and a
 * redrive to a dead-letter queue after `maxReceiveCount` receives. The sender runs the same batch
 * handler over it as the Lambda runs over SQS.
 *
 * Like SQS, it is durable when given a journal: a message is written there before `send`
 * resolves, and removed when deleted, so the dispatcher's "queued, then marked dispatched" holds
 * across a crash as it does in AWS: a kill -9 just after the mark loses no event. Memory holds
 * the working copy; the journal is read once, at the first use.
 */
export interface InProcessMessage {
  messageId: string;
  body: string;
  receiveCount: number;
  sentAt: number;
  /** When its delay ends (send time + delay). */
  availableAt: number;
  visibleAt: number;
  receiptHandle: string | null;
}

/** What the journal keeps of a message. Not its visibility: see restore(). */
export type JournaledMessage = Pick<InProcessMessage, 'messageId' | 'body' | 'receiveCount' | 'sentAt' | 'availableAt'>;

export interface QueueJournal {
  put(message: JournaledMessage): Promise<void>;
  remove(messageId: string): Promise<void>;
  load(): Promise<JournaledMessage[]>;
}

export interface ReceivedMessage {
  messageId: string;
  receiptHandle: string;
  body: string;
  receiveCount: number;
  sentAt: number;
}

export class InProcessQueue {
  private readonly messages = new Map<string, InProcessMessage>();
  private readonly waiters = new Set<() => void>();
  private restored: Promise<void> | undefined;

  constructor(
    private readonly options: { visibilityTimeoutMs: number; maxReceiveCount?: number; deadLetter?: InProcessQueue; journal?: QueueJournal },
  ) {}

  /** Resolves once the message is durable (journaled), as SendMessage resolves once SQS holds it. */
  async send(body: string, delayMs = 0): Promise<string> {
    await this.restore();
    const now = Date.now();
    const message: InProcessMessage = {
      messageId: randomUUID(),
      body,
      receiveCount: 0,
      sentAt: now,
      availableAt: now + delayMs,
      visibleAt: now + delayMs,
      receiptHandle: null,
    };
    await this.options.journal?.put(journaled(message));
    this.messages.set(message.messageId, message);
    for (const wake of this.waiters) wake();
    return message.messageId;
  }

  /** Up to `max` visible messages, each hidden for the visibility timeout from now. */
  async receive(max: number): Promise<ReceivedMessage[]> {
    await this.restore();
    const now = Date.now();
    const received: InProcessMessage[] = [];
    const redriven: InProcessMessage[] = [];
    for (const message of this.messages.values()) {
      if (received.length >= max) break;
      if (message.visibleAt > now) continue;
      if (this.options.deadLetter && this.options.maxReceiveCount !== undefined && message.receiveCount >= this.options.maxReceiveCount) {
        redriven.push(message);
        continue;
      }
      message.receiveCount += 1;
      message.receiptHandle = randomUUID();
      message.visibleAt = now + this.options.visibilityTimeoutMs;
      received.push(message);
    }
    for (const message of redriven) {
      this.messages.delete(message.messageId);
      await this.options.deadLetter!.send(message.body);
      await this.options.journal?.remove(message.messageId);
    }
    // The receive count survives a restart, so a message that crashes the sender still reaches
    // the dead-letter queue.
    if (this.options.journal) await Promise.all(received.map((message) => this.options.journal!.put(journaled(message))));
    return received.map(({ messageId, receiptHandle, body, receiveCount, sentAt }) => ({ messageId, receiptHandle: receiptHandle!, body, receiveCount, sentAt }));
  }

  async delete(receiptHandle: string): Promise<void> {
    for (const message of this.messages.values()) {
      if (message.receiptHandle !== receiptHandle) continue;
      this.messages.delete(message.messageId);
      await this.options.journal?.remove(message.messageId);
    }
  }

  /** When the next message becomes visible (ms from now), or null if the queue is empty. */
  nextVisibleInMs(): number | null {
    let next: number | null = null;
    for (const message of this.messages.values()) next = next === null ? message.visibleAt : Math.min(next, message.visibleAt);
    return next === null ? null : Math.max(0, next - Date.now());
  }

  /** Resolves when a message is sent or after `ms`, whichever comes first. */
  async waitForMessage(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.waiters.add(wake);
    });
  }

  /** Ends every waitForMessage now (a consumer that is stopping). */
  wakeWaiters(): void {
    for (const wake of this.waiters) wake();
  }

  /** Bodies of every message held (visible or not): for tests and devops' eyes. */
  peek(): string[] {
    return [...this.messages.values()].map((message) => message.body);
  }

  /**
   * Reads the journal once: the messages an earlier process left (sent and not deleted). Each is
   * visible when its delay ends, even one that process had received: the consumer holding it died
   * with the process, and the local runtime has no other, so waiting out its visibility timeout
   * would only delay the delivery.
   */
  private restore(): Promise<void> {
    this.restored ??= (async () => {
      const left = (await this.options.journal?.load()) ?? [];
      left.sort((a, b) => a.sentAt - b.sentAt);
      for (const message of left) {
        if (!this.messages.has(message.messageId)) this.messages.set(message.messageId, { ...message, visibleAt: message.availableAt, receiptHandle: null });
      }
    })().catch((error: unknown) => {
      this.restored = undefined;
      throw error;
    });
    return this.restored;
  }
}

function journaled({ messageId, body, receiveCount, sentAt, availableAt }: InProcessMessage): JournaledMessage {
  return { messageId, body, receiveCount, sentAt, availableAt };
}

export class InProcessDeliveryQueue implements DeliveryQueue {
  constructor(
    readonly queue: InProcessQueue,
    readonly deadLetter: InProcessQueue,
  ) {}

  async send(messages: QueuedMessage[]): Promise<void> {
    await Promise.all(messages.map(({ message, delayMs }) => this.queue.send(JSON.stringify(message), delayMs)));
  }

  async sendToDeadLetter(message: DeliveryMessage, reason: string): Promise<void> {
    await this.deadLetter.send(JSON.stringify({ ...message, reason }));
  }
}
