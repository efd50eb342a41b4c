import type { TransactionPartialSigner } from '@solana/kit';
import { expirySettleMarginBlocks, receivedBy, type Broadcaster, type TransactionReceipt } from '../chain.ts';
import { tokenStanding, usdtMayMove, type TokenStanding } from '../token-standing.ts';
import { domainEvent } from '../../shared/events.ts';
import { stderrLog, type Log } from '../../shared/log.ts';
import { inParallel } from '../../shared/in-parallel.ts';
import { broadcastOwned, TransactionIdTaken, withdrawalOwner, type TransactionClaims } from '../../withdrawals/payouts.ts';
import { withdrawalView, type NetworkCost, type Withdrawal } from '../../withdrawals/withdrawals.ts';
import { complete, fail, failSanctioned, FINISH_RESERVE_MS, PayoutFloat, sanctionedNow, SETTLE_IN_FLIGHT, sendablePages, spendableFloat, stuckProcessing, withdrawalPagesIn, type ScreeningRun, type SendingRun, type SendResult, type SettleResult } from '../../withdrawals/withdrawal-sending.ts';
import type { JobTable } from '../network.ts';
import type { FunctionSettings } from '../../settings/functions.ts';
import { DynamoTransactionClaims } from '#adapters/dynamo/transaction-claims';
import { DynamoWithdrawalSendingStore } from '#adapters/dynamo/withdrawal-sending-store';
import type { SignatureStatus, SolanaChain } from './chain.ts';
import { solanaChainOf, solanaSettingsOf } from './from-settings.ts';
import { escalatedPriorityFee, payoutConditions, refusedForThePayee, signedPayout, type PayoutConditions } from './payouts.ts';
import { SolanaBlockhashNotFound, SolanaTransactionRefused, type SolanaRpcChain } from './rpc-chain.ts';
import { asTransactionSigner, solanaSignerFrom, type SolanaSigner } from './signer.ts';
import { solana } from './network.ts';
import { isSolanaWallet } from './address.ts';

/**
 * Sending withdrawals on Solana, where, as on TRON, a transaction has no nonce: its id is its
 * signature, and it expires, here by block height (its blockhash's `lastValidBlockHeight`, some 150
 * blocks, a minute, after it was read). Each payout is its own transaction (./payouts.ts), built and
 * signed, stored with the claim `pending → processing` and the claim of its signature
 * (functions/withdrawals/payouts.ts), and only then broadcast. Settling goes by the signature's status:
 *
 * - finalized: completed from its final receipt (what the payee's token account received, and what
 *   the hot wallet paid in SOL: payoutCost), or failed with the transaction's error, the money back
 *   to the company (the fee it still paid recorded alike);
 * - unknown, its blockhash still valid: its broadcast was lost (a sender that died before it, a
 *   node that dropped it), and the same signed bytes are broadcast again, REBROADCAST_AFTER_MS after
 *   the last time (stored with the claim, then with each broadcast made again): they can land only once;
 * - unknown once the `finalized` block height is past its lastValidBlockHeight: it can no longer
 *   land, and is not broadcast again. It is settled by its final receipt if the final view has one;
 *   else it waits until the `finalized` height is EXPIRY_SETTLE_MARGIN_BLOCKS further on, so that no
 *   backend answering for the provider can still be catching up to a block it landed in, and, still
 *   unknown to both views then, it is signed again on a new blockhash, a new signature claimed for
 *   the same withdrawal, once screened again as a pending payout is (its payee listed since, it
 *   fails DESTINATION_SANCTIONED, its funds back: nothing of it was paid); it is never failed for
 *   expiring, and never signed again while the old one can still land or be unknown only to a
 *   lagging backend. One the node's preflight refused for the payee's sake (its token account
 *   frozen or closed: payouts.ts refusedForThePayee) fails then with that error instead: a new
 *   signature would be refused alike. One refused for the hot wallet's own lack (SOL for a new
 *   token account's rent) is signed again, and lands once the wallet is funded.
 * - While the run's token standing says USDT may not move from the hot wallet (the issuer froze its
 *   token account: ../token-standing.ts), settling sends nothing from it: no broadcast made again,
 *   no payout signed again or failed for a refusal (the refusal may be the hot wallet's own). Those
 *   payouts wait `processing` (counted by the stuck alarm from their first signing) and go out once
 *   it is unfrozen; what lands meanwhile is settled as ever.
 *
 * What every network's sending shares (pages, the float, completing and failing, the stuck alarm)
 * is functions/withdrawals/withdrawal-sending.ts.
 */

