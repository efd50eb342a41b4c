import middy from '@middy/core';
import { scheduledNetwork, type NetworkScheduleEvent } from './network-schedule.ts';
import type { Context } from 'aws-lambda';
import { sendWithdrawals, settleWithdrawals, type SendingDeps, type SendResult, type SettleResult } from '#functions/withdrawals/withdrawal-sending';
import { sendEvmWithdrawals, settleEvmWithdrawals, type EvmSendingDeps, type EvmSendResult, type EvmSettleResult } from '#functions/withdrawals/evm-withdrawal-sending';
import type { Log } from '#functions/shared/log';
import { dynamoFrom } from '#adapters/runtime';
import { HOT_WALLET_NETWORK, type EvmNetworkName, type NetworkName } from '#functions/networks/names';
import { chainsOf } from '#functions/networks/chain-registry';
import { transfersOf } from '#functions/networks/transfer-registry';
import { EVM_NETWORKS } from '#functions/networks/evm/networks';
import { evmChainOf, evmPayoutsOf, evmReplaceAfterMs, evmSettingsOf } from '#functions/networks/evm/from-settings';
import { DynamoTransactionClaims } from '#adapters/dynamo/transaction-claims';
import { DynamoWithdrawalSendingStore } from '#adapters/dynamo/withdrawal-sending-store';
import { DynamoEvmSendingStore } from '#adapters/dynamo/evm-sending-store';
import { signerFrom } from '#adapters/signer/from-settings';
import { evmSignerFrom } from '#adapters/signer/evm-signer';
import { MetricUnit, runJob, type JobRun } from '#adapters/observability';
import { reportHotWalletGas } from '#adapters/hot-wallet-gas';
import { functionSettings } from '#functions/settings/functions';
import { tokenStanding, usdtMayMove, type TokenStanding } from '#functions/networks/token-standing';
import { recordCambioAddresses } from '#functions/withdrawals/refused-destinations';
import { cambioAddressesOf } from '#adapters/dynamo/cambio-address-store';

const settings = functionSettings('jobs/withdrawal-sender');
const { db, tableName } = dynamoFrom(settings);
const cambioAddresses = cambioAddressesOf(db, tableName);

// A signer: the stack grants kms:Sign to this job and the sweeper alone.
function tronSending(): SendingDeps {
  const network = HOT_WALLET_NETWORK;
  const signer = signerFrom(settings, network);
  const { chain, settings: chainSettings } = chainsOf(network).connect(db, tableName, settings, { hotWallet: () => signer.address() });
  standings.set(network, async () => tokenStanding(chain, chainSettings.usdtContract, await signer.address()));
  learnings.set(network, async () =>
    recordCambioAddresses(cambioAddresses, network, { hotWallet: await signer.address(), tokenContracts: (await chain.usdtContracts?.(chainSettings.usdtContract)) ?? [chainSettings.usdtContract] }),
  );
  return {
    chain,
    broadcaster: chain,
    builder: transfersOf(network).builder(chain, settings),
    signer,
    store: new DynamoWithdrawalSendingStore(db, tableName, network),
    claims: new DynamoTransactionClaims(db, tableName),
    hotWalletUsdt: async () => (chainSettings.enforcesBalances ? chain.tokenBalance(chainSettings.usdtContract, await signer.address()) : null),
  };
}

/** An EVM network's sending: its hot wallet (the stage's key, in that network's address form) and
 * node; the hot wallet's USDT read in 6 decimals whatever the token's on chain. */
function evmSending(network: EvmNetworkName): EvmSendingDeps {
  const chain = evmChainOf(network, settings);
  const signer = evmSignerFrom(settings, network);
  const unit = 10n ** BigInt(EVM_NETWORKS[network].tokenDecimals - 6);
  gasChecks.set(network, async (job) => reportHotWalletGas(network, evmSettingsOf(network, settings), chain, await signer.address(), job));
  standings.set(network, async () => tokenStanding(chain, evmSettingsOf(network, settings).usdtContract, await signer.address()));
  learnings.set(network, async () =>
    recordCambioAddresses(cambioAddresses, network, { hotWallet: await signer.address(), tokenContracts: await chain.usdtContracts(evmSettingsOf(network, settings).usdtContract) }),
  );
  return {
    chain,
    payouts: evmPayoutsOf(network, settings, signer, chain),
    store: new DynamoEvmSendingStore(db, tableName, network),
    hotWalletUsdt: async () => (await chain.tokenBalance(evmSettingsOf(network, settings).usdtContract, await signer.address())) / unit,
    replaceAfterMs: evmReplaceAfterMs(network, settings),
  };
}

// Made on a network's first run, kept across warm invocations.
let tron: SendingDeps | undefined;
const evm = new Map<EvmNetworkName, EvmSendingDeps>();
const gasChecks = new Map<EvmNetworkName, (job: JobRun) => Promise<unknown>>();
const standings = new Map<NetworkName, () => Promise<TokenStanding>>();
/** The API refuses to pay Cambio's hot wallets and token contracts (functions/withdrawals/
 * refused-destinations.ts): it learns them from here, on each network's first run and whenever the
 * token moves to an upgraded contract. */
