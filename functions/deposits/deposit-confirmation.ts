import { EXPIRY_SETTLE_MARGIN_MS, expirySettleMarginBlocks, type TransactionReceipt } from '../networks/chain.ts';
import { NETWORK_NAMES, type NetworkName } from '../networks/names.ts';
import { networkNamed } from '../networks/registry.ts';
import type { Deposit, HoldReason } from './deposits.ts';
import { inParallel } from '../shared/in-parallel.ts';
import { stderrLog } from '../shared/log.ts';
import { formatAmount } from '../shared/money.ts';
import type { AuditEntry } from '../companies/audit-log.ts';
import { clearSanctionWhileFrozen, confirmTransfer, dropTransfer, expireDeposit, GONE_AT_UNFREEZE, holdTransfer, reholdTransfer, releaseFrozenCredit, releaseTransfer, refreshConfirmations, stillAtAddress, transferId, uncountedCreditOf, type TransferRecord } from './deposit-transitions.ts';
import type { AddressOwner } from './deposit-address-filter.ts';
import { applySteps, DEPOSITS_IN_FLIGHT, holdsFor, payersOf, RECEIPTS_IN_FLIGHT, splitGuard, withDeposit, type DepositChainStore, type DepositHolds, type DepositJobDeps, type DepositStep } from './deposit-chain.ts';
import { blockHashesAt, blockHashesOf, stillTransfers, unreadableUsdt, usdtContractsOf } from './reorganisations.ts';

/**
 * After a transfer is recorded: confirming it once its block is final (or dropping it), releasing
 * what was held once it may be credited, and expiring deposits never paid.
 */

export interface ConfirmResult {
  confirmed: number;
  dropped: number;
  waiting: number;
  /** Final, but held (HoldReason) rather than credited. */
  held: number;
}

/** The records with their deposit's address (`to`): as recorded, or, for a record made before it
 * was kept, from its deposit (the records lacking it read in one batch). */
async function withRecipients(store: DepositChainStore, records: TransferRecord[]): Promise<(TransferRecord & { to: string })[]> {
  const unknown = records.filter((record) => record.to === undefined);
  const deposits = unknown.length ? await store.getDeposits(unknown.map((record) => ({ companyId: record.companyId, depositId: record.depositId }))) : new Map<string, Deposit>();
  return records.flatMap((record) => {
    const to = record.to ?? deposits.get(record.depositId)?.address;
    return to === undefined ? [] : [{ ...record, to }];
  });
}

/**
 * Held transfers whose hold has lifted by itself: the issuer unfroze the deposit address. Each is
 * credited as its confirmation would have been (`deposit.completed`), unless its payer has been put
 * on the sanctions list while it was held: screened again now, as a credit at finality is, that
 * one stays held as `sender_sanctioned` (`deposit.held`). A sanctioned payer's hold is lifted only
 * by a person (releaseHeldTransfer), whose decision, made while the address was frozen, stands: such
 * a transfer (`sanctionCleared`) is not screened again. One query of the network's held transfers a
 * run, one read of the token's freeze list for their addresses, and one of the sanctions list for
 * the unfrozen ones' payers.
 */