/** What the sender reads and sends on Solana's chain. */
export type SolanaSendingChain = Pick<SolanaChain, 'latestBlockhash' | 'tokenAccounts' | 'tokenAccountOwners' | 'recentPriorityFee' | 'blockHeight' | 'signatureStatuses' | 'finalReceipt'>;

export interface SolanaSendingDeps extends SendingRun {
  chain: SolanaSendingChain;
  /** The chain's broadcast (./rpc-chain.ts), apart so a test can lose or refuse it. */
  broadcaster: Broadcaster;
  /** The hot wallet: fee payer, USDT sender, and payer of the token accounts payouts create. */
  signer: SolanaSigner;
  claims: TransactionClaims;
  usdtMint: string;
  /** The most a payout offers per compute unit, micro-lamports (SOLANA `priorityFeeCapMicroLamports`). */
  priorityFeeCap: bigint;
  /** Whether USDT may move from the hot wallet (../token-standing.ts): settling asks it, once a run,
   * before it broadcasts or signs anything again. The job gives the run's own reading. */
  standing: () => Promise<TokenStanding>;
  /** Whether USDT may move from the hot wallet now (as EVM's and TRON's senders ask it), read when
   * the node refuses a payout for a frozen account: the run's reading (`standing`) may predate a
   * freeze of the hot wallet's own token account, which the Token program refuses with the same
   * AccountFrozen as a frozen payee's. Absent: the refusal is taken as the payee's. */
  usdtMayMoveNow?: () => Promise<boolean>;
  now?: () => Date;
  /** The run's logger; stderr JSON when absent. */
  log?: Log;
}

/**
 * The sender as the withdrawal-sender job builds it once, at cold start, from the function's
 * settings and the table: the stage's chain (its broadcast too), the hot wallet's signer (KMS, or
 * the local key), Solana's withdrawals alone, and the float read from the hot wallet's USDT token
 * account. `chain` is the job's for the token's standing and what it reads besides.
 */
export function solanaSendingDepsFrom(settings: FunctionSettings<'jobs/withdrawal-sender'>, { db, tableName }: JobTable): SolanaSendingDeps & { chain: SolanaRpcChain } {
  const { usdtMint } = solanaSettingsOf(settings);
  const chain = solanaChainOf(settings);
  const signer = solanaSignerFrom(settings);
  return {
    chain,
    broadcaster: chain,
    signer,
    store: new DynamoWithdrawalSendingStore(db, tableName, 'solana'),
    claims: new DynamoTransactionClaims(db, tableName),
    usdtMint,
    priorityFeeCap: BigInt(solanaSettingsOf(settings).priorityFeeCapMicroLamports),
    standing: async () => tokenStanding(chain, usdtMint, await signer.address()),
    usdtMayMoveNow: async () => usdtMayMove(await tokenStanding(chain, usdtMint, await signer.address())),
    hotWalletUsdt: async () => chain.tokenBalance(usdtMint, await signer.address()),
  };
}

/** A settling run's result: `replaced`, the payouts signed again on a new blockhash, their old
 * transaction past landing (WithdrawalSenderRun's `replaced`). */
export type SolanaSettleResult = SettleResult & { replaced: number };

/** Solana payouts signed, claimed and broadcast at once by one run. */
export const SEND_IN_FLIGHT = 8;

/** A payout still unknown to the node is broadcast again once this long has passed since its last
 * broadcast: nodes drop transactions under load, and sending the same bytes again is what a client
 * does until they land or expire. Not at once: the run that sent it settles right after. */
export const REBROADCAST_AFTER_MS = 10_000;

/**
 * How far past a payout's lastValidBlockHeight the `finalized` block height must be before a payout
 * no view knows is signed again (or failed for its refusal): 150 blocks, about 60 s of Solana's
 * 400 ms slots, TRON's EXPIRY_SETTLE_MARGIN_MS (20 TRON blocks) in Solana's blocks. A provider
 * answers from several backends behind a load balancer, and the one answering getSignatureStatuses
 * and getTransaction may trail the one that answered getBlockHeight by a few slots: a payout that
 * landed in one of its last valid blocks is then unknown to it for a moment, and signing it again
 * at once would pay the payee twice (failing it, lose a payment that was made). Block heights count
 * only the slots that made a block, so 150 of them take about 60 s or more.
 */
