import type { ChainReader, RecipientFilter, TokenTransfer, TransactionReceipt } from '../networks/chain.ts';
import type { NetworkName } from '../networks/names.ts';
import type { Deposit, HoldReason } from './deposits.ts';
import { inParallel } from '../shared/in-parallel.ts';
import { stderrLog, type Log } from '../shared/log.ts';
import type { AuditEntry } from '../companies/audit-log.ts';
import { DepositAddressFilter, type AddressOwner, type DepositAddressListing } from './deposit-address-filter.ts';
import { recordFinalDust, type DustRecorder } from './dust.ts';
import { payoutGuard, type AllowlistGuard, type AllowlistReader } from '../withdrawals/withdrawal-policy.ts';
import {
  confirmTransfer,
  dropTransfer,
  expireDeposit,
  holdTransfer,
  releaseTransfer,
  moveTransfer,
  refreshConfirmations,
  seeFinalTransfer,
  seeTransfer,
  transferId,
  type DepositChange,
  type TransferKey,
  type TransferRecord,
} from './deposit-transitions.ts';

/**
 * The deposit jobs: scanning the chain for transfers to deposit addresses, confirming them once
 * final, expiring unpaid deposits. They read the chain and the store, take the scan lease,
 * batch the writes and retry on conflicts; every change itself is built by
 * ./deposit-transitions.ts.
 */

/** The allowlist reads are for a split's forwarding, which the withdrawal allowlist governs as it
 * does any payout; the listing of deposit addresses feeds the scanner's DepositAddressFilter. */
export interface DepositChainStore extends AllowlistReader, DepositAddressListing, Partial<DustRecorder> {
  getDeposit(companyId: string, depositId: string): Promise<Deposit | null>;
  /** Consistent reads of many deposits at once, by deposit id; missing ones are absent. */
  getDeposits(owners: AddressOwner[]): Promise<Map<string, Deposit>>;
  /** Splits changes (of different deposits) into groups that each fit one applyChanges call. */
  inWrites(changes: DepositChange[]): DepositChange[][];
  /** All the changes or none: 'applied', 'conflict' (someone changed a deposit: re-read and
   * retry), 'duplicate' (a transfer was recorded already) or 'allowlist' (a split's allowlist
   * guard no longer holds: build again, reading the allowlist). At most one change per deposit. */
  applyChanges(changes: DepositChange[]): Promise<'applied' | 'conflict' | 'duplicate' | 'allowlist'>;
  confirmingTransfers(): Promise<TransferRecord[]>;
  /** Transfers recorded final but held (HoldReason), on this store's network. */
  heldTransfers(): Promise<TransferRecord[]>;
  /** Which of these transfers are recorded already (and not reversed), as `txHash#eventIndex`. */
  recordedTransfers(transfers: TransferKey[]): Promise<Set<string>>;
  awaitingPaymentExpiredBy(now: Date): Promise<AddressOwner[]>;
}

/**
 * The checks a final transfer passes before it is credited (../shared/networks.md, "The token as it
 * is on mainnet"; HoldReason). Both answer "none" only when they know: a node's error throws, and
 * the transfer waits for the next run rather than being credited unchecked.
 */
export interface DepositHolds {
  /** Deposit addresses among these that the token's issuer has frozen now. */
  frozenAddresses(addresses: string[]): Promise<Set<string>>;
  /** Addresses among these on the sanctions screening list (of this network): a payer's, and a
   * split's destination before its share is forwarded. */
  sanctioned(addresses: string[]): Promise<Set<string>>;
}

/** Why each of these final transfers (to `to`, paid by `from`) is held, by transferId; absent when
 * it is credited. One read of each kind for them all. */