export async function releaseUnfrozen(deps: DepositJobDeps): Promise<number> {
  const now = deps.now ?? (() => new Date());
  if (!deps.holds) return 0;
  const frozenHeld = (await deps.store.heldTransfers()).filter((record) => record.holdReason === 'address_frozen');
  if (frozenHeld.length === 0) return 0;
  const records = await withRecipients(deps.store, frozenHeld);
  const frozen = await deps.holds.frozenAddresses([...new Set(records.map((record) => record.to))]);
  const unfrozen = records.filter((record) => !frozen.has(record.to));
  if (unfrozen.length === 0) return 0;
  const screened = (record: TransferRecord) => !record.sanctionCleared;
  const payers = [...new Set(unfrozen.filter(screened).flatMap(payersOf))];
  const addresses = [...new Set(unfrozen.map((record) => record.to))];
  const [sanctioned, usdtThere, counted] = await Promise.all([
    payers.length ? deps.holds.sanctioned(payers) : Promise.resolve(new Set<string>()),
    deps.holds.usdtAt(addresses),
    deps.store.creditedUnsweptAt(addresses),
  ]);
  const latest = (await deps.chain.latestBlock()).number;
  const gone = new Set<string>();
  const steps: DepositStep<'released' | null>[] = unfrozen.map((record) => {
    const owner = { companyId: record.companyId, depositId: record.depositId };
    if (screened(record) && payersOf(record).some((payer) => sanctioned.has(payer))) return { owner, build: (deposit) => reholdTransfer(deposit, record, 'sender_sanctioned', now()), outcome: null };
    const build: DepositStep<'released'>['build'] = async (deposit, readAllowlist) => {
      const creditedUnswept = counted.get(record.to) ?? uncountedCreditOf(deposit);
      if (!stillAtAddress(deposit, usdtThere.get(record.to) ?? 0n, creditedUnswept)) {
        gone.add(deposit.id);
        return null;
      }
      return releaseTransfer(deposit, record, latest, now(), await splitGuard(deps, deposit, now(), readAllowlist));
    };
    return { owner, build, outcome: 'released' };
  });
  const released = (await applySteps(deps.store, steps)).filter((outcome) => outcome === 'released').length;
  for (const depositId of gone) {
    const record = unfrozen.find((one) => one.depositId === depositId)!;
    (deps.log ?? stderrLog).error(GONE_AT_UNFREEZE, { network: deps.network, companyId: record.companyId, depositId, address: record.to, usdtThere: formatAmount(usdtThere.get(record.to) ?? 0n, 'USDT') });
  }
  return released;
}

/**
 * How many blocks the final chain must be past a transfer's block before a transaction that neither
 * the newest view (receipt()) nor the final one (finalReceipt()) knows is taken as gone, forked out
 * before it was final: a provider answers from several nodes, and the one giving receipts can lag
 * the one giving the final block (TronGrid's full and solidity nodes are different machines).
 * Dropped at once, a payment in a final block would be lost, as the scan has moved past it. The
 * same margin as a payout's expiry (chain.ts expirySettleMarginBlocks), in the network's blocks.
 */
export const unknownTransferGoneAfterBlocks = (network: NetworkName): number => expirySettleMarginBlocks(networkNamed(network));

/** Credits transfers whose block is final and whose receipt says SUCCESS (on a chain that gives
 * block hashes, a receipt that still holds the transfer, stillTransfers, in the block the final
 * chain holds at its height, awaitFinalChainsBlock); drops the ones the final
 * chain does not have (unknown to both views once it is unknownTransferGoneAfterBlocks past their
 * block), that failed, or that a transaction mined again no longer makes; refreshes
 * the confirmation count of the rest.
 * Receipts are read a few at a time and the changes written in batches, so 30 paid transfers a
 * block cost a handful of requests rather than three round trips each.
 *
 * A transfer recorded with its block's hash (EVM) needs no receipt while the final chain still has
 * that block: an EVM transaction that reverted leaves no logs, so the Transfer log the scanner read
 * in that block is the proof of success. One block read per height instead of a receipt per
 * transfer (a provider bills each call). */
