import middy from '@middy/core';
import { scheduledNetwork, type NetworkScheduleEvent } from './network-schedule.ts';
import type { Context } from 'aws-lambda';
import { sweepDepositAddresses, type SweepDeps, type SweepResult } from '#functions/deposits/sweeps';
import { sweepEvmDepositAddresses, type EvmSweepDeps, type EvmSweepResult } from '#functions/deposits/evm-sweeps';
import type { Log } from '#functions/shared/log';
import { parseUnits } from 'viem';
import { parseAmount } from '#functions/shared/money';
import { DEFAULT_NATIVE_SWEEP_MINIMUM } from '#functions/networks/evm/settings';
import { EVM_NETWORKS } from '#functions/networks/evm/networks';
import { dynamoFrom } from '#adapters/runtime';
import { HOT_WALLET_NETWORK, type EvmNetworkName, type NetworkName } from '#functions/networks/names';
import { chainsOf } from '#functions/networks/chain-registry';
import { transfersOf } from '#functions/networks/transfer-registry';
import { evmChainOf, evmPayoutsOf, evmReplaceAfterMs, evmSettingsOf, isForwarderOf } from '#functions/networks/evm/from-settings';
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
import { tokenStanding, usdtMayMove, type TokenStanding } from '#functions/networks/token-standing';
import { returnUnfrozen } from '#functions/deposits/frozen-addresses';

const settings = functionSettings('jobs/deposit-sweeper');
const { db, tableName } = dynamoFrom(settings);

