import * as v from 'valibot';
import { addressForms, addressOf, anyNetworkAddressInWords, isAnyNetworkAddress, networkNamed, registeredNetworks, type NetworkName } from '#functions/networks/registry';

/*
 * Address fields, checked by the registered networks (functions/networks/registry.ts). Apart from
 * ./fields.ts, which every route imports: these bring the networks' address code (curves, hashes)
 * into the bundles of the routes that take an address alone.
 */

/** The registered networks by name, for descriptions: `TRON, Ethereum, … or Arbitrum One`. */
export const NETWORK_TITLES = registeredNetworks()
  .map((network) => network.title)
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

/** An address of a registered network. A body with a `network` also checks the address is that
 * network's (addressOnItsNetwork); where none is named, any registered network's is taken. */
export const addressField = v.pipe(
  v.string(`must be a ${NETWORK_TITLES} address string`),
  v.metadata({
    pattern: addressForms().length === 1 ? addressForms()[0]!.pattern : addressForms().map((form) => `(?:${form.pattern})`).join('|'),
    description: anyNetworkAddressInWords(),
  }),
  v.check((value: string) => isAnyNetworkAddress(value), `must be a valid ${anyNetworkAddressInWords()}`),
);

/** A body's `address` (at `path`) must be an address of the body's `network`: a TRON address on
 * another network is refused naming the field. */
export const addressOnItsNetwork = <T extends { network: NetworkName }>(read: (input: T) => string | undefined, path: readonly [string, ...string[]]) =>
  v.forward<T, v.CheckIssue<T>, never>(
    v.check((input: T) => {
      const address = read(input);
      const network = networkNamed(input.network);
      // An address of no network is addressField's to report, once.
      return address === undefined || !isAnyNetworkAddress(address) || network.address.is(address);
    }, (issue) => `must be ${addressOf(networkNamed((issue.input as T).network))}, the network named by "network"`),
    path as never,
  );