async function holdsFor(holds: DepositHolds | undefined, transfers: (TransferKey & { to: string; from?: string })[]): Promise<Map<string, HoldReason>> {
  const reasons = new Map<string, HoldReason>();
  if (!holds || transfers.length === 0) return reasons;
  const senders = transfers.flatMap((transfer) => (transfer.from ? [transfer.from] : []));
  const [frozen, sanctioned] = await Promise.all([
    holds.frozenAddresses([...new Set(transfers.map((transfer) => transfer.to))]),
    senders.length ? holds.sanctioned([...new Set(senders)]) : Promise.resolve(new Set<string>()),
  ]);
  for (const transfer of transfers) {
    // A sanctioned payer is the stronger reason: unfreezing the address must not release it.
    if (transfer.from && sanctioned.has(transfer.from)) reasons.set(transferId(transfer), 'sender_sanctioned');
    else if (frozen.has(transfer.to)) reasons.set(transferId(transfer), 'address_frozen');
  }
  return reasons;
}

export interface ScanCursor {
  /** Takes the lease, or returns null when another scanner holds it. `nextBlock` null: first run.
   * `rereadFrom`: the first block the last scan read before it was final, where it said one. */
  acquire(owner: string, now: Date, leaseMs: number): Promise<{ nextBlock: number | null; rereadFrom?: number } | null>;
  /** `rereadFrom`, on a chain with a finality depth (ChainReader.finalityDepth): the first block of
   * those scanned that was not final yet, which the next scan reads again. */
  advance(owner: string, nextBlock: number, rereadFrom?: number): Promise<void>;
  release(owner: string): Promise<void>;
}

export interface DepositJobDeps {
  /** The network whose chain this is: a transfer to the address of a deposit on another network
   * is not that deposit's payment. */
  network: NetworkName;
  chain: ChainReader;
  store: DepositChainStore;
  /** The official USDT contract: transfers of any other token are ignored, whatever its symbol. */
  usdtContract: string;
  /** What keeps a final transfer from being credited; absent, nothing is held. */
  holds?: DepositHolds;
  now?: () => Date;
  log?: Log;
}

/** Re-scanned every run: blocks not yet final may still change (on a chain with a finality depth,
 * those not final at the last scan are read again too: scanStart), and a transfer is recorded once anyway. */
export const SCAN_OVERLAP_BLOCKS = 20;
export const MAX_BLOCKS_PER_SCAN = 200;
/** Deposits written one by one at once, when a batched write could not take them. */
const DEPOSITS_IN_FLIGHT = 16;
/** Receipts asked of the chain at once: one HTTP request each on TronGrid. */
const RECEIPTS_IN_FLIGHT = 8;
const SCAN_LEASE_MS = 60_000;
const CONFLICT_RETRIES = 5;

export interface ScanDeps {
  cursor: ScanCursor;
  /** Who holds the lease this run. */
  owner: string;
  /** The process's address filter, kept across runs (the poller's module scope); absent, each run
   * loads one whole. */
  addresses?: DepositAddressFilter;
}

export interface ScanResult {
  scanned: { fromBlock: number; toBlock: number } | null;
  transfersSeen: number;
  recorded: number;
  /** Of those recorded, the ones credited at once: already final when seen (seeFinalTransfer). */
  credited: number;
  /** Blocks between the chain's latest and the cursor after this run: the scanner's lag, for its
   * alarm. Null when another scanner held the lease. */
  lagBlocks: number | null;
}

/**
 * Reads the USDT contract's Transfer events block range by block range (cost independent of how
 * many deposit addresses exist), picks the transfers to deposit addresses with the in-memory
 * address filter (refreshed after the chain read, so an address made just before its payment is
 * known; ./deposit-address-filter.ts), and records each once. The cursor's lease keeps two
 * scanners from working at once; a scanner that died lets the lease lapse and the next one
 * catches up from the cursor.
 */
