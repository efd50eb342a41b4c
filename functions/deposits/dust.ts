import type { TokenTransfer } from '../networks/chain.ts';
import type { NetworkName } from '../networks/names.ts';

/**
 * Dust: on a chain whose USDT has more than 6 decimals (BSC's 18), what a transfer carries below
 * 1e-6 USDT. It is never credited (amounts outside have 6 decimals), yet it is on the deposit
 * address, then (swept with the rest) on the hot wallet: recorded here so that reconcile can say
 * what every sub-micro remainder on the network is (../shared/networks.md, "Rules that hold on
 * every network"; functions/ledger/reconciliation.ts). A transfer of dust alone pays no deposit.
 *
 * Recorded once its block is final, as a credit would be: the scanner reads a block again until it
 * is (deposit-scan.ts), so a transfer a reorganisation removed is never recorded.
 */
export interface DustTransfer {
  network: NetworkName;
  txHash: string;
  /** The transfer's place among the token's Transfer events of its transaction (TokenTransfer). */
  eventIndex: number;
  blockNumber: number;
  blockHash: string;
  /** The deposit address it reached. */
  address: string;
  /** Below 1e-6 USDT, in the token's base units (on BSC, 1 is 1e-18 USDT). */
  amount: bigint;
  recordedAt: string;
}

export interface DustRecorder {
  /** Each transfer's dust once: recording the same transfer again writes nothing. */
  recordDust(dust: DustTransfer[]): Promise<void>;
}

/**
 * Records the dust of these transfers that reached a deposit address (`ownersOf` says which) in a
 * block at or below `final`; returns how many. The scanner's whole read is passed, transfers of
 * dust alone among them, which it does not otherwise keep. `contracts`: USDT's (any other token's
 * transfer is not Cambio's business).
 */
export async function recordFinalDust(
  network: NetworkName,
  recorder: Partial<DustRecorder>,
  transfers: TokenTransfer[],
  contracts: string[],
  final: number | null,
  ownersOf: (addresses: string[]) => Promise<Map<string, unknown>>,
  now: Date,
): Promise<number> {
  if (!recorder.recordDust || final === null) return 0;
  const dusty = transfers.filter((transfer) => transfer.dust && transfer.blockHash !== undefined && transfer.blockNumber <= final && contracts.includes(transfer.contract));
  if (dusty.length === 0) return 0;
  const owners = await ownersOf([...new Set(dusty.map((transfer) => transfer.to))]);
  const dust = dusty
    .filter((transfer) => owners.has(transfer.to))
    .map((transfer) => ({
      network,
      txHash: transfer.txHash,
      eventIndex: transfer.eventIndex,
      blockNumber: transfer.blockNumber,
      blockHash: transfer.blockHash!,
      address: transfer.to,
      amount: transfer.dust!,
      recordedAt: now.toISOString(),
    }));
  if (dust.length > 0) await recorder.recordDust(dust);
  return dust.length;
}
