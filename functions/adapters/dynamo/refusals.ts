import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { duplicateReference } from '#domain/errors';

/** A reference claim already exists: read it so the caller learns which record holds it. */
export async function existingReference(
  db: DynamoDBDocumentClient,
  tableName: string,
  referenceKey: Record<string, string>,
  idAttribute: string,
  what: 'deposit' | 'withdrawal',
): Promise<Error> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: referenceKey, ConsistentRead: true }));
  return duplicateReference(what, (Item?.[idAttribute] as string | undefined) ?? null);
}
