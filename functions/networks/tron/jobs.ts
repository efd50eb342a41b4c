import type { NetworkJobs } from '../network.ts';
import type { Log } from '../../shared/log.ts';
import { tokenStanding, usdtMayMove } from '../token-standing.ts';
import { senderCounts, senderSeconds, standingCounts } from '../job-counts.ts';
import { sendWithdrawals, settleWithdrawals, type SendingDeps } from '../../withdrawals/withdrawal-sending.ts';
import { sweepDepositAddresses, type SweepDeps } from '../../deposits/sweeps.ts';
import { returnUnfrozen } from '../../deposits/frozen-addresses.ts';
import { recordCambioAddresses } from '../../withdrawals/refused-destinations.ts';
import { needed } from '../../settings/schema.ts';
import { DynamoTransactionClaims } from '#adapters/dynamo/transaction-claims';
import { DynamoWithdrawalSendingStore } from '#adapters/dynamo/withdrawal-sending-store';
import { DynamoSweepStore } from '#adapters/dynamo/sweep-store';
import { cambioAddressesOf } from '#adapters/dynamo/cambio-address-store';
import { signerFrom } from '#adapters/signer/from-settings';
import { HdDepositKeySigner, secretsManagerXprv } from '#adapters/signer/deposit-key-signer';
import { tronChains } from './from-settings.ts';
import { tronTransfers } from './tron-transfer-builder.ts';

const NETWORK = 'tron';
const NOTHING_SENT = { sent: 0, rebroadcast: 0, completed: 0, failed: 0, awaitingFloat: 0 };

/**
 * TRON's signing jobs: each payout its own transfer from the hot wallet, built with TRON's
 * transaction library and claimed by id before it is broadcast (functions/withdrawals/
 * withdrawal-sending.ts); each deposit address topped up with TRX, then swept with its own key
 * (functions/deposits/sweeps.ts). Each run reads the token's standing: nothing new is sent or swept
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
      builder: tronTransfers.builder(chain, settings),
      signer,
      store: new DynamoWithdrawalSendingStore(db, tableName, NETWORK),
      claims: new DynamoTransactionClaims(db, tableName),
      hotWalletUsdt: async () => (chainSettings.enforcesBalances ? chain.tokenBalance(chainSettings.usdtContract, await signer.address()) : null),
    };
    return async (log: Log, timeLeftMs?: () => number) => {
      const wallet = await signer.address();
      const standing = await tokenStanding(chain, chainSettings.usdtContract, wallet);
      // The API refuses to pay Cambio's own addresses: it learns them here (refused-destinations.ts).
      await recordCambioAddresses(cambioAddresses, NETWORK, { hotWallet: wallet, tokenContracts: (await chain.usdtContracts?.(chainSettings.usdtContract)) ?? [chainSettings.usdtContract] });
      const deps = { ...sending, log, timeLeftMs };
      const sent = usdtMayMove(standing) ? await sendWithdrawals(deps) : NOTHING_SENT;
      const settled = await settleWithdrawals(deps);
      return {
        outcome: { sent, settled, standing },
        counts: senderCounts({ sent, settled, standing }),
        seconds: senderSeconds(settled),
        busy: !usdtMayMove(standing) || sent.sent + sent.awaitingFloat + settled.rebroadcast + settled.completed + settled.failed > 0,
      };
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
      builder: tronTransfers.builder(chain, settings),
      hotWallet,
      // The HD account key: held by this function alone (its secret is granted to nothing else).
      depositKeys: new HdDepositKeySigner(localXprv ? async () => localXprv : secretsManagerXprv(needed(settings.SWEEP_ACCOUNT_XPRV_SECRET, 'SWEEP_ACCOUNT_XPRV_SECRET', 'no LOCAL_DEPOSIT_ACCOUNT_XPRV'))),
      store: new DynamoSweepStore(db, tableName),
      claims: new DynamoTransactionClaims(db, tableName),
      settings: { minimumSweep: settings.SWEEP_MINIMUM_USDT, feeTopUp: BigInt(settings.SWEEP_TOP_UP_SUN) },
    };
    return async (log: Log) => {
      // Frozen addresses the issuer has unfrozen go back to the due list first.
      const { stillFrozen } = await returnUnfrozen(sweeping.store, sweeping.frozenAmong!);
      const standing = await tokenStanding(chain, chainSettings.usdtContract, await hotWallet.address());
      if (!usdtMayMove(standing)) {
        return { outcome: { outcome: null, standing, frozenAddresses: stillFrozen }, counts: { DepositAddressesFrozen: stillFrozen, ...standingCounts(standing) }, busy: true };
      }
      const outcome = await sweepDepositAddresses({ ...sweeping, log });
      const frozenAddresses = stillFrozen + outcome.frozen;
      return {
        outcome: { outcome: { ...outcome }, standing, frozenAddresses },
        counts: { DepositAddressesFrozen: frozenAddresses, ...standingCounts(standing), SweepsDone: outcome.done, SweepsFailed: outcome.failed, SweepsHeld: outcome.held },
        busy: frozenAddresses > 0 || Object.values(outcome).some((count) => count > 0),
      };
    };
  },
};