export async function scanDeposits(deps: DepositJobDeps & ScanDeps): Promise<ScanResult> {
  const now = deps.now ?? (() => new Date());
  const lease = await deps.cursor.acquire(deps.owner, now(), SCAN_LEASE_MS);
  if (!lease) return { scanned: null, transfersSeen: 0, recorded: 0, credited: 0, lagBlocks: null };
  try {
    const { chain } = deps;
    // The final block, on a chain with a finality depth, is read before the logs: a log then found
    // in a block at or below it is the final chain's, and the blocks above it are read again.
    const [latest, final] = await Promise.all([
      chain.latestBlock().then((block) => block.number),
      chain.finalityDepth === undefined ? null : chain.finalBlock().then((block) => block.number),
    ]);
    // First, and even when no block is new: a reorganisation can replace blocks without growing the chain.
    await undoReorganised(deps, latest, now);
    const nextBlock = lease.nextBlock ?? latest;
    const toBlock = Math.min(latest, nextBlock + MAX_BLOCKS_PER_SCAN - 1);
    if (toBlock < nextBlock) return { scanned: null, transfersSeen: 0, recorded: 0, credited: 0, lagBlocks: Math.max(0, latest - nextBlock + 1) };
    const fromBlock = scanStart(chain, nextBlock, lease.rereadFrom);
    const addresses = deps.addresses ?? new DepositAddressFilter(deps.store, now);
    // Refreshed once, after the chain read: by the chain as it decodes, or here.
    let refreshed: Promise<void> | undefined;
    const refresh = () => (refreshed ??= addresses.refresh());
    let leftOut = 0;
    const recipients: RecipientFilter = {
      afterRead: refresh,
      mayWant: (address) => {
        if (addresses.mayOwn(address)) return true;
        leftOut++;
        return false;
      },
    };
    // After a deprecation the upgraded contract emits the events, those of payments through the old one included.
    const contracts = deps.chain.usdtContracts ? await deps.chain.usdtContracts(deps.usdtContract) : [deps.usdtContract];
    const read = await Promise.all(contracts.map((contract) => deps.chain.transfers(contract, fromBlock, toBlock, recipients)));
    const transfers = read.flat().filter((transfer) => contracts.includes(transfer.contract) && transfer.amount > 0n);
    await refresh();
    const owners = await addresses.ownersOf(transfers.map((transfer) => transfer.to));
    const ours = transfers.filter((transfer) => owners.has(transfer.to));
    // The overlap re-reads recent blocks every run: one batched read skips what is recorded already.
    // Blocks past the cursor were never scanned; should a scanner that died before advancing have
    // recorded some, the write's own condition refuses them again (DuplicateTransfer).
    const known = await deps.store.recordedTransfers(ours.filter((transfer) => transfer.blockNumber < nextBlock));
    const unrecorded = ours.filter((transfer) => !known.has(transferId(transfer)));
    // Where a mined Transfer log proves success (a chain that gives block hashes: EVM), one in a block
    // final before the logs were read is credited as it is recorded: a scanner catching up writes
    // each deposit once, not twice.
    const finalNow = (transfer: TokenTransfer) => final !== null && transfer.blockHash !== undefined && transfer.blockNumber <= final;
    const holds = await holdsFor(deps.holds, unrecorded.filter(finalNow));
    const steps = unrecorded.map((transfer): DepositStep<'recorded' | 'credited'> => {
      const creditNow = finalNow(transfer);
      const hold = holds.get(transferId(transfer)) ?? null;
      return {
        owner: owners.get(transfer.to)!,
        build: async (deposit, readAllowlist) => {
          if (!onItsNetwork(deps, deposit, transfer)) return null;
          if (!creditNow) return seeTransfer(deposit, transfer, latest, now());
          return seeFinalTransfer(deposit, transfer, latest, now(), hold ? null : await splitGuard(deps, deposit, now(), readAllowlist), hold);
        },
        outcome: creditNow && !hold ? 'credited' : 'recorded',
      };
    });
    const outcomes = await applySteps(deps.store, steps);
    // Below 1e-6 USDT (BSC): recorded, never credited; a transfer of it alone is left out above (dust.ts).
    await recordFinalDust(deps.network, deps.store, read.flat(), contracts, final, (to) => addresses.ownersOf(to), now());
    await deps.cursor.advance(deps.owner, toBlock + 1, final === null ? undefined : Math.min(toBlock, final) + 1);
    return {
      scanned: { fromBlock, toBlock },
      transfersSeen: transfers.length + leftOut,
      recorded: outcomes.length,
      credited: outcomes.filter((outcome) => outcome === 'credited').length,
      lagBlocks: latest - toBlock,
    };
  } finally {
    await deps.cursor.release(deps.owner);
  }
}