export const EXPIRY_SETTLE_MARGIN_BLOCKS = BigInt(expirySettleMarginBlocks(solana));

/** A payout as the withdrawal stores it in `transaction.signed` (JSON): the signed transaction, the
 * block height past which it can no longer land, and the program error the node's preflight refused
 * it for, while it stands. */
interface StoredPayout {
  wire: string;
  lastValidBlockHeight: bigint;
  refusal?: string;
}

function storedPayout(withdrawal: Withdrawal): StoredPayout {
  const stored = JSON.parse(withdrawal.transaction!.signed) as { wire: string; lastValidBlockHeight: string; refusal?: string };
  return { wire: stored.wire, lastValidBlockHeight: BigInt(stored.lastValidBlockHeight), ...(stored.refusal !== undefined && { refusal: stored.refusal }) };
}

const storedForm = ({ wire, lastValidBlockHeight, refusal }: StoredPayout): string =>
  JSON.stringify({ wire, lastValidBlockHeight: lastValidBlockHeight.toString(), ...(refusal !== undefined && { refusal }) });

/** A payout screened before it is signed (functions/withdrawals/withdrawal-sending.ts sanctionedNow):
 * a USDT token account named as the payee by the wallet that owns it now, read on the chain (one
 * getMultipleAccounts, only where a payee is one), as well as by itself. The list names wallets, and
 * the owner was screened at the request, but may be listed since or have handed the account on. */
const screenedAsPaid = (deps: SolanaSendingDeps): SolanaSendingDeps & Required<ScreeningRun> => ({
  ...deps,
  reachedThrough: (payees) => deps.chain.tokenAccountOwners(payees.filter((payee) => !isSolanaWallet(payee))),
});

export async function sendSolanaWithdrawals(deps: SolanaSendingDeps): Promise<SendResult> {
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? stderrLog;
  const result: SendResult = { sent: 0, rebroadcast: 0, completed: 0, failed: 0, awaitingFloat: 0 };
  let hotWallet: TransactionPartialSigner | undefined;
  let float: PayoutFloat | undefined;
  // The issuer froze the hot wallet's account during the run (a broadcast refused for it): the
  // payouts not claimed yet wait pending, as they would under a freeze the run had read at its start.
  let frozenMidRun = false;
  const send = async (withdrawal: Withdrawal, conditions: PayoutConditions) => {
    if (frozenMidRun) return;
    const processing = await float!.claim(withdrawal, result, () => signAndClaim(deps, hotWallet!, withdrawal, conditions, now(), { announce: true }));
    if (!processing) return;
    result.sent++;
    // Stored and signed: a failed broadcast is settling's to make again while the bytes can land.
    const broadcast = await broadcastStored(deps, processing, now, { again: false }).catch((error: unknown) => broadcastFailed(log, processing, error));
    if (broadcast === HOT_WALLET_FROZEN) frozenMidRun = true;
  };
  for await (const page of sendablePages(screenedAsPaid(deps), result)) {
    if (frozenMidRun) break;
    // Read once a run, and only when something is pending.
    hotWallet ??= await asTransactionSigner(deps.signer);
    float ??= new PayoutFloat(await spendableFloat(deps));
    // One blockhash and one read of the payees' token accounts for the page: each payout is still
    // its own transaction (its memo is its withdrawal's id).
    const conditions = await payoutConditions(deps.chain, deps.usdtMint, page.map((withdrawal) => withdrawal.address), { hotWallet: hotWallet.address, priorityFeeCap: deps.priorityFeeCap });
    await inParallel(page, SEND_IN_FLIGHT, (withdrawal) => send(withdrawal, conditions));
  }
  return result;
}

/**
 * Signs a payout for the withdrawal and stores it, its signature claimed: `pending → processing`
 * (announced), or, for one already processing whose transaction can no longer land, in place of that
 * transaction (not announced: nothing changed for the company). A replacement keeps `updatedAt`, the
 * time of the claim, so the stuck alarm counts from the first signing, not the last. Null: the
 * withdrawal moved on in between (another sender signed it first).
 */
