import middy from '@middy/core';
import { scheduledNetwork, type NetworkScheduleEvent } from './network-schedule.ts';
import type { Context } from 'aws-lambda';
import { sweepDepositAddresses, type SweepDeps, type SweepResult } from '#functions/deposits/sweeps';
import { sweepEvmDepositAddresses, type EvmSweepDeps, type EvmSweepResult } from '#functions/deposits/evm-sweeps';
import type { Log } from '#functions/shared/log';
import { parseAmount } from '#functions/shared/money';
import { dynamoFrom } from '#adapters/runtime';
import { HOT_WALLET_NETWORK, type EvmNetworkName, type NetworkName } from '#functions/networks/names';
import { chainsOf } from '#functions/networks/chain-registry';
import { transfersOf } from '#functions/networks/transfer-registry';
import { evmChainOf, evmPayoutsOf, evmReplaceAfterMs, evmSettingsOf } from '#functions/networks/evm/from-settings';
import { DynamoTransactionClaims } from '#adapters/dynamo/transaction-claims';
import { DynamoSweepStore } from '#adapters/dynamo/sweep-store';
import { DynamoEvmSweepStore } from '#adapters/dynamo/evm-sweep-store';
import { signerFrom } from '#adapters/signer/from-settings';
import { evmSignerFrom } from '#adapters/signer/evm-signer';
import { MetricUnit, runJob, type JobRun } from '#adapters/observability';
import { reportHotWalletGas } from '#adapters/hot-wallet-gas';
import { HdDepositKeySigner, secretsManagerXprv } from '#adapters/signer/deposit-key-signer';
import { needed } from '#functions/settings/schema';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('jobs/deposit-sweeper');
const { db, tableName } = dynamoFrom(settings);

/** TRON: each deposit address topped up with TRX, then swept with its own key (sweeps.ts). */
function tronSweeping(): SweepDeps {
  const network = HOT_WALLET_NETWORK;
  const hotWallet = signerFrom(settings, network);
  const { chain, settings: chainSettings } = chainsOf(network).connect(db, tableName, settings, { hotWallet: () => hotWallet.address() });
  const localXprv = settings.LOCAL_DEPOSIT_ACCOUNT_XPRV;
  return {
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
}

/** An EVM network: the factory's batch sweep, signed by the hot wallet with its next nonce (evm-sweeps.ts). */
function evmSweeping(network: EvmNetworkName): EvmSweepDeps {
  const chain = evmChainOf(network, settings);
  const networkSettings = evmSettingsOf(network, settings);
  const signer = evmSignerFrom(settings, network);
  gasChecks.set(network, async (job) => reportHotWalletGas(network, networkSettings, chain, await signer.address(), job));
  return {
    network,
    chain,
    payouts: evmPayoutsOf(network, settings, signer, chain),
    store: new DynamoEvmSweepStore(db, tableName, network),
    usdtBalances: (addresses) => chain.usdtBalances(networkSettings.usdtContract, addresses),
    settings: {
      minimumSweep: networkSettings.sweepMinimumUsdt === undefined ? settings.SWEEP_MINIMUM_USDT : parseAmount(networkSettings.sweepMinimumUsdt, 'USDT'),
      batchSize: networkSettings.sweepBatchSize,
    },
    replaceAfterMs: evmReplaceAfterMs(network, settings),
  };
}

// Made on a network's first run, kept across warm invocations.
let tron: SweepDeps | undefined;
const evm = new Map<EvmNetworkName, EvmSweepDeps>();
const gasChecks = new Map<EvmNetworkName, (job: JobRun) => Promise<unknown>>();

/** Moves credited deposit funds to the network's hot wallet (EventBridge in AWS, a timer locally). */
export async function sweepDeposits(network: NetworkName = HOT_WALLET_NETWORK, log?: Log): Promise<SweepResult | EvmSweepResult> {
  if (network === HOT_WALLET_NETWORK) return sweepDepositAddresses({ ...(tron ??= tronSweeping()), log });
  if (!evm.has(network)) evm.set(network, evmSweeping(network));
  return sweepEvmDepositAddresses({ ...evm.get(network)!, log });
}

export const handler = middy<NetworkScheduleEvent>().handler(async (event: NetworkScheduleEvent, context: Context) => {
  const network = scheduledNetwork(event);
  return runJob(
    network === HOT_WALLET_NETWORK ? 'deposit sweep' : `deposit sweep (${network})`,
    context,
    async ({ log, metrics }) => {
      const outcome = await sweepDeposits(network, log);
      if ('held' in outcome) {
        metrics.addMetric('SweepsDone', MetricUnit.Count, outcome.done);
        metrics.addMetric('SweepsFailed', MetricUnit.Count, outcome.failed);
        metrics.addMetric('SweepsHeld', MetricUnit.Count, outcome.held);
      } else {
        metrics.addDimension('Network', network);
        metrics.addMetric('SweepsDone', MetricUnit.Count, outcome.done);
        metrics.addMetric('SweepsFailed', MetricUnit.Count, outcome.failed + outcome.wouldRevert);
        metrics.addMetric('SweptForwarders', MetricUnit.Count, outcome.forwarders);
        metrics.addMetric('SweepsReplaced', MetricUnit.Count, outcome.replaced);
        // The same metric as the withdrawal sender's: one alarm per network for any payout stuck at the cap.
        metrics.addMetric('PayoutFeeCapReached', MetricUnit.Count, outcome.feeCapReached);
        await gasChecks.get(network as EvmNetworkName)?.({ log, metrics });
      }
      return outcome;
    },
    (outcome) => Object.values(outcome).some((count) => count > 0),
  );
});
