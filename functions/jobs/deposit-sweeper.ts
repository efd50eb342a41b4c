import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { sweepDepositAddresses, type SweepDeps } from '#domain/sweeps';
import { parseAmount } from '#domain/money';
import { dynamoFromEnv } from '#adapters/runtime';
import { chainFromEnv } from '#adapters/chain/from-env';
import { TronTransferBuilder } from '#adapters/chain/tron-transfer-builder';
import { DynamoTransactionClaims } from '#adapters/dynamo/transaction-claims';
import { DynamoSweepStore } from '#adapters/dynamo/sweep-store';
import { optionalEnv, requireEnv } from '#adapters/env';
import { signerFromEnv } from '#adapters/signer/from-env';
import { MetricUnit, runJob } from '#adapters/observability';
import { HdDepositKeySigner, secretsManagerXprv } from '#adapters/signer/deposit-key-signer';

const { db, tableName } = dynamoFromEnv();
const hotWallet = signerFromEnv();
const { chain, settings } = chainFromEnv(db, tableName, { hotWallet: () => hotWallet.address() });
const localXprv = optionalEnv('LOCAL_DEPOSIT_ACCOUNT_XPRV');

const deps: SweepDeps = {
  chain,
  usdtBalanceOf: (address) => chain.tokenBalance(settings.usdtContract, address),
  trxBalanceOf: (address) => chain.trxBalance(address),
  broadcaster: chain,
  builder: new TronTransferBuilder(chain, { usdtContract: settings.usdtContract, feeLimitSun: Number(requireEnv('WITHDRAWAL_FEE_LIMIT_SUN')) }),
  hotWallet,
  // The HD account key: held by this function alone (its secret is granted to nothing else).
  depositKeys: new HdDepositKeySigner(localXprv ? async () => localXprv : secretsManagerXprv(requireEnv('SWEEP_ACCOUNT_XPRV_SECRET'))),
  store: new DynamoSweepStore(db, tableName),
  claims: new DynamoTransactionClaims(db, tableName),
  settings: { minimumSweep: parseAmount(requireEnv('SWEEP_MINIMUM_USDT'), 'USDT'), topUpSun: Number(requireEnv('SWEEP_TOP_UP_SUN')) },
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