/**
 * The first block a scan reads: a fixed overlap below the cursor, and on a chain with a finality
 * depth (EVM) every block the last scan read before it was final, whatever reorganisation came
 * since, so a payment that a reorganisation put in a block already scanned is seen
 * (../shared/networks.md, "Finality, reorganisations and the node"); but no deeper than the chain's
 * finality depth below the cursor, so a node whose `finalized` block stalls or trails far
 * (Arbitrum's waits for Ethereum) costs a bounded read each run. The overlap stays when all was
 * final (a scanner catching up): a margin for a provider whose logs lag the block it calls final.
 */
function scanStart(chain: ChainReader, nextBlock: number, rereadFrom: number | undefined): number {
  if (chain.finalityDepth === undefined) return Math.max(0, nextBlock - SCAN_OVERLAP_BLOCKS);
  const deepest = Math.max(0, nextBlock - chain.finalityDepth);
  return Math.max(deepest, Math.min(nextBlock - SCAN_OVERLAP_BLOCKS, rereadFrom ?? deepest));
}

/**
 * Whether a transfer arrived on the deposit's own network. An EVM deposit address is the same
 * 20 bytes on every EVM chain, so a customer can pay it on the wrong one: that money is not the
 * deposit's payment here (it waits at the address on that chain, where the same factory can
 * recover it), and is logged for support.
 */
function onItsNetwork(deps: DepositJobDeps, deposit: Deposit, transfer: TokenTransfer): boolean {
  if (deposit.network === deps.network) return true;
  (deps.log ?? stderrLog).warn('USDT paid to a deposit address on another network than the deposit\'s', {
    companyId: deposit.companyId,
    depositId: deposit.id,
    depositNetwork: deposit.network,
    paidOn: deps.network,
    txHash: transfer.txHash,
  });
  return false;
}

/**
 * What a reorganisation changed under the transfers still confirming: each was recorded with its
 * block's hash, and where the node now has another block at that height (or none), the transfer's
 * block was replaced. Its transaction re-mined elsewhere, its receipt still holding the transfer
 * (stillTransfers), moves the record there; gone, failed this time, or mined again without the
 * transfer, the transfer is dropped from its deposit at once, its pending amount taken back and
 * `deposit.transfer_reversed` written, rather than at finality. Only chains that report block
 * hashes (ChainReader.blockAt) are checked: one read of the confirming transfers per scan, and one
 * block read per height that holds any.
 */
async function undoReorganised(deps: DepositJobDeps, latest: number, now: () => Date): Promise<void> {
  const { chain } = deps;
  if (!chain.blockAt) return;
  const records = (await deps.store.confirmingTransfers()).filter((record) => record.blockHash !== undefined);
  if (records.length === 0) return;
  const hashes = await blockHashesOf(chain, records);
  const replaced = records.filter((record) => hashes.get(record.blockNumber) !== record.blockHash);
  if (replaced.length === 0) return;
  const contracts = await usdtContractsOf(deps);
  const steps: DepositStep<null>[] = [];
  await inParallel(replaced, RECEIPTS_IN_FLIGHT, async (record) => {
    const receipt = await chain.receipt(record.txHash);
    const owner = { companyId: record.companyId, depositId: record.depositId };
    // The receipt still in the recorded block: the node's answers disagree (another machine behind
    // the provider); the next scan asks again.
    if (receipt?.result === 'SUCCESS' && receipt.blockHash === record.blockHash) return;
    const minedAgain = receipt?.result === 'SUCCESS' && receipt.blockHash !== undefined;
    const remined = minedAgain && stillTransfers(receipt, record, contracts);
    const happened = remined ? 'a deposit transfer was re-mined in another block' : minedAgain ? 'a deposit transaction was re-mined without its transfer' : 'a deposit transfer was removed by a reorganisation';
    (deps.log ?? stderrLog).warn(happened, {
      depositId: record.depositId,
      txHash: record.txHash,
      blockNumber: record.blockNumber,
      ...(minedAgain && { nowIn: receipt.blockNumber }),
    });
    steps.push({
      owner,
      build: (deposit) =>
        remined ? moveTransfer(deposit, record, { blockNumber: receipt.blockNumber, blockHash: receipt.blockHash! }, latest, now()) : dropTransfer(deposit, record, now()),
      outcome: null,
    });
  });
  await applySteps(deps.store, steps);
}

