import type { NetworkName } from '#functions/networks/names';
import type { ScreeningList } from '#functions/screening/screening-list';
import type { CambioAddresses } from '#functions/withdrawals/refused-destinations';
import { cambioAddressesOf } from './cambio-address-store.ts';
import { screeningListOf } from './screening-store.ts';
import type { TableStore } from './table-store.ts';

/**
 * A store over the table that also answers the two lists every destination of money is checked
 * against, whatever the company's allowlist says (../shared/networks.md, "Addresses Cambio refuses
 * as a destination"): Cambio's own addresses (cambio-address-store.ts), never a destination nor an
 * allowlist entry, and the screening list (screening-store.ts), whose addresses are never paid
 * or allowed. Each is read with the container's cache for the table.
 *
 * A mixin, as the stores that need it extend different bases (TableStore, DynamoCompanyStore).
 */
// `any[]`: what TypeScript asks of a mixin's base constructor.
export function withDestinationLists<Store extends abstract new (...args: any[]) => TableStore>(Store: Store) {
  abstract class WithDestinationLists extends Store implements CambioAddresses, ScreeningList {
    holdingsAt(forms: string[]) {
      return cambioAddressesOf(this.db, this.tableName).holdingsAt(forms);
    }

    listed(network: NetworkName, addresses: string[], options?: { fresh?: boolean }) {
      return screeningListOf(this.db, this.tableName).listed(network, addresses, options);
    }
  }
  return WithDestinationLists;
}
