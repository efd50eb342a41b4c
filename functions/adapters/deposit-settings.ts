import type { SliceSettings } from '#functions/settings/functions';
import type { DepositSettings } from '#functions/deposits/deposits';
import type { JobTable } from '#functions/networks/network';
import { keysOf } from '#functions/networks/key-registry';
import { networksOpenIn } from '#functions/networks/open-networks';
import { stageContractsOf } from './config.ts';
import { destinationChecksOf } from '#functions/networks/destination-registry';

/* Apart from ./config.ts, which routes without deposits import: this one brings every network's
 * keys (curves, HD derivation) into the bundle. */

/** Each network's deposit terms on the stage, by the network's keys (functions/networks/network.ts);
 * `table`: where a network whose addresses cannot be derived from public data reads them (Solana's). */
export function depositSettingsFrom(settings: SliceSettings<'deposits' | 'contracts'>, table?: JobTable): DepositSettings {
  return {
    termsOn: async (network, deposit) => keysOf(network).depositTerms(deposit, settings, table),
    openNetworks: () => networksOpenIn(settings),
    contracts: stageContractsOf(settings),
    destinations: destinationChecksOf(settings),
  };
}