const learnings = new Map<NetworkName, () => Promise<void>>();

const NOTHING_SENT: SendResult = { sent: 0, rebroadcast: 0, completed: 0, failed: 0, awaitingFloat: 0 };

/** The withdrawal sender of one network (EventBridge schedules in AWS, a timer in the local
 * runtime): send what is pending (withdrawals and split forwards), then settle what was sent. While
 * the issuer pauses the token or freezes the hot wallet, nothing new is sent: withdrawals wait
 * `pending` (functions/networks/token-standing.ts); what was sent before is still settled. */
export async function sendAndSettleWithdrawals(
  log?: Log,
  timeLeftMs?: () => number,
  network: NetworkName = HOT_WALLET_NETWORK,
): Promise<{ sent: SendResult & Partial<Pick<EvmSendResult, 'feeCapReached'>>; settled: SettleResult & Partial<Pick<EvmSettleResult, 'replaced' | 'feeCapReached'>>; standing: TokenStanding }> {
  // Made on the network's first run, which also keeps how its token's standing is read.
  if (network === HOT_WALLET_NETWORK) tron ??= tronSending();
  else if (!evm.has(network)) evm.set(network, evmSending(network));
  const standing = await standings.get(network)!();
  await learnings.get(network)!();
  const mayMove = usdtMayMove(standing);
  if (network === HOT_WALLET_NETWORK) {
    const deps = { ...tron!, log, timeLeftMs };
    const sent = mayMove ? await sendWithdrawals(deps) : NOTHING_SENT;
    return { sent, settled: await settleWithdrawals(deps), standing };
  }
  const deps = { ...evm.get(network)!, log, timeLeftMs };
  const sent = mayMove ? await sendEvmWithdrawals(deps) : NOTHING_SENT;
  return { sent, settled: await settleEvmWithdrawals(deps), standing };
}

/** One line per run (INFO when something moved) and the metrics the stack alarms on: withdrawals
 * completed and failed, and those stuck in `processing`; an EVM network's carry its name, with its
 * payouts replaced at a higher fee and those the fee cap kept from it. A thrown error is the
 * Lambda's Errors metric, which the sending-failures alarm watches. On an EVM network, the hot
 * wallet's gas token too (HotWalletGasLow, #adapters/hot-wallet-gas). */
export const handler = middy<NetworkScheduleEvent>().handler(async (event: NetworkScheduleEvent, context: Context) => {
  const network = scheduledNetwork(event);
  return runJob(
    network === HOT_WALLET_NETWORK ? 'withdrawal send' : `withdrawal send (${network})`,
    context,
    async ({ log, metrics }) => {
      if (network !== HOT_WALLET_NETWORK) metrics.addDimension('Network', network);
      // The local runtime's timer passes no Lambda context: no deadline there.
      const outcome = await sendAndSettleWithdrawals(log, context.getRemainingTimeInMillis ? () => context.getRemainingTimeInMillis() : undefined, network);
      metrics.addMetric('WithdrawalsSent', MetricUnit.Count, outcome.sent.sent);
      metrics.addMetric('WithdrawalsCompleted', MetricUnit.Count, outcome.settled.completed);
      metrics.addMetric('WithdrawalsFailed', MetricUnit.Count, outcome.sent.failed + outcome.settled.failed);
      metrics.addMetric('WithdrawalsStuckProcessing', MetricUnit.Count, outcome.settled.stuck.count);
      metrics.addMetric('WithdrawalsAwaitingFloat', MetricUnit.Count, outcome.sent.awaitingFloat);
      metrics.addMetric('OldestStuckWithdrawalAge', MetricUnit.Seconds, outcome.settled.stuck.oldestAgeSeconds);
      metrics.addMetric('TokenPaused', MetricUnit.Count, outcome.standing.paused ? 1 : 0);
      metrics.addMetric('HotWalletFrozen', MetricUnit.Count, outcome.standing.hotWalletFrozen ? 1 : 0);
      if (network !== HOT_WALLET_NETWORK) {
        metrics.addMetric('WithdrawalsReplaced', MetricUnit.Count, outcome.settled.replaced ?? 0);
        // Those the cap keeps from a replacement, and those it keeps unsent or unbroadcast under a base fee above it.
        metrics.addMetric('PayoutFeeCapReached', MetricUnit.Count, (outcome.sent.feeCapReached ?? 0) + (outcome.settled.feeCapReached ?? 0));
        await gasChecks.get(network)?.({ log, metrics });
      }
      return outcome;
    },
    ({ sent, settled, standing }) => Number(!usdtMayMove(standing)) + sent.sent + sent.awaitingFloat + settled.rebroadcast + settled.completed + settled.failed + (settled.replaced ?? 0) + (sent.feeCapReached ?? 0) + (settled.feeCapReached ?? 0) > 0,
  );
});
