import { EXPIRY_SETTLE_MARGIN_MS, expirySettleMarginBlocks, type ChainReader, type RecipientFilter, type TokenTransfer } from '../networks/chain.ts';
import type { Deposit } from './deposits.ts';
import type { NetworkName } from '../networks/names.ts';
import { networkNamed } from '../networks/registry.ts';
import { stderrLog } from '../shared/log.ts';
import { DepositAddressFilter } from './deposit-address-filter.ts';
import { recordFinalDust } from './dust.ts';
import { seeFinalTransfer, seeTransfer, transferId } from './deposit-transitions.ts';
import { applySteps, holdsFor, splitGuard, type DepositJobDeps, type DepositStep } from './deposit-chain.ts';
import { undoReorganised } from './reorganisations.ts';

/**
 * The deposit scanner: reads the chain's USDT Transfer events block range by block range and records
 * each transfer to a deposit address once, crediting at once what is already final.
 */

export interface ScanCursor {
  /** Takes the lease, or returns null when another scanner holds it. `nextBlock` null: first run.
   * `rereadFrom`: the first block the last scan read before it was final, where it said one.
   * `untilBlock`: a rescan's last block (a bounded read again of blocks the live scan has read,
   * beside it: `npm run deposits:rescan`); absent for the live scan. */
  acquire(owner: string, now: Date, leaseMs: number): Promise<{ nextBlock: number | null; rereadFrom?: number; untilBlock?: number } | null>;
  /** `rereadFrom`, on a chain with a finality depth (ChainReader.finalityDepth): the first block of
   * those scanned that was not final yet, which the next scan reads again. */
  advance(owner: string, nextBlock: number, rereadFrom?: number): Promise<void>;
  release(owner: string): Promise<void>;
}

/** Re-scanned every run: blocks not yet final may still change (on a chain with a finality depth,
 * those not final at the last scan are read again too: scanStart), and a transfer is recorded once anyway. */
export const SCAN_OVERLAP_BLOCKS = 20;
export const MAX_BLOCKS_PER_SCAN = 200;
const SCAN_LEASE_MS = 60_000;

export interface ScanDeps {
  cursor: ScanCursor;
  /** Who holds the lease this run. */
  owner: string;
  /** The process's address filter, kept across runs (the poller's module scope); absent, each run
   * loads one whole. */
  addresses?: DepositAddressFilter;
  /** While the filter has not read the listing whole yet, when its refresh stops reading (after a
   * page at least) and leaves the rest to the next run's: the run keeps its time to scan, and the
   * filter answers as for an incomplete listing meanwhile. Absent, the refresh reads to the end. */
  listingReadUntil?: Date;
}

export interface ScanResult {
  scanned: { fromBlock: number; toBlock: number } | null;
  transfersSeen: number;
  recorded: number;
  /** Of those recorded, the ones credited at once: already final when seen (seeFinalTransfer). */
  credited: number;
  /** Blocks between the chain's latest and the cursor after this run: the scanner's lag, for its
   * alarm; for a rescan, the blocks of its range it has left. Null when another scanner held the
   * lease (or no rescan is under way). */
  lagBlocks: number | null;
  /** The time up to which this run has read the chain for good (ISO 8601): a payment mined by then
   * is recorded and will not appear later, so a deposit that expired by then was unpaid (its
   * poller's expiry). Blocks a later run reads again are not for good: on a chain with a finality
   * depth, the final block's time (every block above it is read again); else the time of the
   * newest block read (the head, or on TRON the event index's newest block when it trails the
   * head), less EXPIRY_SETTLE_MARGIN_MS (the 20 blocks below the cursor are read again). Null when
   * the run did not reach that block (behind, or another scanner held the lease), and for a rescan. */
  readThrough: string | null;
}

/**
 * Reads the USDT contract's Transfer events block range by block range (cost independent of how
 * many deposit addresses exist), picks the transfers to deposit addresses with the in-memory
 * address filter (refreshed after the chain read, so an address made just before its payment is
 * known; ./deposit-address-filter.ts), and records each once. The cursor's lease keeps two
 * scanners from working at once; a scanner that died lets the lease lapse and the next one
 * catches up from the cursor.
 *
 * A rescan (its cursor gives `untilBlock`) reads its range's blocks again and records what was
 * missed, with nothing of the live scan's: no reorganisation check, no overlap, no readThrough (the
 * live scan goes on beside it, and expiry goes by that).
 */
