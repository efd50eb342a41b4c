import { networksOpenIn } from '../../functions/networks/open-networks.ts';
import { NETWORK_STAGE_SETTINGS } from '../../functions/networks/settings-registry.ts';
import { parseSettings } from '../../functions/settings/schema.ts';
import type { StageConfig } from '../../config/stages.ts';
import type { Binder } from '../api-function.ts';
import type { StageScope } from '../stage-scope.ts';
import type { FamilyOnStage } from './network-stack.ts';
import { tronStack } from './tron.ts';
import { evmStack } from './evm.ts';
import { solanaStack } from './solana.ts';

/** Each family's part of the stack (./network-stack.ts), in functions/networks/names.ts's order:
 * TRON, the first network, first. A family is one line here. */
const NETWORK_FAMILY_STACKS = [tronStack, evmStack, solanaStack] as const;

/** Every family's part of the stage, made once (lib/chain-jobs.ts). */
export const familiesOnStage = (stack: StageScope, config: StageConfig): FamilyOnStage[] => NETWORK_FAMILY_STACKS.map((family) => family.onStage(stack, config));

/** What a money route binds to read a destination on the chain, whichever family's. */
export const destinationReadsOf = (config: StageConfig): Binder[] => NETWORK_FAMILY_STACKS.flatMap((family) => family.destinationReads(config));

/** Executions reserved for each signing job, from the stage's figures alone: one per network the
 * stage opens as the functions see it (functions/networks/open-networks.ts), each network's run
 * beside the others'. The stack reserves one per network the families open (lib/chain-jobs.ts); the
 * infra tests hold the two to the same count, and the capacity model sums it. */
export const signingJobConcurrencyOf = (config: StageConfig): number =>
  networksOpenIn(parseSettings(Object.keys(NETWORK_STAGE_SETTINGS) as (keyof typeof NETWORK_STAGE_SETTINGS)[], config.functionEnvironment)).length;
