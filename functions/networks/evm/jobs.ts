import { parseUnits } from 'viem';
import type { NetworkJobs } from '../network.ts';
import type { EvmNetworkName } from '../names.ts';
import type { Log } from '../../shared/log.ts';
import { parseAmount } from '../../shared/money.ts';
import { tokenStanding, usdtMayMove } from '../token-standing.ts';
import { depositSweeperRun, withdrawalSenderRun } from '../job-runs.ts';
import { hotWalletUsdtAtFinal, sendEvmWithdrawals, settleEvmWithdrawals, type EvmSendingDeps } from './withdrawal-sending.ts';
import { sweepEvmDepositAddresses, type EvmSweepDeps } from './sweeps.ts';
import { reviewFrozenAddresses } from '../../deposits/frozen-addresses.ts';
import { recordCambioAddresses } from '../../withdrawals/refused-destinations.ts';
import { DynamoEvmSendingStore } from './sending-store.ts';
import { DynamoEvmSweepStore } from './sweep-store.ts';
import { cambioAddressesOf } from '#adapters/dynamo/cambio-address-store';
import { evmSignerFrom } from './signer.ts';
import { EVM_NETWORKS } from './networks.ts';
import { DEFAULT_NATIVE_SWEEP_MINIMUM } from './settings.ts';
import { evmChainOf, evmPayoutsOf, evmReplaceAfterMs, evmSettingsOf, isForwarderOf } from './from-settings.ts';
import { checkHotWalletGas } from './hot-wallet-gas.ts';

const NOTHING_SENT = { sent: 0, rebroadcast: 0, completed: 0, failed: 0, awaitingFloat: 0, feeCapReached: 0 };

/**
 * An EVM network's signing jobs: payouts and the factory's batch sweeps from the hot wallet (the
 * stage's key in the network's address form) with its own nonce sequence, fee replacement and fee
 * cap (functions/networks/evm/withdrawal-sending.ts, functions/networks/evm/sweeps.ts). Each run
 * reads the token's standing (nothing new is sent or swept while the token is paused or the hot
 * wallet frozen: functions/networks/token-standing.ts) and the hot wallet's gas, which pays every
 * payout and sweep (HotWalletGasLow).
 */
export const evmJobs = (network: EvmNetworkName): NetworkJobs => ({
  withdrawalSender(settings, { db, tableName }) {
    const chain = evmChainOf(network, settings);
    const networkSettings = evmSettingsOf(network, settings);
    const signer = evmSignerFrom(settings, network);
    const unit = 10n ** BigInt(EVM_NETWORKS[network].tokenDecimals - 6);
    const cambioAddresses = cambioAddressesOf(db, tableName);
    const sending: EvmSendingDeps = {
      chain,
      payouts: evmPayoutsOf(network, settings, signer, chain),
      store: new DynamoEvmSendingStore(db, tableName, network),
      hotWalletUsdt: hotWalletUsdtAtFinal(chain, networkSettings.usdtContract, () => signer.address(), unit),
      replaceAfterMs: evmReplaceAfterMs(network, settings),
      usdtMayMoveNow: async () => usdtMayMove(await tokenStanding(chain, networkSettings.usdtContract, await signer.address())),
    };
    return async (log: Log, timeLeftMs?: () => number) => {
      const deps = { ...sending, log, timeLeftMs };
      return withdrawalSenderRun({
        standing: async () => tokenStanding(chain, networkSettings.usdtContract, await signer.address()),
        beforeSending: async () => recordCambioAddresses(cambioAddresses, network, { hotWallet: await signer.address(), tokenContracts: await chain.usdtContracts(networkSettings.usdtContract) }),
        send: () => sendEvmWithdrawals(deps),
        nothingSent: NOTHING_SENT,
        settle: (hotWalletMaySend) => settleEvmWithdrawals(deps, { hotWalletMaySend }),
        family: async (sent, settled) => {
          const gas = await checkHotWalletGas(network, networkSettings, chain, await signer.address(), log);
          // The same PayoutFeeCapReached as the sweeper's: those the cap keeps from a replacement, and
          // those it keeps unsent under a base fee above it.
          const feeCapReached = (sent.feeCapReached ?? 0) + (settled.feeCapReached ?? 0);
          const replaced = settled.replaced ?? 0;
          return { counts: { WithdrawalsReplaced: replaced, PayoutFeeCapReached: feeCapReached, HotWalletGasLow: gas.low ? 1 : 0 }, moved: replaced + feeCapReached };
        },
      });
    };
  },

  depositSweeper(settings, { db, tableName }) {
    const chain = evmChainOf(network, settings);
    const networkSettings = evmSettingsOf(network, settings);
    const signer = evmSignerFrom(settings, network);
    const sweeping: EvmSweepDeps = {
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
    return async (log: Log) =>
      depositSweeperRun({
        reviewFrozen: () => reviewFrozenAddresses(sweeping.store, sweeping.frozenAmong!, sweeping.usdtBalances),
        standing: async () => tokenStanding(chain, networkSettings.usdtContract, await signer.address()),
        sweep: () => sweepEvmDepositAddresses({ ...sweeping, log }),
        family: async (swept) => ({
          SweepsDone: swept.done,
          SweepsFailed: swept.failed + swept.wouldRevert,
          SweptForwarders: swept.forwarders,
          SweptNativeForwarders: swept.nativeForwarders,
          SweepsReplaced: swept.replaced,
          // The same metric as the withdrawal sender's: one alarm per network for any payout stuck at the cap.
          PayoutFeeCapReached: swept.feeCapReached,
          HotWalletGasLow: (await checkHotWalletGas(network, networkSettings, chain, await signer.address(), log)).low ? 1 : 0,
        }),
      });
  },
});
