import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ApiError } from '#domain/errors';

/** The refusals that a cancelled money transaction can mean, shared by the stores. */
export const insufficientBalance = (): ApiError =>
  new ApiError('INSUFFICIENT_BALANCE', 'The available balance is not enough for this operation');

/** A reference claim already exists: read it so the caller learns which record holds it. */
export async function duplicateReference(
  db: DynamoDBDocumentClient,
  tableName: string,
  referenceKey: Record<string, string>,
  idAttribute: string,
  what: 'deposit' | 'withdrawal',
): Promise<ApiError> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: referenceKey, ConsistentRead: true }));
  return new ApiError('DUPLICATE_REFERENCE', `A ${what} with this reference already exists`, {
    existingId: (Item?.[idAttribute] as string | undefined) ?? null,
  });
}
