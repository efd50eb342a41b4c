import * as v from 'valibot';
import { BASE58_ADDRESS_PATTERN } from './address-pattern.ts';

/** TRON's own stage settings (functions/settings/schema.ts takes them through
 * functions/networks/settings-registry.ts): valibot alone, as every function parses settings. */
export const TRON_STAGE_SETTINGS = {
  /** The USDT contract the stage's chain reads (config/stages.ts: mainnet's, or the sandbox's). */
  USDT_CONTRACT: v.pipe(v.string(), v.regex(BASE58_ADDRESS_PATTERN, 'is not a TRON address')),
};

/** The contracts of TRON the stage's settings name (functions/withdrawals/refused-destinations.ts):
 * its USDT. Cambio has no contract of its own on TRON. */
export const tronStageContracts = (settings: { USDT_CONTRACT: string }): string[] => [settings.USDT_CONTRACT];

/** TRON is open on every stage. */
export const tronIsOpen = (): boolean => true;