async function signAndClaim(
  deps: SolanaSendingDeps,
  hotWallet: TransactionPartialSigner,
  withdrawal: Withdrawal,
  conditions: PayoutConditions,
  at: Date,
  { announce }: { announce: boolean },
): Promise<Withdrawal | null> {
  const payout = await signedPayout(hotWallet, deps.usdtMint, { withdrawalId: withdrawal.id, to: withdrawal.address, amount: withdrawal.amount }, conditions);
  const processing: Withdrawal = {
    ...withdrawal,
    status: 'processing',
    txHash: payout.signature,
    // Its expiry is a block height, kept with the transaction; no time says it. Stored as broadcast
    // at its claim, as an EVM payout is: the broadcast follows this write, and recording it after
    // would be a second write a payout. One lost in between (a sender killed there) is broadcast
    // again by the first settling REBROADCAST_AFTER_MS later, as a dropped one is.
    transaction: { signed: storedForm({ wire: payout.wire, lastValidBlockHeight: payout.lastValidBlockHeight }), expiresAt: null, broadcastAt: at.toISOString() },
    updatedAt: announce ? at.toISOString() : withdrawal.updatedAt,
  };
  const event = announce ? domainEvent(withdrawal.companyId, 'withdrawal.processing', withdrawalView(processing), at) : null;
  try {
    if (!(await deps.store.transition(withdrawal, processing, { entry: null, event }))) return null;
  } catch (error) {
    // Ed25519 signs alike every time: the same withdrawal built on the same blockhash by another
    // sender is the same transaction, already claimed for it. Any other payout's is impossible (the
    // memo names the withdrawal), and is thrown.
    if (error instanceof TransactionIdTaken && (await deps.claims.ownerOf(error.txId)) === withdrawalOwner(withdrawal.id)) return null;
    throw error;
  }
  return processing;
}

/** What broadcastStored answers for a payout the node refused because the hot wallet's own account is frozen now. */
const HOT_WALLET_FROZEN = 'hot-wallet-frozen';

/** The Token program's AccountFrozen (error 17), from whichever instruction met the frozen account. */
const ACCOUNT_FROZEN = /^InstructionError:\d+:Custom:17$/;

/**
 * Broadcasts the withdrawal's stored transaction. A refusal for a program's error
 * (SolanaTransactionRefused: the node's preflight ran it and a program failed) is recorded with the
 * transaction, for settling to fail it by once it can no longer land; any other failure is thrown,
 * the transaction left for settling to broadcast again. A first broadcast writes nothing more (its
 * time was stored with its claim); one `again` records its time, and clears a refusal that no longer
 * stands. Answers the record as stored after, or HOT_WALLET_FROZEN for a refusal the hot wallet's
 * frozen account made (not kept: the payout waits for the thaw).
 */
async function broadcastStored(deps: SolanaSendingDeps, withdrawal: Withdrawal, now: () => Date, { again }: { again: boolean }): Promise<Withdrawal | typeof HOT_WALLET_FROZEN> {
  const transaction = withdrawal.transaction!;
  const stored = storedPayout(withdrawal);
  let refusal: string | undefined;
  try {
    await broadcastOwned(deps.broadcaster, deps.claims, withdrawal.txHash!, { wire: stored.wire }, withdrawalOwner(withdrawal.id));
  } catch (error) {
    if (!(error instanceof SolanaTransactionRefused) || !error.reason.startsWith('InstructionError')) throw error;
    // AccountFrozen from the hot wallet's own account, frozen since the run read its standing: not
    // the payee's, so not kept to fail the payout by. It waits, as any payout of a frozen hot
    // wallet does, and is signed again once thawed.
    if (ACCOUNT_FROZEN.test(error.reason) && deps.usdtMayMoveNow && !(await deps.usdtMayMoveNow())) {
      (deps.log ?? stderrLog).warn("the node refused the payout while the hot wallet's token account is frozen: it waits for the thaw", { withdrawalId: withdrawal.id, txHash: withdrawal.txHash, reason: error.reason });
      return HOT_WALLET_FROZEN;
    }
    (deps.log ?? stderrLog).warn('the node refused the payout for a program error; it fails once it can no longer land', { withdrawalId: withdrawal.id, txHash: withdrawal.txHash, reason: error.reason, error: error.message });
    if (stored.refusal === error.reason) return withdrawal;
    refusal = error.reason;
  }
  if (refusal === undefined && !again) return withdrawal;
  const after: Withdrawal = {
    ...withdrawal,
    transaction: {
      ...transaction,
      signed: storedForm({ wire: stored.wire, lastValidBlockHeight: stored.lastValidBlockHeight, ...(refusal !== undefined && { refusal }) }),
      broadcastAt: refusal === undefined ? now().toISOString() : transaction.broadcastAt,
    },
  };
  return (await deps.store.transition(withdrawal, after, { entry: null, event: null })) ? after : withdrawal;
}