export async function confirmDeposits(deps: DepositJobDeps): Promise<ConfirmResult> {
  const now = deps.now ?? (() => new Date());
  const result: ConfirmResult = { confirmed: 0, dropped: 0, waiting: 0, held: 0 };
  const records = await deps.store.confirmingTransfers();
  if (records.length === 0) return result;
  const [final, latest] = await Promise.all([deps.chain.finalBlock(), deps.chain.latestBlock()]);
  const finalRecords = records.filter((record) => record.blockNumber <= final.number);
  const hashes = await blockHashesOf(deps.chain, finalRecords.filter((record) => record.blockHash !== undefined));
  const receipts = new Map<TransferRecord, TransactionReceipt | null>();
  for (const record of finalRecords) {
    if (record.blockHash !== undefined && hashes.get(record.blockNumber) === record.blockHash) {
      receipts.set(record, { txHash: record.txHash, blockNumber: record.blockNumber, blockHash: record.blockHash, result: 'SUCCESS' });
    }
  }
  const asked = finalRecords.filter((record) => !receipts.has(record));
  const unread = await readReceipts(deps, asked, final, receipts);
  const goneAfter = unknownTransferGoneAfterBlocks(deps.network);
  // A record whose block was replaced (it has a hash, and its receipt was asked) is credited only
  // from a receipt that still holds its transfer; so is one recorded without its block's hash (TRON,
  // from events at the head), whose receipt names its Transfer events: a transaction re-mined after
  // a fork can succeed without paying the deposit (a contract's inner transfer). Read the contracts
  // only then.
  const reorganised = asked.filter((record) => !unread.has(record) && (record.blockHash !== undefined || receipts.get(record)?.tokenTransfers !== undefined));
  const contracts = reorganised.length ? await usdtContractsOf(deps) : [];
  for (const record of reorganised) {
    const receipt = receipts.get(record);
    if (receipt && unreadableUsdt(receipt, contracts)) {
      unread.set(record, new Error(`the node answered a USDT Transfer log it cannot read in ${record.txHash}`));
      continue;
    }
    if (receipt?.result === 'SUCCESS' && !stillTransfers(receipt, record, contracts)) {
      (deps.log ?? stderrLog).warn('a deposit transaction was re-mined without its transfer', { depositId: record.depositId, txHash: record.txHash, blockNumber: record.blockNumber, nowIn: receipt.blockNumber });
      receipts.set(record, { ...receipt, result: 'TRANSFER_GONE' });
    }
  }
  await awaitFinalChainsBlock(deps.chain, reorganised, receipts, hashes, final, unread);
  for (const [record, error] of unread) {
    if (error instanceof FinalViewBehind) {
      // A final view lagging a block or two is every run's; one still behind past the margin a
      // transaction unknown to both would be taken as gone is a node to look at: the transfer waits.
      if (final.number >= record.blockNumber + goneAfter) {
        (deps.log ?? stderrLog).warn('a deposit transfer the newest view shows in a final block is still unknown to the final view: left confirming', { depositId: record.depositId, txHash: record.txHash, blockNumber: record.blockNumber });
      }
      continue;
    }
    if (error instanceof OffTheFinalChain) {
      (deps.log ?? stderrLog).warn('a deposit transfer\'s receipt is of a block the final chain does not hold at its height: left confirming', { depositId: record.depositId, txHash: record.txHash, error: error.message });
      continue;
    }
    (deps.log ?? stderrLog).error('a final deposit transfer\'s receipt could not be read: left confirming, the others go on', {
      depositId: record.depositId,
      txHash: record.txHash,
      error: (error as Error).message,
    });
  }
  const credited = finalRecords.filter((record) => {
    const receipt = receipts.get(record);
    return !unread.has(record) && receipt?.result === 'SUCCESS' && receipt.blockNumber <= final.number;
  });
  const holds = deps.holds ? await holdsFor(deps.holds, await withRecipients(deps.store, credited)) : new Map<string, HoldReason>();
  const steps: DepositStep<keyof ConfirmResult | null>[] = [];
  for (const record of records) {
    const owner = { companyId: record.companyId, depositId: record.depositId };
    if (record.blockNumber > final.number) {
      result.waiting++;
      steps.push({ owner, build: (deposit) => refreshConfirmations(deposit, record, latest.number, now()), outcome: null });
      continue;
    }
    if (unread.has(record)) {
      result.waiting++;
      continue;
    }
    const receipt = receipts.get(record) ?? null;
    // Known to neither view: gone only once the final chain is well past its block and, where the
    // record has its block's hash, the node has a block at that height (one that lacks it is behind).
    const nodeBehind = record.blockHash !== undefined && hashes.get(record.blockNumber) === null;
    if (receipt === null && (nodeBehind || final.number < record.blockNumber + goneAfter)) {
      result.waiting++;
      continue;
    }
    if (receipt && receipt.result === 'SUCCESS' && receipt.blockNumber > final.number) {
      // Re-included in a later block after a fork: wait for that block to become final.
      result.waiting++;
      continue;
    }
    const success = receipt?.result === 'SUCCESS';
    const hold = holds.get(transferId(record));
    if (success && hold) {
      steps.push({ owner, build: (deposit) => holdTransfer(deposit, record, hold, latest.number, now()), outcome: 'held' });
      continue;
    }
    steps.push({
      owner,
      build: async (deposit, readAllowlist) =>
        success ? confirmTransfer(deposit, record, latest.number, now(), await splitGuard(deps, deposit, now(), readAllowlist)) : dropTransfer(deposit, record, now()),
      outcome: success ? 'confirmed' : 'dropped',
    });
  }
  for (const outcome of await applySteps(deps.store, steps)) if (outcome) result[outcome]++;
  return result;
}

