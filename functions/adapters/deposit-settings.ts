import type { SliceSettings } from '#functions/settings/functions';
import type { DepositSettings } from '#functions/deposits/deposits';
import { keysOf } from '#functions/networks/key-registry';
import { networksOpenIn } from '#functions/networks/open-networks';
import { stageContractsOf } from './config.ts';

/* Apart from ./config.ts, which routes without deposits import: this one brings every network's
 * keys (curves, HD derivation) into the bundle. */

/** Each network's deposit terms on the stage, by the network's keys (functions/networks/network.ts). */
export function depositSettingsFrom(settings: SliceSettings<'deposits' | 'contracts'>): DepositSettings {
  return {
    termsOn: (network, deposit) => keysOf(network).depositTerms(deposit, settings),
    openNetworks: () => networksOpenIn(settings),
    contracts: stageContractsOf(settings),
  };
}
