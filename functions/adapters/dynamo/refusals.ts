import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { duplicateReference } from '#functions/shared/errors';
import type { ReferenceClaimItem } from './items/item.ts';
import { readItem } from './queries.ts';

/** A reference claim already exists: read it so the caller learns which record holds it. */
export async function existingReference(
  db: DynamoDBDocumentClient,
  tableName: string,
  claim: ReferenceClaimItem,
  record: { companyId: string; reference: string },
  what: 'deposit' | 'withdrawal',
): Promise<Error> {
  return duplicateReference(what, claim.holderFromItem(await readItem(db, tableName, claim.key(record.companyId, record.reference))));
}