/**
 * How long the network's oldest transfer still `confirming` has waited since its block was made, in
 * seconds (0 when none waits): the poller's OldestConfirmingTransferAge, which the stack alarms on.
 * A record keeps its block's number, not its time, so the time is told back from the newest block's,
 * at the network's block time: a node whose head stalled shows as a growing age too. Read after
 * confirmDeposits, so what that run settled is no longer listed (or only just final, so young).
 */
export async function oldestConfirmingAgeSeconds(deps: Pick<DepositJobDeps, 'network' | 'chain' | 'store' | 'now'>): Promise<number> {
  const records = await deps.store.confirmingTransfers();
  if (records.length === 0) return 0;
  const oldestBlock = records.reduce((oldest, record) => Math.min(oldest, record.blockNumber), Number.POSITIVE_INFINITY);
  const latest = await deps.chain.latestBlock();
  const madeAt = Date.parse(latest.timestamp) - Math.max(0, latest.number - oldestBlock) * networkNamed(deps.network).blockMs;
  const now = (deps.now ?? (() => new Date()))();
  return Math.max(0, Math.round((now.getTime() - madeAt) / 1000));
}

/** A receipt in a block the final chain does not hold at that height. */
class OffTheFinalChain extends Error {
  constructor(receipt: TransactionReceipt) {
    super(`the receipt is in block ${receipt.blockHash} at height ${receipt.blockNumber}, which the final chain does not hold`);
  }
}

/**
 * Of records whose block was replaced (recorded with its hash, their receipt asked), those whose
 * receipt, at a final height, names a block the final chain does not hold there wait (`unread`):
 * a provider answers from several machines, and one still on the fork the network left gives the
 * transaction's receipt there, which proves neither a credit nor a drop (../shared/networks.md: a
 * credit uses the Transfer events of the transaction in the final block). One block read per such
 * height, none for a height read already (`hashes`).
 */
async function awaitFinalChainsBlock(
  chain: DepositJobDeps['chain'],
  reorganised: TransferRecord[],
  receipts: Map<TransferRecord, TransactionReceipt | null>,
  hashes: Map<number, string | null>,
  final: { number: number },
  unread: Map<TransferRecord, unknown>,
): Promise<void> {
  const judged = reorganised.filter((record) => {
    const receipt = receipts.get(record);
    return record.blockHash !== undefined && !unread.has(record) && receipt?.blockHash !== undefined && receipt.blockNumber <= final.number;
  });
  if (judged.length === 0 || !chain.blockAt) return;
  const heights = judged.map((record) => receipts.get(record)!.blockNumber).filter((height) => !hashes.has(height));
  for (const [height, hash] of await blockHashesAt(chain, heights)) hashes.set(height, hash);
  for (const record of judged) {
    const receipt = receipts.get(record)!;
    if (hashes.get(receipt.blockNumber) !== receipt.blockHash) unread.set(record, new OffTheFinalChain(receipt));
  }
}

