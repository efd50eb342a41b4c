import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import { scheduledNetwork, type NetworkScheduleEvent } from './network-schedule.ts';
import type { Context } from 'aws-lambda';
import type { DepositHolds } from '#functions/deposits/deposit-chain';
import { scanDeposits, type ScanCursor, type ScanResult } from '#functions/deposits/deposit-scan';
import { confirmDeposits, expireDeposits, expireWhereNotOpen, oldestConfirmingAgeSeconds, releaseUnfrozen } from '#functions/deposits/deposit-confirmation';
import { DepositAddressFilter } from '#functions/deposits/deposit-address-filter';
import type { Log } from '#functions/shared/log';
import { dynamoFrom } from '#adapters/runtime';
import { FIRST_NETWORK, metricsDimensionOf, type NetworkName } from '#functions/networks/names';
import { networksOpenIn } from '#functions/networks/open-networks';
import { chainsOf } from '#functions/networks/chain-registry';
import { DynamoDepositChainStore, DynamoRescanCursor, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { DynamoDepositAddressListing } from '#adapters/dynamo/deposit-address-listing';
import { MetricUnit, runJob } from '#adapters/observability';
import { functionSettings } from '#functions/settings/functions';
import { screeningListOf } from '#adapters/dynamo/screening-store';

const settings = functionSettings('jobs/deposit-poller');
const { db, tableName } = dynamoFrom(settings);

/** One network's scanner: its chain, its records and cursor, kept across warm invocations. */
function pollerOf(network: NetworkName) {
  const { chain, settings: chainSettings } = chainsOf(network).connect(db, tableName, settings);
  const store = new DynamoDepositChainStore(db, tableName, network);
  const screening = screeningListOf(db, tableName);
  const holds: DepositHolds = {
    frozenAddresses: (addresses) => chain.frozenAmong(chainSettings.usdtContract, addresses),
    sanctioned: (addresses) => screening.listed(network, addresses),
    usdtAt: (addresses) => chain.usdtBalances(chainSettings.usdtContract, addresses),
  };
  return {
    deps: { network, chain, store, usdtContract: chainSettings.usdtContract, holds },
    cursor: new DynamoScanCursor(db, tableName, chainSettings.cursorName, chainSettings.previousCursorNames),
    rescanCursor: new DynamoRescanCursor(db, tableName, chainSettings.cursorName),
  };
}
const pollers = new Map<NetworkName, ReturnType<typeof pollerOf>>();

/** The address filter of every network's scanner in this process, kept across warm invocations:
 * the listing holds every network's addresses, so a container that polls several networks reads
 * and holds it once. Read whole over the first runs of a cold start (LISTING_READ_MS of each), then
 * refreshed with what was listed since at every scan. */
const addresses = new DepositAddressFilter(new DynamoDepositAddressListing(db, tableName));
/** How much of a run, from its start, the filter's first read of the listing may take: the rest of
 * the 55 s is the run's to scan (its recipients looked up meanwhile, as for an incomplete listing),
 * confirm and expire; a large listing is read on by the next runs. */
const LISTING_READ_MS = 15_000;

/** How long a run keeps scanning while behind: well inside the function's 55 s timeout, leaving
 * time to confirm and expire. */
const CATCH_UP_MS = 30_000;
/** Behind by more than this, a run scans again. A chain makes blocks while a scan runs, so a lag
 * of a few is the head moving, not the scanner falling behind: scanning again for it would keep a
 * run going for its whole 30 s on a fast chain (the local sandbox chain's blocks in tests). */
const CATCH_UP_LAG_BLOCKS = 20;

/**
 * The deposit poller of one network (an EventBridge target per network in AWS, whose input names
 * it; a timer per network in the local runtime): scan new blocks, settle what is final, expire
 * this network's deposits unpaid through their expiry (expireDeposits), then read a rescan's blocks
 * in the time left (npm run deposits:rescan).
 */
export async function pollDeposits(network: NetworkName, log?: Log) {
  if (!pollers.has(network)) pollers.set(network, pollerOf(network));
  const { deps, cursor, rescanCursor } = pollers.get(network)!;
  const startedAt = Date.now();
  const listingReadUntil = new Date(startedAt + LISTING_READ_MS);
  const scanning = (scanCursor: ScanCursor) => () => scanDeposits({ ...deps, log, cursor: scanCursor, owner: randomUUID(), addresses, listingReadUntil });
  // A fast chain (Arbitrum makes four blocks a second) outruns one scan a minute: scan again
  // while behind, within the run's time, each scan taking the cursor's lease anew.
  const liveScan = scanning(cursor);
  const scan = await scanOnWhile(await liveScan(), liveScan, (lag) => lag > CATCH_UP_LAG_BLOCKS, startedAt);
  const confirm = await confirmDeposits({ ...deps, log });
  // What this run left confirming: a transfer that stays so far past its network's finality is stuck.
  // A figure for the alarm only: a read that fails leaves it out (the alarm's missing data is no
  // breach) rather than stop the run before its releases and expiries.
  const oldestConfirmingSeconds = await oldestConfirmingAgeSeconds(deps).catch((error: unknown) => {
    log?.warn('oldest confirming transfer not read; its age is not published this run', { network, error: String(error) });
    return null;
  });
  const released = await releaseUnfrozen({ ...deps, log });
  // Each network expires its own deposits, once its chain is read past their expiry.
  const expiry = await expireDeposits({ ...deps, log }, scan.readThrough);
  // And the deposits of networks the stage no longer opens, which no poller reads, by the clock.
  if (network === FIRST_NETWORK) {
    expiry.expired += await expireWhereNotOpen({ storeOf: (other) => new DynamoDepositChainStore(db, tableName, other), log }, networksOpenIn(settings));
  }
  // New payments first: old blocks are read again only once this run has read to the head (not
  // when another run held the live scan), after the rest of its work, in what is left of its time.
  const caughtUp = scan.lagBlocks !== null && scan.lagBlocks <= CATCH_UP_LAG_BLOCKS;
  const rescanOnce = scanning(rescanCursor);
  const rescan = caughtUp && hasTime(startedAt) ? await scanOnWhile(await rescanOnce(), rescanOnce, (left) => left > 0, startedAt) : null;
  return { scan, rescan, confirm, oldestConfirmingSeconds, released, expiry };
}

const hasTime = (startedAt: number) => Date.now() - startedAt < CATCH_UP_MS;

/** Scans again after `first` while `behind` says so and the run has time, adding up what was read
 * and recorded. */
async function scanOnWhile(first: ScanResult, scanOnce: () => Promise<ScanResult>, behind: (lagBlocks: number) => boolean, startedAt: number): Promise<ScanResult> {
  let scan = first;
  while (scan.lagBlocks !== null && behind(scan.lagBlocks) && hasTime(startedAt)) {
    const next = await scanOnce();
    scan = {
      ...next,
      // The run's whole range, for its log line.
      scanned: scan.scanned && next.scanned ? { fromBlock: scan.scanned.fromBlock, toBlock: next.scanned.toBlock } : (next.scanned ?? scan.scanned),
      transfersSeen: scan.transfersSeen + next.transfersSeen,
      recorded: scan.recorded + next.recorded,
      credited: scan.credited + next.credited,
    };
  }
  return scan;
}

/** One line per run (INFO when something moved) and the metrics the stack alarms on, per network:
 * the scanner's lag in blocks (ScannerLagBlocks), the deposits credited, final transfers held rather
 * than credited (DepositTransfersHeld), how long the oldest transfer still confirming has waited
 * (OldestConfirmingTransferAge), and unpaid deposits holding USDT no scan recorded (UnrecordedDepositUsdt). */
export const handler = middy<NetworkScheduleEvent>().handler(async (event: NetworkScheduleEvent, context: Context) => {
  const network = scheduledNetwork(event);
  return runJob(
    `deposit poll (${network})`,
    context,
    async ({ log, metrics }) => {
      const dimension = metricsDimensionOf(network);
      if (dimension !== null) metrics.addDimension('Network', dimension);
      const outcome = await pollDeposits(network, log);
      if (outcome.scan.lagBlocks !== null) metrics.addMetric('ScannerLagBlocks', MetricUnit.Count, outcome.scan.lagBlocks);
      metrics.addMetric('DepositsCredited', MetricUnit.Count, outcome.scan.credited + (outcome.rescan?.credited ?? 0) + outcome.confirm.confirmed);
      metrics.addMetric('DepositTransfersDropped', MetricUnit.Count, outcome.confirm.dropped);
      metrics.addMetric('DepositTransfersHeld', MetricUnit.Count, outcome.confirm.held);
      if (outcome.oldestConfirmingSeconds !== null) metrics.addMetric('OldestConfirmingTransferAge', MetricUnit.Seconds, outcome.oldestConfirmingSeconds);
      // Unpaid deposits past expiry whose address holds USDT no scan recorded (expireDeposits).
      metrics.addMetric('UnrecordedDepositUsdt', MetricUnit.Count, outcome.expiry.unrecordedUsdt);
      return outcome;
    },
    ({ scan, rescan, confirm, released, expiry }) => scan.recorded + (rescan?.recorded ?? 0) + confirm.confirmed + confirm.dropped + confirm.held + released + expiry.expired + expiry.unrecordedUsdt > 0,
  );
});
