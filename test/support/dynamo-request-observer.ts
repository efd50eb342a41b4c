import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

type AnyClient = { middlewareStack: DynamoDBClient['middlewareStack']; config: { serviceId?: string } };
type Send = (this: AnyClient, ...args: unknown[]) => Promise<unknown>;

/** What an observer is shown of each request: the SDK's command name (GetItemCommand…) and its input. */
export type DynamoRequestObserver = (commandName: string, input: Record<string, unknown>) => void;

/**
 * Shows `observe` every DynamoDB request this process sends from now on, without the production
 * client knowing: the handlers create their clients at module scope, out of a test's or the
 * bench's reach, so the SDK's base client's `send` is wrapped to add a middleware named `name` to
 * each DynamoDB client's stack the first time it sends. A document client shares its base
 * client's stack, so each request is shown once, its input as the base client sends it.
 */
export function observeEveryDynamoRequest(name: string, observe: DynamoRequestObserver): void {
  const observed = new WeakSet<object>();
  const base = Object.getPrototypeOf(DynamoDBClient.prototype) as { send: Send };
  const send = base.send;
  base.send = function (this: AnyClient, ...args: unknown[]) {
    if (this.config.serviceId === 'DynamoDB' && !observed.has(this.middlewareStack)) {
      observed.add(this.middlewareStack);
      this.middlewareStack.add(
        (next, context) => async (request) => {
          observe(context.commandName ?? 'unknown', (request.input ?? {}) as Record<string, unknown>);
          return next(request);
        },
        { step: 'initialize', name },
      );
    }
    return send.apply(this, args);
  };
}
