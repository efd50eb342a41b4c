import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { duplicateReference } from '#functions/shared/errors';
import type { ReferenceClaimItem } from './items/item.ts';
import { readItem } from './queries.ts';

/** The id of the company's record holding a reference, read consistently; null when none does. */
export async function referenceHolder(db: DynamoDBDocumentClient, tableName: string, claim: ReferenceClaimItem, companyId: string, reference: string): Promise<string | null> {
  return claim.holderFromItem(await readItem(db, tableName, claim.key(companyId, reference)));
}

/** A reference claim already exists: read it so the caller learns which record holds it. */
export async function existingReference(
  db: DynamoDBDocumentClient,
  tableName: string,
  claim: ReferenceClaimItem,
  record: { companyId: string; reference: string },
  what: 'deposit' | 'withdrawal',
): Promise<Error> {
  return duplicateReference(what, await referenceHolder(db, tableName, claim, record.companyId, record.reference));
}