/** The contracts whose Transfer events are USDT's on the deposits' chain (ChainReader.usdtContracts). */
async function usdtContractsOf(deps: Pick<DepositJobDeps, 'chain' | 'usdtContract'>): Promise<string[]> {
  return deps.chain.usdtContracts ? deps.chain.usdtContracts(deps.usdtContract) : [deps.usdtContract];
}

/**
 * Whether a receipt's Transfer events still hold a recorded transfer: at the same place among a USDT
 * contract's Transfer events of the transaction, from the same payer, to the same address, for the
 * same amount. A transaction mined again after a reorganisation can succeed without it (a contract
 * payer, as a Safe can be, whose inner transfer fails this time), so success alone credits
 * nothing (../shared/networks.md: a credit uses the Transfer events of the transaction in the final
 * block). A record made before its payer or address was kept is matched on what it has.
 */
function stillTransfers(receipt: TransactionReceipt, record: TransferRecord, contracts: string[]): boolean {
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  return (receipt.tokenTransfers ?? []).some(
    (transfer) =>
      transfer.eventIndex === record.eventIndex &&
      contracts.some((contract) => same(contract, transfer.contract)) &&
      transfer.amount === record.amount &&
      (record.to === undefined || same(transfer.to, record.to)) &&
      (record.from === undefined || (transfer.from !== undefined && same(transfer.from, record.from))),
  );
}

/** The node's block hash now at each height that holds one of `records` (null past its head), for
 * chains that report hashes (ChainReader.blockAt): one block read per height. */
async function blockHashesOf(chain: ChainReader, records: TransferRecord[]): Promise<Map<number, string | null>> {
  const hashes = new Map<number, string | null>();
  if (!chain.blockAt) return hashes;
  await inParallel([...new Set(records.map((record) => record.blockNumber))], RECEIPTS_IN_FLIGHT, async (height) => {
    hashes.set(height, (await chain.blockAt!(height))?.hash ?? null);
  });
  return hashes;
}

/** One change to one deposit, built on the deposit as it is when written. */
interface DepositStep<T> {
  owner: AddressOwner;
  /** `readAllowlist`: a split's forwarding reads the allowlist, after its optimistic guard failed. */
  build: (deposit: Deposit, readAllowlist: boolean) => DepositChange | null | Promise<DepositChange | null>;
  /** What applying it counts as, for the job's result. */
  outcome: T;
}

/**
 * Applies steps, a deposit's steps in the order given. Each deposit's first step goes into
 * batched writes: many deposits in one transaction, with one balance update per company, so a
 * company paid by many customers in the same blocks neither races itself on its balance nor pays
 * a round trip per transfer. A deposit's further steps, and the steps of a write refused because
 * a deposit moved in between, are then applied one by one on fresh reads (deposits side by side,
 * one deposit's steps in order, each on the version the last one left). Returns the outcomes of
 * the steps applied.
 */
