import type { Scenario } from '../scenario.ts';
import { balanceScenario } from './balance.ts';
import { depositsScenario } from './deposits.ts';
import { scannerScenario } from './scanner.ts';
import { webhooksScenario } from './webhooks.ts';
import { withdrawalsScenario } from './withdrawals.ts';

/** Every scenario `npm run bench` runs, in order. BENCH_SCENARIOS=name,name picks a subset. */
export const SCENARIOS: readonly Scenario[] = [balanceScenario, depositsScenario, withdrawalsScenario, scannerScenario, webhooksScenario];
