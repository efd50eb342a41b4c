import type { NetworkJobs } from '../network.ts';
import type { Log } from '../../shared/log.ts';
import { tokenStanding } from '../token-standing.ts';
import { withdrawalSenderRun } from '../job-runs.ts';
import { recordCambioAddresses } from '../../withdrawals/refused-destinations.ts';
import { cambioAddressesOf } from '#adapters/dynamo/cambio-address-store';
import { sendSolanaWithdrawals, settleSolanaWithdrawals, solanaSendingDepsFrom } from './withdrawal-sending.ts';
import { solanaSweepDepsFrom, solanaSweeperRun } from './sweeps.ts';
import { solanaSettingsOf } from './from-settings.ts';

const NETWORK = 'solana';
const NOTHING_SENT = { sent: 0, rebroadcast: 0, completed: 0, failed: 0, awaitingFloat: 0 };

/**
 * Solana's signing jobs: each payout its own transaction from the hot wallet (an Ed25519 key: KMS
 * on deployed stages), re-sent while its blockhash can land and signed again on a new one only once
 * it cannot (./withdrawal-sending.ts); deposit token accounts swept into the hot wallet's, several a
 * transaction, each signed by its owner's key derived from the seed only the sweeper holds, emptied
 * accounts closed (./sweeps.ts), and the deposit addresses written ahead first (./deposit-owners.ts).
 * Each run reads the token's standing: nothing new is sent or swept while the hot wallet's token
 * account is frozen (SPL Token has no pause: functions/networks/token-standing.ts).
 */
export const solanaJobs: NetworkJobs = {
  withdrawalSender(settings, table) {
    const sending = solanaSendingDepsFrom(settings, table);
    const { chain, signer, usdtMint } = sending;
    const cambioAddresses = cambioAddressesOf(table.db, table.tableName);
    const hotWalletSolMinimum = BigInt(solanaSettingsOf(settings).hotWalletSolMinimum);
    return async (log: Log, timeLeftMs?: () => number) => {
      const deps = { ...sending, log, timeLeftMs };
      return withdrawalSenderRun({
        standing: async () => tokenStanding(chain, usdtMint, await signer.address()),
        beforeSending: async () => recordCambioAddresses(cambioAddresses, NETWORK, { hotWallet: await signer.address(), tokenContracts: [usdtMint] }),
        send: () => sendSolanaWithdrawals(deps),
        nothingSent: NOTHING_SENT,
        settle: () => settleSolanaWithdrawals(deps),
        family: async (_sent, settled) => {
          // The hot wallet pays every fee and the rent of the token accounts payouts create.
          const low = (await chain.feeBalance(await signer.address())) < hotWalletSolMinimum;
          if (low) log.warn('hot wallet SOL low', { network: NETWORK, minimumLamports: String(hotWalletSolMinimum) });
          return { counts: { WithdrawalsReplaced: settled.replaced, HotWalletGasLow: low ? 1 : 0 }, moved: settled.replaced };
        },
      });
    };
  },

  depositSweeper(settings, table) {
    const sweeper = solanaSweepDepsFrom(settings, table);
    return async (log: Log) => solanaSweeperRun(sweeper, log);
  },
};
