import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { sweepDepositAddresses, type SweepDeps } from '#functions/deposits/sweeps';
import { dynamoFrom } from '#adapters/runtime';
import { HOT_WALLET_NETWORK } from '#functions/networks/names';
import { chainsOf } from '#functions/networks/chain-registry';
import { transfersOf } from '#functions/networks/transfer-registry';
import { DynamoTransactionClaims } from '#adapters/dynamo/transaction-claims';
import { DynamoSweepStore } from '#adapters/dynamo/sweep-store';
import { signerFrom } from '#adapters/signer/from-settings';
import { MetricUnit, runJob } from '#adapters/observability';
import { HdDepositKeySigner, secretsManagerXprv } from '#adapters/signer/deposit-key-signer';
import { needed } from '#functions/settings/schema';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('jobs/deposit-sweeper');
const { db, tableName } = dynamoFrom(settings);
// The hot wallet's network: payouts, sweeps and reconciliation run on TRON alone so far.
const network = HOT_WALLET_NETWORK;
const hotWallet = signerFrom(settings, network);
const { chain, settings: chainSettings } = chainsOf(network).connect(db, tableName, settings, { hotWallet: () => hotWallet.address() });
const localXprv = settings.LOCAL_DEPOSIT_ACCOUNT_XPRV;

const deps: SweepDeps = {
  chain,
  usdtBalanceOf: (address) => chain.tokenBalance(chainSettings.usdtContract, address),
  feeBalanceOf: (address) => chain.feeBalance(address),
  broadcaster: chain,
  builder: transfersOf(network).builder(chain, settings),
  hotWallet,
  // The HD account key: held by this function alone (its secret is granted to nothing else).
  depositKeys: new HdDepositKeySigner(localXprv ? async () => localXprv : secretsManagerXprv(needed(settings.SWEEP_ACCOUNT_XPRV_SECRET, 'SWEEP_ACCOUNT_XPRV_SECRET', 'no LOCAL_DEPOSIT_ACCOUNT_XPRV'))),
  store: new DynamoSweepStore(db, tableName),
  claims: new DynamoTransactionClaims(db, tableName),
  settings: { minimumSweep: settings.SWEEP_MINIMUM_USDT, feeTopUp: BigInt(settings.SWEEP_TOP_UP_SUN) },
};

/** Moves confirmed deposit funds to the hot wallet (EventBridge in AWS, a timer locally). */
export async function sweepDeposits(): Promise<Record<string, unknown>> {
  return { ...(await sweepDepositAddresses(deps)) };
}

export const handler = middy().handler(async (_event: unknown, context: Context) =>
  runJob(
    'deposit sweep',
    context,
    async ({ log, metrics }) => {
      const outcome = await sweepDepositAddresses({ ...deps, log });
      metrics.addMetric('SweepsDone', MetricUnit.Count, outcome.done);
      metrics.addMetric('SweepsFailed', MetricUnit.Count, outcome.failed);
      metrics.addMetric('SweepsHeld', MetricUnit.Count, outcome.held);
      return outcome;
    },
    (outcome) => outcome.toppedUp + outcome.swept + outcome.done + outcome.failed + outcome.held > 0,
  ),
);
