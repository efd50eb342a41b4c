import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CambioAddressBook, CambioAddresses, CambioHolding, LearntHolding } from '#functions/withdrawals/refused-destinations';
import { cambioAddressItem } from './items/cambio-address.ts';
import { depositAddressItem } from './items/deposit-address.ts';
import { batchGetAll } from './queries.ts';

/**
 * How long a container trusts that an address is none of Cambio's. A new deposit address is never
 * one a payee already used (a fresh HD index, a CREATE2 salt from a new id), so what can change
 * under the answer is a hot wallet or an upgraded token contract the jobs record: within a minute.
 * An address found Cambio's stays so (nothing is ever taken off), and is kept for good.
 */
export const NOT_CAMBIO_FOR_MS = 60_000;

/** Far beyond the payees a container meets; a cache this full starts again rather than grow. */
const MAX_CACHED_ACCOUNTS = 100_000;

/** Per table, for the life of the container: each account's holdings (by its forms) and when they
 * were read; and what this container's jobs recorded already. */
const HOLDINGS = new Map<string, Map<string, { holdings: CambioHolding[]; readAt: number }>>();
const RECORDED = new Set<string>();

/**
 * Cambio's own addresses in the table (functions/withdrawals/refused-destinations.ts): the lookup the
 * API makes before money leaves, by key of each form of the account (its DepositAddress and its
 * CambioAddress: one BatchGetItem, read consistently, so a deposit address made a moment ago is
 * found), cached per container as the screening list's answers are (a payee paid again costs no
 * read); and the jobs' records of the hot wallets and token contracts they learn, each written
 * once per container.
 */
export function cambioAddressesOf(db: DynamoDBDocumentClient, tableName: string, now: () => number = Date.now): CambioAddresses & CambioAddressBook {
  let cache = HOLDINGS.get(tableName);
  if (!cache) HOLDINGS.set(tableName, (cache = new Map()));
  const known = cache;
  return {
    async holdingsAt(forms: string[]): Promise<CambioHolding[]> {
      const account = forms.join(' ');
      const cached = known.get(account);
      if (cached && (cached.holdings.length > 0 || now() - cached.readAt < NOT_CAMBIO_FOR_MS)) return cached.holdings;
      const keys = forms.flatMap((form) => [depositAddressItem.key(form), cambioAddressItem.key(form)]);
      const items = await batchGetAll(db, tableName, keys, { consistent: true, projection: { expression: '#type, #roles', names: { '#type': 'type', '#roles': 'roles' } } });
      const holdings = items.flatMap((item): CambioHolding[] => (cambioAddressItem.isOne(item) ? cambioAddressItem.holdingsOf(item) : depositAddressItem.isOne(item) ? [{ role: 'deposit_address' }] : []));
      if (known.size >= MAX_CACHED_ACCOUNTS) known.clear();
      known.set(account, { holdings, readAt: now() });
      return holdings;
    },

    async record(address: string, holding: LearntHolding): Promise<void> {
      const recorded = `${tableName}|${address}|${holding.role}:${holding.network}`;
      if (RECORDED.has(recorded)) return;
      const { key, expression, names, values } = cambioAddressItem.addRole(address, holding);
      await db.send(new UpdateCommand({ TableName: tableName, Key: key, UpdateExpression: expression, ExpressionAttributeNames: names, ExpressionAttributeValues: values }));
      RECORDED.add(recorded);
      // Where the API runs in the same process (the local runtime), it knows at once.
      known.clear();
    },
  };
}
