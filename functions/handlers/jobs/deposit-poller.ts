import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { confirmDeposits, expireDeposits, scanDeposits } from '#functions/deposits/deposit-chain';
import { DepositAddressFilter } from '#functions/deposits/deposit-address-filter';
import type { Log } from '#functions/shared/log';
import { dynamoFrom } from '#adapters/runtime';
import { soleNetworkName } from '#functions/networks/names';
import { chainsOf } from '#functions/networks/chain-registry';
import { DynamoDepositChainStore, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { MetricUnit, runJob } from '#adapters/observability';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('jobs/deposit-poller');
const { db, tableName } = dynamoFrom(settings);
const { chain, settings: chainSettings } = chainsOf(soleNetworkName()).connect(db, tableName, settings);
const store = new DynamoDepositChainStore(db, tableName);
const cursor = new DynamoScanCursor(db, tableName, chainSettings.cursorName);
// Kept across warm invocations: loaded whole by the first scan of a cold start, then refreshed
// with what was listed since at every scan.
const addresses = new DepositAddressFilter(store);

/**
 * The deposit poller (EventBridge schedule in AWS, a timer in the local runtime): scan new blocks,
 * settle what is final, expire what is overdue.
 */
export async function pollDeposits(log?: Log) {
  const deps = { chain, store, usdtContract: chainSettings.usdtContract, log };
  const scan = await scanDeposits({ ...deps, cursor, owner: randomUUID(), addresses });
  const confirm = await confirmDeposits(deps);
  const expired = await expireDeposits(deps);
  return { scan, confirm, expired };
}

/** One line per run (INFO when something moved) and the metrics the stack alarms on: the
 * scanner's lag in blocks (ScannerLagBlocks) and the deposits credited. */
export const handler = middy().handler(async (_event: unknown, context: Context) =>
  runJob(
    'deposit poll',
    context,
    async ({ log, metrics }) => {
      const outcome = await pollDeposits(log);
      if (outcome.scan.lagBlocks !== null) metrics.addMetric('ScannerLagBlocks', MetricUnit.Count, outcome.scan.lagBlocks);
      metrics.addMetric('DepositsCredited', MetricUnit.Count, outcome.confirm.confirmed);
      metrics.addMetric('DepositTransfersDropped', MetricUnit.Count, outcome.confirm.dropped);
      return outcome;
    },
    ({ scan, confirm, expired }) => scan.recorded + confirm.confirmed + confirm.dropped + expired > 0,
  ),
);