async function applySteps<T>(store: DepositChainStore, steps: DepositStep<T>[]): Promise<T[]> {
  const byDeposit = new Map<string, DepositStep<T>[]>();
  for (const step of steps) {
    const group = byDeposit.get(step.owner.depositId);
    if (group) group.push(step);
    else byDeposit.set(step.owner.depositId, [step]);
  }
  const deposits = await store.getDeposits([...byDeposit.values()].map((group) => group[0]!.owner));
  const firsts = new Map<DepositChange, { depositId: string; step: DepositStep<T> }>();
  const rest = new Map<string, DepositStep<T>[]>();
  for (const [depositId, [first, ...others]] of byDeposit) {
    const deposit = deposits.get(depositId);
    const change = deposit && first ? await first.build(deposit, false) : null;
    if (change) firsts.set(change, { depositId, step: first! });
    // A first step with nothing to change on the deposit just read (consistently) is done; re-reading
    // it one by one would cost a GetItem per waiting transfer per run. A missing deposit goes on to
    // withDeposit, which reports it.
    rest.set(depositId, deposit ? others : [first!, ...others]);
  }
  const applied: T[] = [];
  for (const write of store.inWrites([...firsts.keys()])) {
    if ((await store.applyChanges(write)) === 'applied') {
      for (const change of write) applied.push(firsts.get(change)!.step.outcome);
      continue;
    }
    for (const change of write) rest.set(firsts.get(change)!.depositId, byDeposit.get(firsts.get(change)!.depositId)!);
  }
  await inParallel([...rest.values()].filter((group) => group.length > 0), DEPOSITS_IN_FLIGHT, async (group) => {
    for (const step of group) if ((await withDeposit(store, step.owner, step.build)) === 'applied') applied.push(step.outcome);
  });
  return applied;
}

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
 * credited as its confirmation would have been (`deposit.completed`). A sanctioned payer's hold is
 * lifted only by a person (releaseHeldDeposit). One query of the network's held transfers a run,
 * and one read of the token's freeze list for their addresses.
 */
export async function releaseUnfrozen(deps: DepositJobDeps): Promise<number> {
  const now = deps.now ?? (() => new Date());
  if (!deps.holds) return 0;
  const frozenHeld = (await deps.store.heldTransfers()).filter((record) => record.holdReason === 'address_frozen');
  if (frozenHeld.length === 0) return 0;
  const records = await withRecipients(deps.store, frozenHeld);
  const frozen = await deps.holds.frozenAddresses([...new Set(records.map((record) => record.to))]);
  const latest = (await deps.chain.latestBlock()).number;
  const steps: DepositStep<'released'>[] = records
    .filter((record) => !frozen.has(record.to))
    .map((record) => ({
      owner: { companyId: record.companyId, depositId: record.depositId },
      build: async (deposit, readAllowlist) => releaseTransfer(deposit, record, latest, now(), await splitGuard(deps, deposit, now(), readAllowlist)),
      outcome: 'released',
    }));
  return (await applySteps(deps.store, steps)).length;
}

/** Credits transfers whose block is final and whose receipt says SUCCESS (on a chain that gives
 * block hashes, a receipt that still holds the transfer: stillTransfers); drops the ones the final
 * chain does not have, that failed, or that a transaction mined again no longer makes; refreshes
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
  await inParallel(asked, RECEIPTS_IN_FLIGHT, async (record) => void receipts.set(record, await deps.chain.receipt(record.txHash)));
  // A record whose block was replaced (it has a hash, and its receipt was asked) is credited only
  // from a receipt that still holds its transfer; read the contracts only then.
  const reorganised = asked.filter((record) => record.blockHash !== undefined);
  const contracts = reorganised.length ? await usdtContractsOf(deps) : [];
  for (const record of reorganised) {
    const receipt = receipts.get(record);
    if (receipt?.result === 'SUCCESS' && !stillTransfers(receipt, record, contracts)) {
      (deps.log ?? stderrLog).warn('a deposit transaction was re-mined without its transfer', { depositId: record.depositId, txHash: record.txHash, blockNumber: record.blockNumber, nowIn: receipt.blockNumber });
      receipts.set(record, { ...receipt, result: 'TRANSFER_GONE' });
    }
  }
  const credited = finalRecords.filter((record) => {
    const receipt = receipts.get(record);
    return receipt?.result === 'SUCCESS' && receipt.blockNumber <= final.number;
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
    const receipt = receipts.get(record) ?? null;
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
 * A split's forwarding goes by the withdrawal allowlist as it stands when the transfer is
 * confirmed, not when the deposit was made: an address taken off the list since receives nothing
 * more, and its share stays in the company's available balance. Null for a deposit without a split.
 * As for a withdrawal, the first try reads nothing: its transaction checks that the list is off,
 * and only when it is not (`readAllowlist`) is the address read.
 */