/**
 * Reads the receipts of final records not settled by their block's hash into `receipts`; answers
 * the records whose receipt could not be read (left confirming, logged), so one transaction's
 * receipt never holds up every company's deposits (a node that cannot answer at all has failed the
 * run already, at its final block).
 *
 * A record recorded with its block's hash (EVM), whose block was replaced, is asked of the newest
 * view first (where its transaction was mined again), then of the final one where that does not
 * know it. One recorded without (TRON, Solana: from events at the head) is asked of the final view
 * first, and credited only from it (../shared/networks.md: a credit uses the Transfer events of the
 * transaction in the final block): a full node on a fork the network left can show it at a final
 * height the final chain does not hold. The newest view is asked only where the final one does not
 * know it, to tell a transaction mined again in a later block (waiting) from one gone; seen there
 * at a final height, the final view lags, and the record waits.
 */
/** The newest view shows the transaction in a final block the final view does not hold yet. */
class FinalViewBehind extends Error {
  constructor(blockNumber: number) {
    super(`the newest view shows it in final block ${blockNumber}, the final view does not hold it yet`);
  }
}

async function readReceipts(
  deps: Pick<DepositJobDeps, 'chain'>,
  records: TransferRecord[],
  final: { number: number },
  receipts: Map<TransferRecord, TransactionReceipt | null>,
): Promise<Map<TransferRecord, unknown>> {
  const unread = new Map<TransferRecord, unknown>();
  const { chain } = deps;
  await inParallel(records, RECEIPTS_IN_FLIGHT, async (record) => {
    try {
      const firstView = record.blockHash !== undefined ? chain.receipt.bind(chain) : chain.finalReceipt.bind(chain);
      const first = await firstView(record.txHash);
      if (first) return void receipts.set(record, first);
      // The newest view not knowing a transaction in a final block may be its node lagging: the
      // final view is asked before anything is concluded from it.
      if (record.blockHash !== undefined) return void receipts.set(record, await chain.finalReceipt(record.txHash));
      const newest = await chain.receipt(record.txHash);
      if (newest && newest.blockNumber <= final.number) unread.set(record, new FinalViewBehind(newest.blockNumber));
      else receipts.set(record, newest);
    } catch (error) {
      unread.set(record, error);
    }
  });
  return unread;
}

/** Whether the token's issuer freezes the deposit's address now, read for it alone. */
async function frozenNow(holds: Pick<DepositHolds, 'frozenAddresses'>, deposit: Deposit): Promise<boolean> {
  return (await holds.frozenAddresses([deposit.address])).has(deposit.address);
}

/** The audit entry of a person's release that keeps the money held (`keptHeldFor` says for what): a
 * company reading its audit log must not take it for money released (`deposit.released`). */
const keptHeldAudit = (audit: AuditEntry, keptHeldFor: HoldReason): AuditEntry => ({ ...audit, action: 'deposit.kept_held', details: { ...audit.details, keptHeldFor } });

