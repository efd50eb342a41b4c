import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, NumberValue } from '@aws-sdk/lib-dynamodb';
import { awsClient } from '../aws-clients.ts';

/** DynamoDB requests this process has sent, by operation: `npm run bench` reports how many each
 * route costs (the goal: one read per GET, one transaction per write plus the idempotency record). */
export const dynamoRequestCounts = new Map<string, number>();

/**
 * A document client that never turns a stored number into a JS float: numbers come back wrapped
 * (NumberValue) and become bigint in the entity mappers. `endpoint` points at DynamoDB Local. Traced
 * where the function traces (#adapters/aws-clients).
 */
export function createDocumentClient(endpoint?: string): DynamoDBDocumentClient {
  const client = awsClient(
    new DynamoDBClient(
      endpoint
        ? { endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 3 }
        : {},
    ),
  );
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = context.commandName ?? 'unknown';
      dynamoRequestCounts.set(operation, (dynamoRequestCounts.get(operation) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: 'cambioRequestCounter' },
  );
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
    unmarshallOptions: { wrapNumbers: true },
  });
}

/** Reads a stored number as bigint; amounts are integers in minor units by construction. */
export function toBigInt(value: unknown): bigint {
  if (value instanceof NumberValue) return BigInt(value.toString());
  if (typeof value === 'bigint') return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  throw new Error(`Stored value is not an integer: ${String(value)}`);
}
