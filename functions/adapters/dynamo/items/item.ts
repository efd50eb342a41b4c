import type { NetworkName } from '#functions/networks/names';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/** A stored item as the document client gives it: numbers wrapped (NumberValue), never floats. */
export type Item = Record<string, unknown>;

/** A company's own records live in its partition, so a read by id with another company's
 * partition finds nothing: that is what makes another company's id a 404. */
export const companyPartition = (companyId: string) => `COMPANY#${companyId}`;

/** A dashboard person's partition (their Cognito `sub`): their profile, last sign-out, password reset. */
export const personPartition = (personId: string) => `PERSON#${personId}`;

/** The one record of its kind in a partition, under a fixed sort key; `head` as for companyRecord. */
function singleRecord(partitionOf: (id: string) => string) {
  return (type: string, sk: string) => {
    const key = (id: string) => ({ PK: partitionOf(id), SK: sk });
    return { type, key, head: (id: string) => ({ ...key(id), type }) };
  };
}

/** A person's profile, last sign-out, password reset, two-factor mark. */
export const personRecord = singleRecord(personPartition);

/** A company's profile and its settings (the withdrawal allowlist and limit, the two-factor rule). */
export const companySetting = singleRecord(companyPartition);

/** A record found by its own global id, in a partition of its own (`<PREFIX>#<id>`) under a fixed
 * sort key: a deposit address, a transaction claim, a scan cursor. */
export const globalRecord = (type: string, prefix: string, sk: string) => singleRecord((id) => `${prefix}#${id}`)(type, sk);

/**
 * The keys of a record kept in its company's partition as `<PREFIX><id>`: one GetItem by id, and
 * one Query on the prefix for the company's records (oldest first where ids are ULIDs). `head` is
 * what every stored item of the record begins with: its key and its entity `type`.
 */
export function companyRecord(type: string, skPrefix: string) {
  const key = (companyId: string, id: string) => ({ PK: companyPartition(companyId), SK: `${skPrefix}${id}` });
  return {
    type,
    key,
    ofCompany: (companyId: string) => ({ PK: companyPartition(companyId), skPrefix }),
    head: (companyId: string, id: string) => ({ ...key(companyId, id), type }),
    isOne: (item: Item): boolean => item.type === type,
  };
}

/**
 * A record found by its own global id (an API key by key id, an invitation by the hash of its
 * token) and also listed by company in GSI1: `key` finds one, `keys` is every key an item of it is
 * stored under (and its `type`), `ofCompany` queries a company's.
 */
export function companyListed<T extends string>(type: T, prefix: string) {
  const record = globalRecord(type, prefix, prefix);
  return {
    ...record,
    type,
    keys: (companyId: string, id: string) => ({ ...record.head(id), GSI1PK: companyPartition(companyId), GSI1SK: `${prefix}#${id}` }),
    ofCompany: (companyId: string) => ({ GSI1PK: companyPartition(companyId), skPrefix: `${prefix}#` }),
  };
}

/**
 * A record stored as its own fields (`...record` beside its keys) read back: the named fields and
 * nothing else (keys, `type`, index marks stay behind), an absent one as null. Only for records whose
 * fields are strings, booleans, lists or maps as written; a number needs its own `toBigInt`.
 */
export function storedFields<T>(item: Item, names: readonly (keyof T & string)[]): T {
  return Object.fromEntries(names.map((name) => [name, item[name] ?? null])) as T;
}

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
  const { key, head } = companyRecord(type, skPrefix);
  return {
    type,
    key,
    toItem: (record: { companyId: string; reference: string; id: string; createdAt: string }): Item => ({
      ...head(record.companyId, record.reference),
      [idAttribute]: record.id,
      createdAt: record.createdAt,
    }),
    /** The id of the record holding the reference, from its claim (null if the claim is gone). */
    holderFromItem: (item: Item | null): string | null => (item?.[idAttribute] as string | undefined) ?? null,
  };
}

export type ReferenceClaimItem = ReturnType<typeof referenceClaimItem>;

/** The fields a stored deposit and a stored withdrawal begin with (`UsdtTransfer`). */
export const usdtTransferFromItem = (item: Item) => ({
  id: item.id as string,
  companyId: item.companyId as string,
  method: 'usdt' as const,
  reference: item.reference as string,
  network: item.network as NetworkName,
  address: item.address as string,
});
