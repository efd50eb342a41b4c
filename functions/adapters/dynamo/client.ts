import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, NumberValue } from '@aws-sdk/lib-dynamodb';
import { awsClient } from '../aws-clients.ts';

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