async function splitGuard(deps: Pick<DepositJobDeps, 'store' | 'log' | 'holds'>, deposit: Deposit, now: Date, readAllowlist: boolean): Promise<AllowlistGuard | null> {
  if (!deposit.split) return null;
  // Listed since the deposit was made: nothing is sent there; the share is credited with the rest.
  if (deps.holds && (await deps.holds.sanctioned([deposit.split.address])).has(deposit.split.address)) {
    (deps.log ?? stderrLog).error('split share kept: its address is on the sanctions screening list now', { companyId: deposit.companyId, depositId: deposit.id, address: deposit.split.address });
    return null;
  }
  if (!readAllowlist) return { holds: false, at: now.toISOString() };
  const guard = await payoutGuard(deps.store, deposit.companyId, deposit.network, deposit.split.address, now);
  if (!guard) {
    (deps.log ?? stderrLog).warn('split share kept: its address is not on the withdrawal allowlist now', {
      companyId: deposit.companyId,
      depositId: deposit.id,
      address: deposit.split.address,
    });
  }
  return guard;
}

/**
 * A person's release of a held transfer (`npm run deposits:release`): credited as its confirmation
 * would have been, with `audit` written in the same transaction. 'not_held' when the transfer is no
 * longer held (released already, by a person or by an unfreeze): releasing twice credits once.
 */
export async function releaseHeldTransfer(
  deps: Pick<DepositJobDeps, 'store' | 'now' | 'log' | 'holds'>,
  record: TransferRecord,
  audit: AuditEntry,
): Promise<'released' | 'not_held'> {
  const now = deps.now ?? (() => new Date());
  const outcome = await withDeposit(deps.store, { companyId: record.companyId, depositId: record.depositId }, async (deposit, readAllowlist) => {
    const tx = deposit.transactions.find((t) => t.txHash === record.txHash && t.eventIndex === record.eventIndex);
    if (!tx) return null;
    // Its confirmations as last counted: a release is no chain read.
    const change = releaseTransfer(deposit, record, tx.blockNumber + tx.confirmations - 1, now(), await splitGuard(deps, deposit, now(), readAllowlist));
    return change && { ...change, audit };
  });
  return outcome === 'applied' ? 'released' : 'not_held';
}

/** Deposits still awaiting payment past `expiresAt` become `expired`; their address stays watched. */
export async function expireDeposits(deps: Pick<DepositJobDeps, 'store' | 'now'>): Promise<number> {
  const now = deps.now ?? (() => new Date());
  let expired = 0;
  // Side by side, as the scanner writes deposits: a day's unpaid deposits expire together, and one
  // by one they made a long run (a few seconds for a few dozen on DynamoDB Local).
  await inParallel(await deps.store.awaitingPaymentExpiredBy(now()), DEPOSITS_IN_FLIGHT, async (owner) => {
    const outcome = await withDeposit(deps.store, owner, (deposit) => expireDeposit(deposit, now()));
    if (outcome === 'applied') expired++;
  });
  return expired;
}

/** Reads the deposit, builds the change and writes it; on a version conflict, reads again. */
async function withDeposit(
  store: DepositChainStore,
  owner: AddressOwner,
  build: DepositStep<unknown>['build'],
): Promise<'applied' | 'duplicate' | 'unchanged'> {
  let readAllowlist = false;
  for (let attempt = 0; attempt < CONFLICT_RETRIES; attempt++) {
    const deposit = await store.getDeposit(owner.companyId, owner.depositId);
    if (!deposit) throw new Error(`Deposit ${owner.depositId} of ${owner.companyId} is missing`);
    const change = await build(deposit, readAllowlist);
    if (!change) return 'unchanged';
    const outcome = await store.applyChanges([change]);
    if (outcome === 'allowlist') readAllowlist = true;
    else if (outcome !== 'conflict') return outcome;
  }
  throw new Error(`Deposit ${owner.depositId} kept changing under the chain job; will retry next run`);
}
