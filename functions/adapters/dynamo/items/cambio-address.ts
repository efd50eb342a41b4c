import type { LearntHolding } from '#functions/withdrawals/refused-destinations';
import type { NetworkName } from '#functions/networks/names';
import { globalRecord, type Item } from './item.ts';

/**
 * The one owner of a stored `CambioAddress`: an address of Cambio's own that no deposit record names,
 * recorded by the jobs that learn it, so that the API refuses to pay it with a read by key
 * (functions/withdrawals/refused-destinations.ts): a network's hot wallet (the withdrawal sender,
 * from its signer; the local runtime at start) and the token contracts USDT lives in (the sender,
 * from the chain: the stage's, and the upgraded one once the issuer deprecates it). One item per
 * address in its network's canonical form; `roles`, a string set, says what it is on which network
 * (`hot_wallet:tron`, `token_contract:ethereum`), added to and never taken from: an address that was
 * Cambio's stays refused.
 */
export const cambioAddressItem = {
  ...globalRecord('CambioAddress', 'CAMBIO_ADDRESS', 'CAMBIO_ADDRESS'),
  /** The UpdateItem that adds `holding` to the address's roles (made with the item when it is the first). */
  addRole: (address: string, holding: LearntHolding) => ({
    key: cambioAddressItem.key(address),
    expression: 'SET #type = :type, address = :address ADD #roles :role',
    names: { '#type': 'type', '#roles': 'roles' },
    values: { ':type': cambioAddressItem.type, ':address': address, ':role': new Set([`${holding.role}:${holding.network}`]) },
  }),
  holdingsOf: (item: Item): LearntHolding[] =>
    [...((item.roles as Set<string> | undefined) ?? [])].map((role) => {
      const [kind, network] = role.split(':') as [LearntHolding['role'], NetworkName];
      return { role: kind, network };
    }),
  isOne: (item: Item): boolean => item.type === cambioAddressItem.type,
};
