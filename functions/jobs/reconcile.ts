import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { reconcileHoldings, type Reconciliation } from '#domain/reconciliation';
import { dynamoFromEnv } from '#adapters/runtime';
import { chainFromEnv } from '#adapters/chain/from-env';
import { SandboxChain } from '#adapters/chain/sandbox-chain';
import { ledgerSide } from '#adapters/dynamo/reconciliation-store';
import { signerFromEnv } from '#adapters/signer/from-env';
import { MetricUnit, runJob } from '#adapters/observability';

const { db, tableName } = dynamoFromEnv();
const { chain, settings } = chainFromEnv(db, tableName);
// Only the hot wallet's address is read (kms:GetPublicKey); this function cannot sign.
const hotWallet = signerFromEnv();

export type ScheduledReconciliation = Reconciliation | { skipped: string };

/**
 * Scheduled reconciliation (functions/domain/reconciliation.ts), the same comparison as `npm run
 * reconcile`: the ledger side is one full table Scan, the chain side the USDT held by the hot
 * wallet and every deposit address. The sandbox chain answers all balances from one read; on
 * TronGrid that would be one call per deposit address in a single run, which does not fit a
 * Lambda run at production's address count yet, so the job says so and compares nothing there.
 */
export async function reconcileNow(): Promise<ScheduledReconciliation> {
  if (!(chain instanceof SandboxChain)) {
    return { skipped: 'reconciliation reads every deposit address balance; not built for TronGrid yet (sandbox chain only)' };
  }
  return reconcileHoldings({
    ledger: () => ledgerSide(db, tableName),
    usdtBalances: () => chain.balances(settings.usdtContract),
    minedSuccessfully: async (txHash) => (await chain.receipt(txHash))?.result === 'SUCCESS',
    hotWalletAddress: () => hotWallet.address(),
  });
}

/** USDT as a metric value. Metrics only: money itself never leaves bigint (STYLE.md). */
const usdt = (micros: bigint) => Number(micros) / 1e6;

/**
 * Publishes ReconcileShortfallUsdt (owed more than held: the alarm) and ReconcileSurplusUsdt (held
 * more than owed: a deposit not yet scanned, or a USDT float sent to the hot wallet by hand).
 */
export const handler = middy().handler(async (_event: unknown, context: Context) =>
  runJob('reconcile', context, async ({ log, metrics }) => {
    const result = await reconcileNow();
    if ('skipped' in result) {
      log.warn('reconcile skipped', { reason: result.skipped });
      return result;
    }
    metrics.addMetric('ReconcileShortfallUsdt', MetricUnit.Count, result.difference < 0n ? usdt(-result.difference) : 0);
    metrics.addMetric('ReconcileSurplusUsdt', MetricUnit.Count, result.difference > 0n ? usdt(result.difference) : 0);
    if (!result.balanced) log.warn('reconcile mismatch', { difference: result.difference, onChain: result.onChain, owed: result.owed });
    return result;
  }),
);
