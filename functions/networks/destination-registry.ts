import type { SliceSettings } from '../settings/functions.ts';
import type { DestinationVerdict, NetworkDestinations } from './network.ts';
import type { NetworkName } from './names.ts';
import { solanaDestinations } from './solana/destinations.ts';

/** A network whose address form always tells whether USDT may go there (TRON's, the EVM chains'). */
const FORM_TELLS: NetworkDestinations = { checkerFor: () => null };

/** Each registered network's chain read of a destination its form cannot settle (network.ts
 * AddressFormat.readsChainToAccept): Solana's token accounts. */
const DESTINATIONS: { readonly [N in NetworkName]: NetworkDestinations } = {
  tron: FORM_TELLS,
  ethereum: FORM_TELLS,
  bsc: FORM_TELLS,
  polygon: FORM_TELLS,
  arbitrum: FORM_TELLS,
  solana: solanaDestinations,
};

/** What a destination the form cannot settle is on `network`, by the stage's settings; null where
 * the stage has no way to read it (the destination is then refused). Built once per cold start. */
export type DestinationChecks = (network: NetworkName, canonical: string) => Promise<DestinationVerdict> | null;

export function destinationChecksOf(settings: SliceSettings<'contracts'>): DestinationChecks {
  const checkers = new Map<NetworkName, ((canonical: string) => Promise<DestinationVerdict>) | null>();
  return (network, canonical) => {
    if (!checkers.has(network)) checkers.set(network, DESTINATIONS[network].checkerFor(settings));
    return checkers.get(network)?.(canonical) ?? null;
  };
}