/**
 * A person's release of a held transfer (`npm run deposits:release`): credited as its confirmation
 * would have been, with `audit` written in the same transaction. 'not_held' when the transfer is no
 * longer held (released already, by a person or by an unfreeze): releasing twice credits once.
 *
 * A sanctioned payer's hold is lifted and no more: where the token's issuer freezes the deposit's
 * address now (`holds.frozenAddresses`, read for it alone), its money cannot move and is not
 * credited. It stays held for the freeze ('held_frozen': clearSanctionWhileFrozen, `audit` made a
 * `deposit.kept_held`), and the poller credits it once the address is unfrozen, as any
 * frozen-address hold. A frozen-address hold is credited frozen or not: that release is a decision
 * on the freeze itself (docs/token-controls.md), not on the payer: its payers are screened again
 * first, as the poller's release after an unfreeze screens them (releaseUnfrozen), and one listed
 * since keeps it held, now as `sender_sanctioned` ('held_sanctioned', a `deposit.kept_held` too),
 * for a person's decision on that.
 * Without `holds` (as the jobs, a test's chain without them), nothing is read.
 */
export async function releaseHeldTransfer(
  deps: Pick<DepositJobDeps, 'store' | 'now' | 'log'> & { holds?: Pick<DepositHolds, 'sanctioned' | 'frozenAddresses'> },
  record: TransferRecord,
  audit: AuditEntry,
): Promise<'released' | 'held_frozen' | 'held_sanctioned' | 'not_held'> {
  const now = deps.now ?? (() => new Date());
  let frozen: boolean | undefined;
  let listedPayer: boolean | undefined;
  let keptForTheFreeze = false;
  let keptForTheSanction = false;
  const outcome = await withDeposit(deps.store, { companyId: record.companyId, depositId: record.depositId }, async (deposit, readAllowlist) => {
    const tx = deposit.transactions.find((t) => t.txHash === record.txHash && t.eventIndex === record.eventIndex);
    keptForTheFreeze = false;
    keptForTheSanction = false;
    if (!tx) return null;
    if (tx.status === 'held' && tx.holdReason !== 'sender_sanctioned' && !record.sanctionCleared && deps.holds) {
      const payers = payersOf(record);
      listedPayer ??= payers.length > 0 && (await deps.holds.sanctioned(payers)).size > 0;
      keptForTheSanction = listedPayer;
      if (listedPayer) {
        const change = reholdTransfer(deposit, record, 'sender_sanctioned', now());
        return change && { ...change, audit: keptHeldAudit(audit, 'sender_sanctioned') };
      }
    }
    if (tx.status === 'held' && tx.holdReason === 'sender_sanctioned' && deps.holds) {
      frozen ??= await frozenNow(deps.holds, deposit);
      keptForTheFreeze = frozen;
      if (frozen) {
        const change = clearSanctionWhileFrozen(deposit, record, now());
        return change && { ...change, audit: keptHeldAudit(audit, 'address_frozen') };
      }
    }
    // Its confirmations as last counted: a release is no chain read.
    const change = releaseTransfer(deposit, record, tx.blockNumber + tx.confirmations - 1, now(), await splitGuard(deps, deposit, now(), readAllowlist));
    // A person's decision: not counted as credit a freeze of the address takes back (freezeCredit).
    return change && { ...change, audit, unsweptCredit: 0n };
  });
  if (outcome !== 'applied') return 'not_held';
  return keptForTheSanction ? 'held_sanctioned' : keptForTheFreeze ? 'held_frozen' : 'released';
}

/**
 * A person's release of a credit taken back because the deposit's address was frozen after it
 * (`npm run deposits:release`; deposit-transitions.ts releaseFrozenCredit), with `audit` in the same
 * transaction. 'not_held' when nothing is taken back (released already, or unfrozen).
 *
 * Without `holds` the release is a decision on the freeze (docs/token-controls.md), credited frozen
 * or not, as a frozen-address hold is. With them, it comes with a sanctioned payer's clearing, which
 * decides the sanction and not the freeze: where the issuer freezes the deposit's address now (read
 * as releaseHeldTransfer reads it), the credit cannot move and is not released ('keptHeld', nothing
 * written): it stays taken back, given back once the issuer unfreezes the address (unfreezeCredit).
 */
