import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { sendWithdrawals, settleWithdrawals, type SendingDeps } from '#functions/withdrawals/withdrawal-sending';
import type { Log } from '#functions/shared/log';
import { dynamoFrom } from '#adapters/runtime';
import { HOT_WALLET_NETWORK } from '#functions/networks/names';
import { chainsOf } from '#functions/networks/chain-registry';
import { transfersOf } from '#functions/networks/transfer-registry';
import { DynamoTransactionClaims } from '#adapters/dynamo/transaction-claims';
import { DynamoWithdrawalSendingStore } from '#adapters/dynamo/withdrawal-sending-store';
import { signerFrom } from '#adapters/signer/from-settings';
import { MetricUnit, runJob } from '#adapters/observability';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('jobs/withdrawal-sender');
const { db, tableName } = dynamoFrom(settings);
// A signer: the stack grants kms:Sign to this job and the sweeper alone.
// The hot wallet's network: payouts, sweeps and reconciliation run on TRON alone so far.
const network = HOT_WALLET_NETWORK;
const signer = signerFrom(settings, network);
const { chain, settings: chainSettings } = chainsOf(network).connect(db, tableName, settings, { hotWallet: () => signer.address() });
const deps: SendingDeps = {
  chain,
  broadcaster: chain,
  builder: transfersOf(network).builder(chain, settings),
  signer,
  store: new DynamoWithdrawalSendingStore(db, tableName, network),
  claims: new DynamoTransactionClaims(db, tableName),
  hotWalletUsdt: async () => (chainSettings.enforcesBalances ? chain.tokenBalance(chainSettings.usdtContract, await signer.address()) : null),
};

/** The withdrawal sender (EventBridge schedule in AWS, a timer in the local runtime):
 * send what is pending (withdrawals and split forwards), then settle what was sent. */
export async function sendAndSettleWithdrawals(log?: Log, timeLeftMs?: () => number) {
  const sent = await sendWithdrawals({ ...deps, log, timeLeftMs });
  const settled = await settleWithdrawals({ ...deps, log, timeLeftMs });
  return { sent, settled };
}

/** One line per run (INFO when something moved) and the metrics the stack alarms on: withdrawals
 * completed and failed, and those stuck in `processing`. A thrown error is the Lambda's Errors
 * metric, which the sending-failures alarm watches. */
export const handler = middy().handler(async (_event: unknown, context: Context) =>
  runJob(
    'withdrawal send',
    context,
    async ({ log, metrics }) => {
      // The local runtime's timer passes no Lambda context: no deadline there.
      const outcome = await sendAndSettleWithdrawals(log, context.getRemainingTimeInMillis ? () => context.getRemainingTimeInMillis() : undefined);
      metrics.addMetric('WithdrawalsSent', MetricUnit.Count, outcome.sent.sent);
      metrics.addMetric('WithdrawalsCompleted', MetricUnit.Count, outcome.settled.completed);
      metrics.addMetric('WithdrawalsFailed', MetricUnit.Count, outcome.settled.failed);
      metrics.addMetric('WithdrawalsStuckProcessing', MetricUnit.Count, outcome.settled.stuck.count);
      metrics.addMetric('WithdrawalsAwaitingFloat', MetricUnit.Count, outcome.sent.awaitingFloat);
      metrics.addMetric('OldestStuckWithdrawalAge', MetricUnit.Seconds, outcome.settled.stuck.oldestAgeSeconds);
      return outcome;
    },
    ({ sent, settled }) => sent.sent + sent.awaitingFloat + settled.rebroadcast + settled.completed + settled.failed > 0,
  ),
);
