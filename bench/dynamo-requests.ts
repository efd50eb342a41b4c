import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** DynamoDB requests this process has sent, by operation: `npm run bench` reports how many each
 * route costs (the goal: one read per GET, one transaction per write plus the idempotency record). */
export const dynamoRequestCounts = new Map<string, number>();

type AnyClient = { middlewareStack: DynamoDBClient['middlewareStack']; config: { serviceId?: string } };
type Send = (this: AnyClient, ...args: unknown[]) => Promise<unknown>;

const counted = new WeakSet<object>();

/**
 * Counts every DynamoDB request this process sends from now on, without the production client
 * knowing: the handlers create their clients at module scope, out of the bench's reach, so the
 * SDK's base client's `send` is wrapped here to add a counting middleware to each DynamoDB client's
 * stack the first time it sends. A document client shares its base client's stack, so each request
 * counts once, under the SDK's command name (GetItemCommand…), as bench/support.ts's operationName reads it.
 */
export function countDynamoRequests(): void {
  const base = Object.getPrototypeOf(DynamoDBClient.prototype) as { send: Send };
  const send = base.send;
  base.send = function (this: AnyClient, ...args: unknown[]) {
    if (this.config.serviceId === 'DynamoDB' && !counted.has(this.middlewareStack)) {
      counted.add(this.middlewareStack);
      this.middlewareStack.add(
        (next, context) => async (input) => {
          const operation = context.commandName ?? 'unknown';
          dynamoRequestCounts.set(operation, (dynamoRequestCounts.get(operation) ?? 0) + 1);
          return next(input);
        },
        { step: 'initialize', name: 'benchRequestCounter' },
      );
    }
    return send.apply(this, args);
  };
}
