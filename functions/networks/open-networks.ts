import { NETWORK_NAMES, type NetworkName } from './names.ts';
import { isOpenIn, type OpeningSettings } from './settings-registry.ts';

/**
 * The networks a stage's settings open, in NETWORK_NAMES' order, the one answer deposits,
 * withdrawals, the jobs, reconcile and the dashboard give (and what a refusal lists): each family
 * says which of its networks a stage opens (settings-registry.ts).
 */
export const networksOpenIn = (settings: OpeningSettings): NetworkName[] => NETWORK_NAMES.filter((network) => isOpenIn(network, settings));