export async function releaseFrozenDepositCredit(
  deps: Pick<DepositJobDeps, 'store' | 'now'> & { holds?: Pick<DepositHolds, 'frozenAddresses'> },
  owner: AddressOwner,
  audit: (amount: bigint) => AuditEntry,
): Promise<{ released: bigint } | { keptHeld: bigint } | 'not_held'> {
  const now = deps.now ?? (() => new Date());
  let taken = 0n;
  let frozen: boolean | undefined;
  const outcome = await withDeposit(deps.store, owner, async (deposit) => {
    taken = deposit.frozenCredit ?? 0n;
    if (taken <= 0n) return null;
    if (deps.holds) {
      frozen ??= await frozenNow(deps.holds, deposit);
      if (frozen) return null;
    }
    const change = releaseFrozenCredit(deposit, now());
    return change && { ...change, audit: audit(taken) };
  });
  if (outcome === 'applied') return { released: taken };
  return frozen ? { keptHeld: taken } : 'not_held';
}

/** What an expiry run did: deposits expired, and those left unexpired because their address holds
 * USDT that no scan recorded (each logged; the poller's metric UnrecordedDepositUsdt). */
export interface ExpiryResult {
  expired: number;
  unrecordedUsdt: number;
}

/** Unpaid deposits checked for USDT at their address in one run (on TRON, a call each, four at a
 * time, after up to 30 s of scanning in a 55 s run): the rest wait for the next runs, a minute each. */
export const EXPIRY_CHECKS_PER_RUN = 100;
/** USDT found at an unpaid deposit's address within this time after its expiry (as far as the chain
 * has been read) may be a payment made since, in the blocks the scan reads next (a warning); later,
 * no scan recorded it (an error). */
const UNRECORDED_AFTER_MS = 10 * 60_000;
/** Less than this at an unpaid deposit's address is not a payment missed: dust below USDT's 6
 * decimals on BSC's 18 (transfers the scan records and never credits, dust.ts) can add up to a unit
 * or two, and a payment too small to matter is not worth keeping a deposit from expiring. */
const UNRECORDED_AT_LEAST = 10_000n; // 0.01 USDT

/**
 * Deposits on the store's network still awaiting payment past `expiresAt` become `expired` (their address
 * stays watched), but only once the chain has been read through that time (`readThrough`, the
 * scan's: ScanResult): the contract's "24 h without funds" is a fact about the chain, and a deposit
 * paid a minute before its expiry on a network whose scan lags (a slow node, a failing poller) must
 * not be told `deposit.expired` first. Null, as when the scan did not reach the head: none expire.
 *
 * Last, the chain itself is asked (`holds.usdtAt`, where the poller gives it): an unpaid deposit whose
 * address holds USDT (0.01 or more) was paid by a transfer no scan recorded (an event index or a
 * provider that missed it, a scan skipped): it is never told `expired`, and is logged, each run
 * that checks it, until its payment is found (docs/reconciliation.md, "USDT no scan recorded").
 */
export async function expireDeposits(deps: Pick<DepositJobDeps, 'store' | 'now' | 'log' | 'holds' | 'network'>, readThrough: string | null): Promise<ExpiryResult> {
  if (readThrough === null) return { expired: 0, unrecordedUsdt: 0 };
  const now = (deps.now ?? (() => new Date()))();
  // A node's clock a little ahead of ours is not a reason to expire early.
  const by = new Date(Math.min(now.getTime(), Date.parse(readThrough)));
  const due = checkedThisRun(await deps.store.awaitingPaymentExpiredBy(by), deps.holds ? EXPIRY_CHECKS_PER_RUN : Infinity, now);
  let unrecorded = new Set<string>();
  if (deps.holds) {
    try {
      unrecorded = await unrecordedUsdtAt(deps, deps.holds.usdtAt, due, by);
    } catch (error) {
      // The chain could not say what the addresses hold: none is expired unchecked, and the run's
      // other work and metrics stand. The next run asks again.
      (deps.log ?? stderrLog).warn('could not read the USDT at the addresses of deposits due to expire: none expired this run', { network: deps.network, due: due.length, error: String(error) });
      return { expired: 0, unrecordedUsdt: 0 };
    }
  }
  let expired = 0;
  // Side by side, as the scanner writes deposits: a day's unpaid deposits expire together, and one
  // by one they made a long run (a few seconds for a few dozen on DynamoDB Local).
  await inParallel(
    due.filter((owner) => !unrecorded.has(owner.depositId)),
    DEPOSITS_IN_FLIGHT,
    async (owner) => {
      const outcome = await withDeposit(deps.store, owner, (deposit) => expireDeposit(deposit, now, by));
      if (outcome === 'applied') expired++;
    },
  );
  return { expired, unrecordedUsdt: unrecorded.size };
}

