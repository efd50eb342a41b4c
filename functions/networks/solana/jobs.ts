import type { DepositSweeperRun, JobRunOutcome, NetworkJobs } from '../network.ts';
import type { Log } from '../../shared/log.ts';
import { tokenStanding, type TokenStanding } from '../token-standing.ts';
import { depositSweeperRun, withdrawalSenderRun } from '../job-runs.ts';
import { recordCambioAddresses } from '../../withdrawals/refused-destinations.ts';
import { cambioAddressesOf } from '#adapters/dynamo/cambio-address-store';
import { sendSolanaWithdrawals, settleSolanaWithdrawals, solanaSendingDepsFrom } from './withdrawal-sending.ts';
import { solanaSweepDepsFrom, sweepSolanaDepositAddresses, type SolanaSweeper } from './sweeps.ts';
import { solanaSettingsOf } from './from-settings.ts';
import { reviewFrozenAddresses } from '../../deposits/frozen-addresses.ts';
import { openDepositAccounts, reclaimExpiredDepositAccounts } from './deposit-accounts.ts';
import type { SolanaChain } from './chain.ts';

const NETWORK = 'solana';
const NOTHING_SENT = { sent: 0, rebroadcast: 0, completed: 0, failed: 0, awaitingFloat: 0 };

/**
 * Solana's signing jobs: each payout its own transaction from the hot wallet (an Ed25519 key: KMS
 * on deployed stages), re-sent while its blockhash can land and signed again on a new one only once
 * it cannot (./withdrawal-sending.ts); deposit token accounts swept into the hot wallet's, many a
 * transaction, emptied accounts closed (./sweeps.ts): the accounts the sweeper opened (the hot
 * wallet their delegate and close authority: ./deposit-accounts.ts) on the hot wallet's signature,
 * others on their owners' keys from the seed only the sweeper holds; the deposit addresses written
 * ahead first (./deposit-owners.ts).
 * Each run reads the token's standing: nothing new is sent or swept while the hot wallet's token
 * account is frozen (SPL Token has no pause: functions/networks/token-standing.ts), and the sender's
 * settling, given the same reading, broadcasts and signs nothing again meanwhile.
 */
export const solanaJobs: NetworkJobs = {
  withdrawalSender(settings, table) {
    const sending = solanaSendingDepsFrom(settings, table);
    const { chain, signer, usdtMint } = sending;
    const cambioAddresses = cambioAddressesOf(table.db, table.tableName);
    const hotWalletSolMinimum = BigInt(solanaSettingsOf(settings).hotWalletSolMinimum);
    return async (log: Log, timeLeftMs?: () => number) => {
      // Read once a run: the run's sending and its settling go by the same reading.
      let read: Promise<TokenStanding> | undefined;
      const standing = () => (read ??= sending.standing());
      const deps = { ...sending, standing, log, timeLeftMs };
      return withdrawalSenderRun({
        standing,
        beforeSending: async () => recordCambioAddresses(cambioAddresses, NETWORK, { hotWallet: await signer.address(), tokenContracts: [usdtMint] }),
        send: () => sendSolanaWithdrawals(deps),
        nothingSent: NOTHING_SENT,
        settle: () => settleSolanaWithdrawals(deps),
        family: async (_sent, settled) => ({
          counts: { WithdrawalsReplaced: settled.replaced, HotWalletGasLow: await hotWalletSolLow(chain, await signer.address(), hotWalletSolMinimum, log) },
          moved: settled.replaced,
        }),
      });
    };
  },

  depositSweeper(settings, table) {
    const sweeper = solanaSweepDepsFrom(settings, table);
    return async (log: Log) => solanaSweeperRun(sweeper, log);
  },
};

/**
 * One run of Solana's sweeper (functions/networks/job-runs.ts depositSweeperRun, which the other
 * families run too): the deposit owners' top-up first, whatever the token's standing, since deposit
 * creation waits on it; then the new deposit addresses' accounts opened and expired ones reclaimed
 * (./deposit-accounts.ts: a failure there is logged, and costs only a larger sweep); then frozen
 * addresses the issuer thawed back to the due list, the token's standing, the sweep, and Solana's
 * counts.
 */
export async function solanaSweeperRun(sweeper: SolanaSweeper, log: Log, now = new Date()): Promise<JobRunOutcome<DepositSweeperRun>> {
  const { deps } = sweeper;
  const ownersWritten = await sweeper.writeOwnersAhead(now);
  const accounts = await openAndReclaim(sweeper, log, now);
  const openingNow = new Set(accounts.opened);
  return depositSweeperRun({
    reviewFrozen: () => reviewFrozenAddresses(deps.store, sweeper.frozenAmong, sweeper.usdtAt),
    standing: async () => tokenStanding(deps.chain, deps.mint, await sweeper.hotWallet.address()),
    sweep: () => sweepSolanaDepositAddresses({ ...deps, log, openingNow }),
    family: async (swept) => ({
      SweepsDone: swept.done,
      SweepsFailed: swept.failed,
      SweptDepositAccounts: swept.swept,
      SweepsResigned: swept.resigned,
      DepositOwnerBlocksWritten: ownersWritten,
      DepositAccountsOpened: accounts.opened.length,
      DepositAccountsReclaimed: accounts.reclaimed,
      HotWalletGasLow: await hotWalletSolLow(deps.chain, await sweeper.hotWallet.address(), sweeper.hotWalletSolMinimum, log),
    }),
  });
}

/** Opens the new deposit addresses' accounts and reclaims expired ones; a failure is logged, not thrown. */
export async function openAndReclaim(sweeper: SolanaSweeper, log: Log, now = new Date()): Promise<{ opened: string[]; reclaimed: number }> {
  const deps = { ...sweeper.depositAccounts, log };
  const hotWallet = await sweeper.deps.hotWallet();
  const quietly = async <T>(what: string, run: () => Promise<T>, otherwise: T): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      log.error(`${what} failed; tried again next run`, { network: 'solana', error: String(error) });
      return otherwise;
    }
  };
  const { opened } = await quietly('opening deposit accounts', () => openDepositAccounts(deps, hotWallet, now), { opened: [] as string[], transactions: 0 });
  const { closed } = await quietly('reclaiming expired deposit accounts', () => reclaimExpiredDepositAccounts(deps, hotWallet, now), { closed: 0, transactions: 0 });
  return { opened, reclaimed: closed };
}

/** 1 when the hot wallet's SOL is below the stage's minimum (HotWalletGasLow), logged: it pays every
 * fee, the rent of the token accounts payouts create and of the deposit accounts the sweeper opens. */
async function hotWalletSolLow(chain: Pick<SolanaChain, 'feeBalance'>, hotWallet: string, minimum: bigint, log: Log): Promise<0 | 1> {
  const low = (await chain.feeBalance(hotWallet)) < minimum;
  if (low) log.warn('hot wallet SOL low', { network: NETWORK, minimumLamports: String(minimum) });
  return low ? 1 : 0;
}
