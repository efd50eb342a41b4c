import { observeEveryDynamoRequest } from '../test/support/dynamo-request-observer.ts';

/** DynamoDB requests this process has sent, by operation: `npm run bench` reports how many each
 * route costs (the goal: one read per GET, one transaction per write plus the idempotency record). */
export const dynamoRequestCounts = new Map<string, number>();

/**
 * Counts every DynamoDB request this process sends from now on, under the SDK's command name
 * (GetItemCommand…), as bench/support.ts's operationName reads it (test/support/dynamo-request-observer.ts).
 */
let counting = false;
export function countDynamoRequests(): void {
  // Once a process: a second call (a test that also imports this module) would count each request twice.
  if (counting) return;
  counting = true;
  observeEveryDynamoRequest('benchRequestCounter', (operation) => dynamoRequestCounts.set(operation, (dynamoRequestCounts.get(operation) ?? 0) + 1));
}
countDynamoRequests();