/** A broadcast that failed is made again by the next settling while the transaction can land. A
 * blockhash the node does not know is no fault of ours: a node behind the one that gave it, or the
 * window closing, which the block height settles. */
function broadcastFailed(log: Log, withdrawal: Withdrawal, error: unknown): void {
  const fields = { withdrawalId: withdrawal.id, txHash: withdrawal.txHash, error: String(error) };
  if (error instanceof SolanaBlockhashNotFound) log.warn('broadcast refused for its blockhash; broadcast again while it can land', fields);
  else log.error('broadcast failed; will retry', fields);
}

/**
 * Settles sent withdrawals by their signatures' status (see the module's comment), and reports
 * those still processing for too long (read oldest first, so the oldest age is exact even when the
 * run's time ends before the last page).
 */
export async function settleSolanaWithdrawals(deps: SolanaSendingDeps): Promise<SolanaSettleResult> {
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? stderrLog;
  const result: SolanaSettleResult = { sent: 0, rebroadcast: 0, completed: 0, failed: 0, awaitingFloat: 0, replaced: 0, stuck: { count: 0, oldestAgeSeconds: 0 } };
  const remaining: Withdrawal[] = [];
  // Read once a run, when the first withdrawal needs it. Read early, it errs low, which only delays
  // a replacement: the finalized height only grows.
  let finalizedHeight: Promise<bigint> | undefined;
  let hotWallet: Promise<TransactionPartialSigner> | undefined;
  // Asked once a run, when the first withdrawal would send something (a broadcast made again, a
  // payout signed again): while USDT may not move from the hot wallet, nothing is sent from it.
  let mayMove: Promise<boolean> | undefined;
  const hotWalletMaySend = () =>
    (mayMove ??= deps.standing().then((standing) => {
      if (!usdtMayMove(standing)) log.warn("the hot wallet's USDT may not move: processing payouts wait, neither broadcast nor signed again", { network: 'solana', ...standing });
      return usdtMayMove(standing);
    }));

  const settleFinal = async (withdrawal: Withdrawal, receipt: TransactionReceipt) => {
    const cost = payoutCost(receipt, withdrawal.address);
    const settled = receipt.result === 'SUCCESS' ? complete(withdrawal, now(), receivedBy(receipt, withdrawal.address), cost) : fail(withdrawal, receipt.result, now(), cost);
    if (await deps.store.transition(withdrawal, settled.after, settled)) {
      if (settled.after.status === 'completed') result.completed++;
      else result.failed++;
    }
  };

  const settle = async (withdrawal: Withdrawal, status: SignatureStatus | null, replacementConditions: () => Promise<PayoutConditions>) => {
    const txHash = withdrawal.txHash!;
    if (status?.confirmationStatus === 'finalized') {
      const receipt = await deps.chain.finalReceipt(txHash);
      // The node behind the status may be ahead of the one giving transactions: asked again next run.
      if (receipt) return settleFinal(withdrawal, receipt);
      remaining.push(withdrawal);
      return;
    }
    if (status) {
      remaining.push(withdrawal); // in a block, not yet final
      return;
    }
    const stored = storedPayout(withdrawal);
    finalizedHeight ??= deps.chain.blockHeight('finalized');
    const finalized = await finalizedHeight;
    if (finalized > stored.lastValidBlockHeight) {
      // Every block it could have landed in is final. The status index may lag the final view: a
      // transaction that view holds is settled by it.
      const receipt = await deps.chain.finalReceipt(txHash);
      if (receipt) return settleFinal(withdrawal, receipt);
      // Unknown to both, but they may be a backend trailing the one that gave the height: nothing
      // is decided before the margin has passed (its blockhash expired, there is nothing to send).
      if (finalized <= stored.lastValidBlockHeight + EXPIRY_SETTLE_MARGIN_BLOCKS || !(await hotWalletMaySend())) {
        remaining.push(withdrawal);
        return;
      }
      if (stored.refusal !== undefined && refusedForThePayee(stored.wire, stored.refusal)) {
        const failed = fail(withdrawal, stored.refusal, now());
        if (await deps.store.transition(withdrawal, failed.after, failed)) result.failed++;
        return;
      }
      // Signed again, it pays anew: screened first, as a pending payout is. Nothing of it was paid
      // (its blockhash expired past the margin: the old transaction can never land), so a listed
      // payee fails it with its funds back.
      if ((await sanctionedNow(screenedAsPaid(deps), [withdrawal])).size > 0) {
        await failSanctioned(deps, withdrawal, result);
        return;
      }
      if (stored.refusal !== undefined) log.warn("a payout refused for the hot wallet's own lack is signed again", { withdrawalId: withdrawal.id, txHash, refusal: stored.refusal });
      hotWallet ??= asTransactionSigner(deps.signer);
      // Offering more than the expired one did: the same offer may not land again either.
      const conditions = await replacementConditions();
      const raised = { ...conditions, priorityFee: escalatedPriorityFee(stored.wire, conditions.priorityFee, deps.priorityFeeCap) };
      const replacement = await signAndClaim(deps, await hotWallet, withdrawal, raised, now(), { announce: false });
      if (!replacement) return;
      result.replaced++;
      log.warn('payout expired unlanded; signed again on a new blockhash', { withdrawalId: withdrawal.id, expiredTxHash: txHash, txHash: replacement.txHash, priorityFee: raised.priorityFee });
      remaining.push(replacement);
      await broadcastStored(deps, replacement, now, { again: false }).catch((error: unknown) => broadcastFailed(log, replacement, error));
      return;
    }
    remaining.push(withdrawal);
    const broadcastAt = withdrawal.transaction!.broadcastAt;
    if (broadcastAt && now().getTime() - Date.parse(broadcastAt) < REBROADCAST_AFTER_MS) return;
    if (!(await hotWalletMaySend())) return;
    result.rebroadcast++;
    await broadcastStored(deps, withdrawal, now, { again: true }).catch((error: unknown) => broadcastFailed(log, withdrawal, error));
  };

  for await (const page of withdrawalPagesIn(deps, 'processing', FINISH_RESERVE_MS)) {
    const statuses = await deps.chain.signatureStatuses(page.map((withdrawal) => withdrawal.txHash!));
    // Read for the page's replacements, if it has any: one blockhash, one read of token accounts.
    let conditions: Promise<PayoutConditions> | undefined;
    const replacementConditions = () => (conditions ??= deps.signer.address().then((hotWallet) => payoutConditions(deps.chain, deps.usdtMint, page.map((withdrawal) => withdrawal.address), { hotWallet, priorityFeeCap: deps.priorityFeeCap })));
    await inParallel(
      page.map((withdrawal, index) => ({ withdrawal, status: statuses[index] ?? null })),
      SETTLE_IN_FLIGHT,
      ({ withdrawal, status }) => settle(withdrawal, status, replacementConditions),
    );
  }
  result.stuck = stuckProcessing(remaining, now());
  return result;
}

/**
 * What a landed payout cost the hot wallet, its fee payer, from its final receipt: the fee, and the
 * rent of the payee's token account when this transaction created it. Told by the receipt, not by
 * the stored transaction: its create instruction is idempotent, and a payout built alongside another
 * to the same new payee finds the account made when it lands, and pays no rent. Null where the node
 * gave no balances.
 */
function payoutCost(receipt: TransactionReceipt, payee: string): NetworkCost | null {
  if (!receipt.feePayerCost) return null;
  const tokenAccountCreated = receipt.tokenTransfers?.some((transfer) => transfer.to === payee && transfer.toAccountCreated === true) ?? false;
  return { ...receipt.feePayerCost, tokenAccountCreated };
}