/** TRON: each deposit address topped up with TRX, then swept with its own key (sweeps.ts). */
function tronSweeping(): SweepDeps {
  const network = HOT_WALLET_NETWORK;
  const hotWallet = signerFrom(settings, network);
  const { chain, settings: chainSettings } = chainsOf(network).connect(db, tableName, settings, { hotWallet: () => hotWallet.address() });
  const localXprv = settings.LOCAL_DEPOSIT_ACCOUNT_XPRV;
  standings.set(network, async () => tokenStanding(chain, chainSettings.usdtContract, await hotWallet.address()));
  return {
    frozenAmong: (addresses) => chain.frozenAmong(chainSettings.usdtContract, addresses),
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
  standings.set(network, async () => tokenStanding(chain, networkSettings.usdtContract, await signer.address()));
  return {
    frozenAmong: (addresses) => chain.frozenAmong(networkSettings.usdtContract, addresses),
    network,
    chain,
    payouts: evmPayoutsOf(network, settings, signer, chain),
    store: new DynamoEvmSweepStore(db, tableName, network),
    usdtBalances: (addresses) => chain.usdtBalances(networkSettings.usdtContract, addresses),
    native: {
      balances: (addresses) => chain.nativeBalances(networkSettings.forwarderFactory, addresses),
      isForwarderOf: (address, depositId) => isForwarderOf(networkSettings, address, depositId),
    },
    settings: {
      minimumSweep: networkSettings.sweepMinimumUsdt === undefined ? settings.SWEEP_MINIMUM_USDT : parseAmount(networkSettings.sweepMinimumUsdt, 'USDT'),
      minimumNative: parseUnits(networkSettings.sweepMinimumNative ?? DEFAULT_NATIVE_SWEEP_MINIMUM[network], EVM_NETWORKS[network].feeAsset.decimals),
      batchSize: networkSettings.sweepBatchSize,
    },
    replaceAfterMs: evmReplaceAfterMs(network, settings),
  };
}

// Made on a network's first run, kept across warm invocations.
let tron: SweepDeps | undefined;
const evm = new Map<EvmNetworkName, EvmSweepDeps>();
const gasChecks = new Map<EvmNetworkName, (job: JobRun) => Promise<unknown>>();
const standings = new Map<NetworkName, () => Promise<TokenStanding>>();

/** The network's sweeping, made on its first run (which also keeps how its token's standing is read). */
function sweepingOf(network: NetworkName): SweepDeps | EvmSweepDeps {
  if (network === HOT_WALLET_NETWORK) return (tron ??= tronSweeping());
  const name = network as EvmNetworkName;
  if (!evm.has(name)) evm.set(name, evmSweeping(name));
  return evm.get(name)!;
}

export interface SweepRun {
  outcome: SweepResult | EvmSweepResult | null;
  standing: TokenStanding;
  /** Deposit addresses set aside because the issuer froze them (frozen-addresses.ts), after the run. */
  frozenAddresses: number;
}

/**
 * Moves credited deposit funds to the network's hot wallet (EventBridge in AWS, a timer locally).
 * First, addresses set aside as frozen that the issuer has unfrozen go back to the due list; then,
 * unless the token is paused or the hot wallet frozen (nothing is swept into a wallet that cannot
 * send, nor while every transfer reverts: functions/networks/token-standing.ts), the network's sweep.
 */
export async function sweepDeposits(network: NetworkName = HOT_WALLET_NETWORK, log?: Log): Promise<SweepRun> {
  const deps = sweepingOf(network);
  const { stillFrozen } = await returnUnfrozen(deps.store, deps.frozenAmong!);
  const standing = await standings.get(network)!();
  // The run's line (runJob) carries the standing: one per run while it holds, as the metrics.
  if (!usdtMayMove(standing)) return { outcome: null, standing, frozenAddresses: stillFrozen };
  const outcome = 'hotWallet' in deps ? await sweepDepositAddresses({ ...deps, log }) : await sweepEvmDepositAddresses({ ...deps, log });
  return { outcome, standing, frozenAddresses: stillFrozen + outcome.frozen };
}

export const handler = middy<NetworkScheduleEvent>().handler(async (event: NetworkScheduleEvent, context: Context) => {
  const network = scheduledNetwork(event);
  return runJob(
    network === HOT_WALLET_NETWORK ? 'deposit sweep' : `deposit sweep (${network})`,
    context,
    async ({ log, metrics }) => {
      const run = await sweepDeposits(network, log);
      const { outcome } = run;
      // TRON's metrics keep the dimensions its alarms were made on; another network's carry its name.
      if (network !== HOT_WALLET_NETWORK) metrics.addDimension('Network', network);
      metrics.addMetric('DepositAddressesFrozen', MetricUnit.Count, run.frozenAddresses);
      metrics.addMetric('TokenPaused', MetricUnit.Count, run.standing.paused ? 1 : 0);
      metrics.addMetric('HotWalletFrozen', MetricUnit.Count, run.standing.hotWalletFrozen ? 1 : 0);
      if (outcome === null) return run;
      if ('held' in outcome) {
        metrics.addMetric('SweepsDone', MetricUnit.Count, outcome.done);
        metrics.addMetric('SweepsFailed', MetricUnit.Count, outcome.failed);
        metrics.addMetric('SweepsHeld', MetricUnit.Count, outcome.held);
      } else {
        metrics.addMetric('SweepsDone', MetricUnit.Count, outcome.done);
        metrics.addMetric('SweepsFailed', MetricUnit.Count, outcome.failed + outcome.wouldRevert);
        metrics.addMetric('SweptForwarders', MetricUnit.Count, outcome.forwarders);
        metrics.addMetric('SweptNativeForwarders', MetricUnit.Count, outcome.nativeForwarders);
        metrics.addMetric('SweepsReplaced', MetricUnit.Count, outcome.replaced);
        // The same metric as the withdrawal sender's: one alarm per network for any payout stuck at the cap.
        metrics.addMetric('PayoutFeeCapReached', MetricUnit.Count, outcome.feeCapReached);
        await gasChecks.get(network as EvmNetworkName)?.({ log, metrics });
      }
      return run;
    },
    ({ outcome, standing, frozenAddresses }) => outcome === null || frozenAddresses > 0 || !usdtMayMove(standing) || Object.values(outcome).some((count) => count > 0),
  );
});
