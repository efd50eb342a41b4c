import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { duplicateReference } from '#domain/errors';
import type { ReferenceClaimItem } from './items/item.ts';

/** A reference claim already exists: read it so the caller learns which record holds it. */
export async function existingReference(
  db: DynamoDBDocumentClient,
  tableName: string,
  claim: ReferenceClaimItem,
  record: { companyId: string; reference: string },
  what: 'deposit' | 'withdrawal',
): Promise<Error> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: claim.key(record.companyId, record.reference), ConsistentRead: true }));
  return duplicateReference(what, claim.holderFromItem(Item));
}
