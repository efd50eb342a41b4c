import { randomUUID } from 'node:crypto';
import type { DeliveryMessage, DeliveryQueue, QueuedMessage } from '#domain/webhook-delivery';

/**
 * An in-memory stand-in for an SQS standard queue, for the local runtime: per-message delay,
 * a visibility timeout after each receive (a message not deleted in time comes back), a receive
 * count, and a redrive to a dead-letter queue after `maxReceiveCount` receives. The sender runs
 * the same batch handler over it as the Lambda runs over SQS.
 */
export interface InProcessMessage {
  messageId: string;
  body: string;
  receiveCount: number;
  sentAt: number;
  visibleAt: number;
  receiptHandle: string | null;
}

export class InProcessQueue {
  private readonly messages = new Map<string, InProcessMessage>();
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly options: { visibilityTimeoutMs: number; maxReceiveCount?: number; deadLetter?: InProcessQueue },
  ) {}

  send(body: string, delayMs = 0): string {
    const messageId = randomUUID();
    const now = Date.now();
    this.messages.set(messageId, { messageId, body, receiveCount: 0, sentAt: now, visibleAt: now + delayMs, receiptHandle: null });
    for (const wake of this.waiters) wake();
    return messageId;
  }

  /** Up to `max` visible messages, each hidden for the visibility timeout from now. */
  receive(max: number): { messageId: string; receiptHandle: string; body: string; receiveCount: number; sentAt: number }[] {
    const now = Date.now();
    const received = [];
    for (const message of this.messages.values()) {
      if (received.length >= max) break;
      if (message.visibleAt > now) continue;
      if (this.options.deadLetter && this.options.maxReceiveCount !== undefined && message.receiveCount >= this.options.maxReceiveCount) {
        this.messages.delete(message.messageId);
        this.options.deadLetter.send(message.body);
        continue;
      }
      message.receiveCount += 1;
      message.receiptHandle = randomUUID();
      message.visibleAt = now + this.options.visibilityTimeoutMs;
      received.push({ messageId: message.messageId, receiptHandle: message.receiptHandle, body: message.body, receiveCount: message.receiveCount, sentAt: message.sentAt });
    }
    return received;
  }

  delete(receiptHandle: string): void {
    for (const message of this.messages.values()) {
      if (message.receiptHandle === receiptHandle) this.messages.delete(message.messageId);
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

  purge(): void {
    this.messages.clear();
  }
}

export class InProcessDeliveryQueue implements DeliveryQueue {
  constructor(
    readonly queue: InProcessQueue,
    readonly deadLetter: InProcessQueue,
  ) {}

  async send(messages: QueuedMessage[]): Promise<void> {
    for (const { message, delayMs } of messages) this.queue.send(JSON.stringify(message), delayMs);
  }

  async sendToDeadLetter(message: DeliveryMessage, reason: string): Promise<void> {
    this.deadLetter.send(JSON.stringify({ ...message, reason }));
  }
}