/**
 * Deposits on networks the stage no longer opens: no poller reads their chain, so by expireDeposits'
 * rule none would ever expire, and integrators would wait on them for good. They expire by the
 * clock, EXPIRY_SETTLE_MARGIN_MS past `expiresAt`: a payment there is credited by no scan anyway (it
 * waits at its address, and reconcile reads it on a network it reads). The first network's poller,
 * open on every stage, runs it.
 */
export async function expireWhereNotOpen(deps: { storeOf: (network: NetworkName) => DepositChainStore; now?: () => Date; log?: DepositJobDeps['log'] }, open: readonly NetworkName[]): Promise<number> {
  const now = (deps.now ?? (() => new Date()))();
  const readThrough = new Date(now.getTime() - EXPIRY_SETTLE_MARGIN_MS).toISOString();
  let expired = 0;
  for (const network of NETWORK_NAMES.filter((name) => !open.includes(name))) {
    expired += (await expireDeposits({ network, store: deps.storeOf(network), now: () => now, log: deps.log }, readThrough)).expired;
  }
  return expired;
}

/**
 * The due deposits a run checks: all of them up to `cap`; past it, a window that moves on each
 * minute, so deposits kept from expiring (their address holds USDT no scan recorded, first in the
 * list as the oldest) never keep the others from their turn.
 */
function checkedThisRun(due: AddressOwner[], cap: number, now: Date): AddressOwner[] {
  if (due.length <= cap) return due;
  const start = (Math.floor(now.getTime() / 60_000) * cap) % due.length;
  return [...due.slice(start), ...due.slice(0, start)].slice(0, cap);
}

/** Of the unpaid deposits `due` to expire, those whose address holds USDT (by deposit id), each
 * logged; `by`, how far the chain has been read. */
async function unrecordedUsdtAt(deps: Pick<DepositJobDeps, 'store' | 'log' | 'network'>, usdtAt: DepositHolds['usdtAt'], due: AddressOwner[], by: Date): Promise<Set<string>> {
  if (due.length === 0) return new Set();
  const deposits = [...(await deps.store.getDeposits(due)).values()].filter((deposit) => deposit.status === 'awaiting_payment');
  const balances = await usdtAt(deposits.map((deposit) => deposit.address));
  const unrecorded = new Set<string>();
  for (const deposit of deposits) {
    const usdtThere = balances.get(deposit.address) ?? 0n;
    if (usdtThere < UNRECORDED_AT_LEAST) continue;
    unrecorded.add(deposit.id);
    const late = by.getTime() - Date.parse(deposit.expiresAt) > UNRECORDED_AFTER_MS;
    (deps.log ?? stderrLog)[late ? 'error' : 'warn'](
      late ? 'USDT at an unpaid deposit address that no scan recorded: not expired; find its payment (npm run deposits:rescan)' : 'USDT at an unpaid deposit address past its expiry, not recorded yet: not expired',
      { network: deps.network, companyId: deposit.companyId, depositId: deposit.id, address: deposit.address, usdtThere: formatAmount(usdtThere, 'USDT'), expiresAt: deposit.expiresAt },
    );
  }
  return unrecorded;
}
