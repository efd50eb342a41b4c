import { TRON_STAGE_SETTINGS } from './tron/settings.ts';
import { EVM_STAGE_SETTINGS } from './evm/settings.ts';

/** The registered networks' own stage settings, for functions/settings/schema.ts. Apart from
 * registry.ts because every function parses settings, and these must bundle nothing but valibot. */
export const NETWORK_STAGE_SETTINGS = { ...TRON_STAGE_SETTINGS, ...EVM_STAGE_SETTINGS };
