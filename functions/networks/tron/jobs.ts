import type { NetworkJobs } from '../network.ts';
import type { Log } from '../../shared/log.ts';
import { tokenStanding, usdtMayMove } from '../token-standing.ts';
import { depositSweeperRun, withdrawalSenderRun } from '../job-runs.ts';
import { hotWalletTrxOf, sendWithdrawals, settleWithdrawals, trxShort, type SendingDeps, type TronSendResult } from './withdrawal-sending.ts';
import { sweepDepositAddresses, type SweepDeps } from './sweeps.ts';
import { reviewFrozenAddresses, usdtAtEach } from '../../deposits/frozen-addresses.ts';
import { recordCambioAddresses } from '../../withdrawals/refused-destinations.ts';
import { needed } from '../../settings/schema.ts';
import { DynamoTransactionClaims } from '#adapters/dynamo/transaction-claims';
import { DynamoWithdrawalSendingStore } from '#adapters/dynamo/withdrawal-sending-store';
import { DynamoSweepStore } from './sweep-store.ts';
import { cambioAddressesOf } from '#adapters/dynamo/cambio-address-store';
import { signerFrom } from '#adapters/signer/from-settings';
import { HdDepositKeySigner, secretsManagerXprv } from './deposit-key-signer.ts';
import { tronChains } from './from-settings.ts';
import { transferBuilderFrom } from './tron-transfer-builder.ts';

const NETWORK = 'tron';
const NOTHING_SENT: TronSendResult = { sent: 0, rebroadcast: 0, completed: 0, failed: 0, awaitingFloat: 0, awaitingFee: 0 };

/**
 * TRON's signing jobs: each payout its own transfer from the hot wallet, built with TRON's
 * transaction library and claimed by id before it is broadcast (functions/withdrawals/
 * withdrawal-sending.ts); each deposit address topped up with TRX, then swept with its own key
 * (functions/networks/tron/sweeps.ts). Each run reads the token's standing: nothing new is sent or swept
 * while the token is paused or the hot wallet frozen (functions/networks/token-standing.ts).
 */
export const tronJobs: NetworkJobs = {
  withdrawalSender(settings, { db, tableName }) {
    // A signer: the stack grants kms:Sign to this job and the sweeper alone.
    const signer = signerFrom(settings, NETWORK);
    const { chain, settings: chainSettings } = tronChains.connect(db, tableName, settings, { hotWallet: () => signer.address() });
    const cambioAddresses = cambioAddressesOf(db, tableName);
    const sending: SendingDeps = {
      chain,
      broadcaster: chain,
      builder: transferBuilderFrom(chain, settings),
      signer,
      store: new DynamoWithdrawalSendingStore(db, tableName, NETWORK),
      claims: new DynamoTransactionClaims(db, tableName),
      hotWalletUsdt: async () => (chainSettings.enforcesBalances ? chain.tokenBalance(chainSettings.usdtContract, await signer.address()) : null),
      hotWalletTrx: hotWalletTrxOf(chain, signer, BigInt(settings.WITHDRAWAL_FEE_LIMIT_SUN)),
      usdtMayMoveNow: async () => usdtMayMove(await tokenStanding(chain, chainSettings.usdtContract, await signer.address())),
    };
    return async (log: Log, timeLeftMs?: () => number) => {
      const deps = { ...sending, log, timeLeftMs };
      return withdrawalSenderRun({
        standing: async () => tokenStanding(chain, chainSettings.usdtContract, await signer.address()),
        beforeSending: async () =>
          recordCambioAddresses(cambioAddresses, NETWORK, { hotWallet: await signer.address(), tokenContracts: (await chain.usdtContracts?.(chainSettings.usdtContract)) ?? [chainSettings.usdtContract] }),
        send: () => sendWithdrawals(deps),
        nothingSent: NOTHING_SENT,
        settle: (hotWalletMaySend) => settleWithdrawals(deps, { hotWalletMaySend }),
        // HotWalletGasLow: its TRX below one payout's fee limit (the alarm: lib/networks/tron.ts), as
        // the send found it (pending payouts left waiting for it), or read now when it had nothing to send.
        family: async (sent) => ({ counts: { HotWalletGasLow: (sent.hotWalletTrxShort ?? trxShort(await sending.hotWalletTrx!())) ? 1 : 0 }, moved: 0 }),
      });
    };
  },

  depositSweeper(settings, { db, tableName }) {
    const hotWallet = signerFrom(settings, NETWORK);
    const { chain, settings: chainSettings } = tronChains.connect(db, tableName, settings, { hotWallet: () => hotWallet.address() });
    const localXprv = settings.LOCAL_DEPOSIT_ACCOUNT_XPRV;
    const sweeping: SweepDeps = {
      frozenAmong: (addresses) => chain.frozenAmong(chainSettings.usdtContract, addresses),
      chain,
      usdtBalanceOf: (address) => chain.tokenBalance(chainSettings.usdtContract, address),
      feeBalanceOf: (address) => chain.feeBalance(address),
      broadcaster: chain,
      builder: transferBuilderFrom(chain, settings),
      hotWallet,
      // The HD account key: held by this function alone (its secret is granted to nothing else).
      depositKeys: new HdDepositKeySigner(localXprv ? async () => localXprv : secretsManagerXprv(needed(settings.SWEEP_ACCOUNT_XPRV_SECRET, 'SWEEP_ACCOUNT_XPRV_SECRET', 'no LOCAL_DEPOSIT_ACCOUNT_XPRV'))),
      store: new DynamoSweepStore(db, tableName),
      claims: new DynamoTransactionClaims(db, tableName),
      settings: { minimumSweep: settings.SWEEP_MINIMUM_USDT, feeTopUp: BigInt(settings.SWEEP_TOP_UP_SUN) },
      // Top-ups leave the TRX TRON's payouts may burn, their float read as the sender reads it (./sweeps.ts payoutReserveSun).
      payouts: {
        store: new DynamoWithdrawalSendingStore(db, tableName, NETWORK),
        feeLimitSun: BigInt(settings.WITHDRAWAL_FEE_LIMIT_SUN),
        hotWalletUsdt: async () => (chainSettings.enforcesBalances ? chain.tokenBalance(chainSettings.usdtContract, await hotWallet.address()) : null),
      },
    };
    return async (log: Log) =>
      depositSweeperRun({
        reviewFrozen: () => reviewFrozenAddresses(sweeping.store, sweeping.frozenAmong!, usdtAtEach(sweeping.usdtBalanceOf)),
        standing: async () => tokenStanding(chain, chainSettings.usdtContract, await hotWallet.address()),
        sweep: () => sweepDepositAddresses({ ...sweeping, log }),
        family: async (swept) => ({ SweepsDone: swept.done, SweepsFailed: swept.failed, SweepsHeld: swept.held }),
      });
  },
};
