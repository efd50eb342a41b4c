import type { Scenario } from '../scenario.ts';
import { activityScenario } from './activity.ts';
import { balanceScenario } from './balance.ts';
import { coldStartScenario } from './cold-start.ts';
import { depositsScenario } from './deposits.ts';
import { evmPayoutsScenario } from './evm-payouts.ts';
import { evmScannerScenario } from './evm-scanner.ts';
import { fairnessScenario } from './fairness.ts';
import { ledgerCsvScenario } from './ledger-csv.ts';
import { loadKneeScenario } from './load-knee.ts';
import { payoutsScenario } from './payouts.ts';
import { scannerScenario } from './scanner.ts';
import { solanaPayoutsScenario } from './solana-payouts.ts';
import { solanaScannerScenario } from './solana-scanner.ts';
import { SOAK_MINUTES, soakScenario } from './soak.ts';
import { statementScenario } from './statement.ts';
import { webhooksScenario } from './webhooks.ts';
import { withdrawalsScenario } from './withdrawals.ts';

/** Every scenario `npm run bench` runs, in order. BENCH_SCENARIOS=name,name picks a subset. The soak
 * is opt-in: it is registered only when BENCH_SOAK_MINUTES is set (> 0). */
export const SCENARIOS: readonly Scenario[] = [
  balanceScenario,
  depositsScenario,
  withdrawalsScenario,
  payoutsScenario,
  evmPayoutsScenario,
  solanaPayoutsScenario,
  scannerScenario,
  evmScannerScenario,
  solanaScannerScenario,
  webhooksScenario,
  loadKneeScenario,
  coldStartScenario,
  ledgerCsvScenario,
  activityScenario,
  statementScenario,
  fairnessScenario,
  ...(SOAK_MINUTES > 0 ? [soakScenario] : []),
];
