import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { reconcileHoldings, type HoldingsReconciliation } from '#functions/ledger/reconciliation';
import { dynamoFrom } from '#adapters/runtime';
import { networksOpenIn } from '#functions/networks/open-networks';
import { chainsOf } from '#functions/networks/chain-registry';
import { ledgerSide } from '#adapters/dynamo/reconciliation-store';
import { hotWalletOf } from '#functions/networks/hot-wallet-registry';
import { runJob } from '#adapters/observability';
import { publishReconciliation } from './job-metrics.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('jobs/reconcile');
const { db, tableName } = dynamoFrom(settings);
// Each open network, read from its own chain; its hot wallet's address from its family's key
// (functions/networks/hot-wallet-registry.ts; kms:GetPublicKey only: this function cannot sign).
const networks = networksOpenIn(settings).map((network) => chainsOf(network).reconcileSources(db, tableName, settings, hotWalletOf(network)(settings)));

/**
 * Scheduled reconciliation (functions/ledger/reconciliation.ts), the same comparison as `npm run
 * reconcile`, in total and per network. The ledger side is one parallel table Scan, filtered to the
 * kinds of item it reads, plus the GSI1 partitions of deposit addresses that may still hold USDT;
 * the chain side is each network's hot wallet and those addresses. A sandbox chain answers every
 * deposit address from one read, so it reads them all and also reports a deposit nobody has
 * scanned yet; TronGrid costs a call per address, so on TRON only the listed ones are read. Each EVM
 * network (and Solana) reads, beyond the list, a page of every deposit address Cambio made a run
 * (EVERY_ADDRESS_PAGE of the listing, those of its form), the next run going on where this one
 * stopped, so USDT paid to one on another network than its deposit's is reported there within one
 * turn through them (how long one takes: everyDepositAddress in the run's outcome). Chains are
 * read CHAIN_READ_CHUNK addresses at a time.
 */
export async function reconcileNow(): Promise<HoldingsReconciliation> {
  return reconcileHoldings({
    ledger: () => ledgerSide(db, tableName, { every: networks.filter((network) => network.readsAllBalancesAtOnce).map((network) => network.network) }),
    networks,
  });
}

/**
 * Publishes ReconcileShortfallUsdt (owed more than held) and ReconcileSurplusUsdt (held more than
 * owed: a payout that never left, a USDT float sent to a hot wallet by hand, or on the sandbox a
 * deposit not yet scanned), each alarmed beyond dust: for the total without a dimension, and for
 * each network with its `Network` (docs/reconciliation.md says what a network's figure means).
 * ReconcileUnexplainedUsdt, the same ways: USDT at deposit addresses the ledger lists nothing at (a
 * payment on another EVM network than its deposit's, or one not yet scanned), owed to no one and
 * so in neither of the two (netted, it would hide a shortfall of its size); the total's is alarmed
 * beyond dust, as it was while it counted as a surplus. ReconcileAddressesRead: deposit addresses
 * read (on a real network the run's duration grows with it, against the function's 5-minute timeout;
 * beyond the ledger's list, at most EVERY_ADDRESS_PAGE a network a run).
 */
export const handler = middy().handler(async (_event: unknown, context: Context) =>
  runJob('reconcile', context, async ({ log, metrics }) => {
    const result = await reconcileNow();
    publishReconciliation(metrics, result);
    for (const network of result.networks) {
      if (network.mismatch) log.warn(`reconcile mismatch on ${network.network}: ${network.mismatch}`, { network: network.network, difference: network.difference, onChain: network.onChain, owed: network.owed });
      // Not money owed to anyone, so not alarmed: native coin waits for the next sweep, dust is below 1e-6 USDT.
      if (network.nativeAtDepositAddresses?.length) log.info(`native coin at deposit addresses on ${network.network}`, { network: network.network, addresses: network.nativeAtDepositAddresses });
      if (network.dust && network.dust.held > network.dust.recorded) log.warn(`unrecorded dust on ${network.network}`, { network: network.network, held: network.dust.held, recorded: network.dust.recorded });
      // USDT at a deposit address the ledger has nothing at (paid on another network than its deposit's): not counted as held.
      for (const { address, amount } of network.unexplainedUsdt) log.warn(`USDT at a deposit address on ${network.network} that the ledger does not explain`, { network: network.network, address, amount });
    }
    // The run's line (its outcome) says how much of every deposit address it read and how long a
    // turn through them takes (everyDepositAddress). A page whose end was not kept is read again by
    // the next run, and the comparison was made: an error to look at, not a failed run.
    if (result.everyDepositAddress?.notKept !== undefined) log.error("reconcile did not keep where its page of every deposit address ended: the next run reads it again", { error: result.everyDepositAddress.notKept });
    if (result.mismatch) log.warn(`reconcile mismatch: ${result.mismatch}`, { mismatch: result.mismatch, difference: result.difference, onChain: result.onChain, owed: result.owed });
    return result;
  }),
);
