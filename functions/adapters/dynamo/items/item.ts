import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/** A stored item as the document client gives it: numbers wrapped (NumberValue), never floats. */
export type Item = Record<string, unknown>;

/** A company's own records live in its partition, so a read by id with another company's
 * partition finds nothing: that is what makes another company's id a 404. */
export const companyPartition = (companyId: string) => `COMPANY#${companyId}`;

/**
 * An item in DynamoDB JSON (a line of the daily export, a stream record's image) as the document
 * client would read it: numbers stay NumberValue, exact, for the records' `fromItem` to turn into
 * bigint. Never a float.
 */
export function fromDynamoJson(image: Record<string, AttributeValue>): Item {
  return unmarshall(image, { wrapNumbers: true }) as Item;
}

/** One line of a DynamoDB export (`{"Item": {...}}` in DynamoDB JSON), or null for a blank line. */
export function exportLineItem(line: string): Item | null {
  if (line.trim() === '') return null;
  const { Item } = JSON.parse(line) as { Item: Record<string, AttributeValue> };
  return fromDynamoJson(Item);
}

/**
 * A claim on a business reference within a company (`DepositReference`, `WithdrawalReference`):
 * created (`attribute_not_exists`) in its record's own transaction, so a reference names one record
 * per company, and read back on a clash to say which record holds it.
 */
export function referenceClaimItem(type: string, skPrefix: string, idAttribute: string) {
  const key = (companyId: string, reference: string) => ({ PK: companyPartition(companyId), SK: `${skPrefix}${reference}` });
  return {
    type,
    key,
    toItem: (record: { companyId: string; reference: string; id: string; createdAt: string }): Item => ({
      ...key(record.companyId, record.reference),
      type,
      [idAttribute]: record.id,
      createdAt: record.createdAt,
    }),
    /** The id of the record holding the reference, from its claim (null if the claim is gone). */
    holderFromItem: (item: Item | undefined): string | null => (item?.[idAttribute] as string | undefined) ?? null,
  };
}

export type ReferenceClaimItem = ReturnType<typeof referenceClaimItem>;

/** The fields a stored deposit and a stored withdrawal begin with (domain/usdt-on-tron.ts). */
export const usdtOnTronFromItem = (item: Item) => ({
  id: item.id as string,
  companyId: item.companyId as string,
  method: 'usdt' as const,
  reference: item.reference as string,
  network: 'tron' as const,
  address: item.address as string,
});
