import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { reconcileHoldings, type Reconciliation } from '#functions/ledger/reconciliation';
import { dynamoFrom } from '#adapters/runtime';
import { HOT_WALLET_NETWORK } from '#functions/networks/names';
import { chainsOf } from '#functions/networks/chain-registry';
import { ledgerSide } from '#adapters/dynamo/reconciliation-store';
import { signerFrom } from '#adapters/signer/from-settings';
import { MetricUnit, runJob } from '#adapters/observability';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('jobs/reconcile');
const { db, tableName } = dynamoFrom(settings);
// The hot wallet's network: payouts, sweeps and reconciliation run on TRON alone so far.
const network = HOT_WALLET_NETWORK;
const { chain, settings: chainSettings } = chainsOf(network).connect(db, tableName, settings);
// Only the hot wallet's address is read (kms:GetPublicKey); this function cannot sign.
const hotWallet = signerFrom(settings, network);

/**
 * Scheduled reconciliation (functions/ledger/reconciliation.ts), the same comparison as `npm run
 * reconcile`. The ledger side is one full table Scan plus the GSI1 partitions of deposit
 * addresses that may still hold USDT; the chain side is the hot wallet and those addresses. A
 * sandbox chain answers every deposit address from one read, so it reads them all and also reports
 * a deposit nobody has scanned yet; a real network's provider costs a call per address, so only
 * the listed ones are read.
 */
export async function reconcileNow(): Promise<Reconciliation & { depositAddressesRead: number }> {
  return reconcileHoldings({
    ledger: () => ledgerSide(db, tableName, chainSettings.readsAllBalancesAtOnce ? 'every' : 'unswept'),
    usdtBalances: (addresses) => chain.tokenBalances(chainSettings.usdtContract, addresses),
    minedSuccessfully: async (txHash) => (await chain.receipt(txHash))?.result === 'SUCCESS',
    hotWalletAddress: () => hotWallet.address(),
  });
}

/** USDT as a metric value. Metrics only: money itself never leaves bigint (STYLE.md). */
const usdt = (micros: bigint) => Number(micros) / 1e6;

/**
 * Publishes ReconcileShortfallUsdt (owed more than held) and ReconcileSurplusUsdt (held more than
 * owed: a payout that never left, a USDT float sent to the hot wallet by hand, or on the sandbox a
 * deposit not yet scanned), each alarmed beyond dust, and ReconcileAddressesRead (deposit addresses read: on a real network the run's duration
 * grows with it, against the function's 5-minute timeout).
 */
export const handler = middy().handler(async (_event: unknown, context: Context) =>
  runJob('reconcile', context, async ({ log, metrics }) => {
    const result = await reconcileNow();
    metrics.addMetric('ReconcileShortfallUsdt', MetricUnit.Count, result.difference < 0n ? usdt(-result.difference) : 0);
    metrics.addMetric('ReconcileSurplusUsdt', MetricUnit.Count, result.difference > 0n ? usdt(result.difference) : 0);
    metrics.addMetric('ReconcileAddressesRead', MetricUnit.Count, result.depositAddressesRead);
    if (result.mismatch) log.warn(`reconcile mismatch: ${result.mismatch}`, { mismatch: result.mismatch, difference: result.difference, onChain: result.onChain, owed: result.owed });
    return result;
  }),
);