export async function scanDeposits(deps: DepositJobDeps & ScanDeps): Promise<ScanResult> {
  const now = deps.now ?? (() => new Date());
  const lease = await deps.cursor.acquire(deps.owner, now(), SCAN_LEASE_MS);
  if (!lease) return { scanned: null, transfersSeen: 0, recorded: 0, credited: 0, lagBlocks: null, readThrough: null };
  try {
    const { chain } = deps;
    // The final block, on a chain with a finality depth, is read before the logs: a log then found
    // in a block at or below it is the final chain's, and the blocks above it are read again.
    const [head, finalBlock, indexed] = await Promise.all([
      chain.latestBlock(),
      chain.finalityDepth === undefined ? null : chain.finalBlock(),
      chain.indexedThrough ? chain.indexedThrough() : null,
    ]);
    const latest = head.number;
    // Where events come from an index that trails the node, no further than it has indexed.
    if (chain.indexedThrough && indexed === null) {
      (deps.log ?? stderrLog).warn("the chain's event index did not say its newest block: read to the head (a payment its index lacks yet may be missed; the expiry check finds it)", { network: deps.network });
    }
    const readable = indexed === null || indexed.number >= latest ? head : indexed;
    const final = finalBlock?.number ?? null;
    const settledUpTo = finalBlock ? finalBlock.timestamp : new Date(Date.parse(readable.timestamp) - EXPIRY_SETTLE_MARGIN_MS).toISOString();
    const rescan = lease.untilBlock !== undefined;
    // First, and even when no block is new: a reorganisation can replace blocks without growing the chain.
    if (!rescan) await undoReorganised(deps, latest, now);
    const nextBlock = lease.nextBlock ?? readable.number;
    const lastBlock = Math.min(readable.number, lease.untilBlock ?? readable.number);
    const toBlock = Math.min(lastBlock, nextBlock + MAX_BLOCKS_PER_SCAN - 1);
    // Nothing new: every block up to the head (or the index's newest) was read before.
    if (toBlock < nextBlock) return { scanned: null, transfersSeen: 0, recorded: 0, credited: 0, lagBlocks: Math.max(0, (rescan ? lastBlock : latest) - nextBlock + 1), readThrough: rescan ? null : settledUpTo };
    const fromBlock = rescan ? nextBlock : scanStart(chain, deps.network, nextBlock, lease.rereadFrom);
    const addresses = deps.addresses ?? new DepositAddressFilter(deps.store, now);
    // Refreshed once, after the chain read: by the chain as it decodes, or here.
    let refreshed: Promise<void> | undefined;
    const refresh = () => (refreshed ??= addresses.refresh(deps.listingReadUntil));
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
    // A rescan's blocks were all read before.
    const known = await deps.store.recordedTransfers(ours.filter((transfer) => rescan || transfer.blockNumber < nextBlock));
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
    await deps.cursor.advance(deps.owner, toBlock + 1, final === null || rescan ? undefined : Math.min(toBlock, final) + 1);
    return {
      scanned: { fromBlock, toBlock },
      transfersSeen: transfers.length + leftOut,
      recorded: outcomes.length,
      credited: outcomes.filter((outcome) => outcome === 'credited').length,
      lagBlocks: (lease.untilBlock ?? latest) - toBlock,
      readThrough: !rescan && toBlock === readable.number ? settledUpTo : null,
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
 * (Arbitrum's waits for Ethereum) costs a bounded read each run.
 *
 * On such a chain the overlap is never less than EXPIRY_SETTLE_MARGIN_MS of the network's blocks,
 * whatever the finality depth: where `finalized` is seconds behind the head (BSC, Polygon), the
 * blocks not final at the last scan are few, and a block read once from a provider whose logs
 * trail its node (or a backend behind the one that gave the head) would never be read again. The
 * rest of the project allows a provider that long to catch up; a transfer read twice is recorded once.
 */
function scanStart(chain: ChainReader, network: NetworkName, nextBlock: number, rereadFrom: number | undefined): number {
  if (chain.finalityDepth === undefined) return Math.max(0, nextBlock - SCAN_OVERLAP_BLOCKS);
  const overlap = Math.max(SCAN_OVERLAP_BLOCKS, expirySettleMarginBlocks(networkNamed(network)));
  const deepest = Math.max(0, nextBlock - Math.max(chain.finalityDepth, overlap));
  return Math.max(deepest, Math.min(nextBlock - overlap, rereadFrom ?? deepest));
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
