import { sweepInFlightReader } from '../../ledger/reconciliation.ts';
import type { EvmSweep } from './sweeps.ts';
import type { EvmNetworkName } from '#functions/networks/names';
import { toBigInt } from '../../adapters/dynamo/client.ts';
import { withTakenOffCounts } from '../../adapters/dynamo/items/deposit-address.ts';
import type { Item } from '../../adapters/dynamo/items/item.ts';

/**
 * The one owner of a stored `EvmSweep` (functions/networks/evm/sweeps.ts): one partition per EVM
 * network, a sweep `OPEN#` while its transaction is unsettled, then among the network's finished
 * sweeps by time, kept for reconciliation with each forwarder it emptied.
 */
const partition = (network: EvmNetworkName) => `EVM_SWEEP#${network}`;

export const evmSweepItem = {
  type: 'EvmSweep',
  open: (network: EvmNetworkName, id: string) => ({ PK: partition(network), SK: `OPEN#${id}` }),
  openOf: (network: EvmNetworkName) => ({ PK: partition(network), skPrefix: 'OPEN#' }),
  finished: (network: EvmNetworkName, createdAt: string, id: string) => ({ PK: partition(network), SK: `FINISHED#${createdAt}#${id}` }),
  finishedOf: (network: EvmNetworkName) => ({ PK: partition(network), skPrefix: 'FINISHED#' }),
  isOne: (item: Item): boolean => item.type === evmSweepItem.type,
  isFinished: (sweep: EvmSweep): boolean => sweep.status !== 'sending',
  /** Where the sweeper's turn through every deposit address, reading their native coin, stands:
   * `after`, the listing's sort key last read (DynamoEvmSweepStore.nextAddressesToCheckForNative). */
  nativeCheckCursor: (network: EvmNetworkName) => ({ PK: partition(network), SK: 'NATIVE_CHECK_CURSOR' }),

  toItem: (sweep: EvmSweep): Item => ({
    ...(evmSweepItem.isFinished(sweep) ? evmSweepItem.finished(sweep.network, sweep.createdAt, sweep.id) : evmSweepItem.open(sweep.network, sweep.id)),
    type: evmSweepItem.type,
    ...sweep,
  }),
  fromItem: (item: Item): EvmSweep => ({
    id: item.id as string,
    network: item.network as EvmNetworkName,
    status: item.status as EvmSweep['status'],
    wallet: item.wallet as string,
    forwarders: (item.forwarders as Item[]).map((forwarder) => ({
      address: forwarder.address as string,
      depositId: forwarder.depositId as string,
      amount: toBigInt(forwarder.amount),
      ...(forwarder.native !== undefined && { native: toBigInt(forwarder.native) }),
      // Absent on forwarders planned before the counts bounded a sweep, and where none were kept.
      ...withTakenOffCounts(forwarder.takenOffCounts),
    })),
    amount: toBigInt(item.amount),
    // Sweeps settled before what moved was kept, and open ones, have none.
    ...(item.moved !== undefined && { moved: toBigInt(item.moved) }),
    // Sweeps stored before native coin was swept moved none.
    nativeAmount: item.nativeAmount === undefined ? 0n : toBigInt(item.nativeAmount),
    nonce: Number(toBigInt(item.nonce)),
    signed: item.signed as string,
    txHash: item.txHash as string,
    ...(Array.isArray(item.replacedTxHashes) && { replacedTxHashes: item.replacedTxHashes as string[] }),
    filler: (item.filler as EvmSweep['filler']) ?? null,
    // Sweeps stored before replacements were made have none: not replaced until a broadcast the node takes.
    broadcastAt: (item.broadcastAt as string | null) ?? null,
    failureReason: (item.failureReason as string | null) ?? null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  }),
};

/** An unfinished EVM sweep as reconcile reads it from the table's scan (functions/networks/record-registry.ts):
 * every version of its transaction (any one may be mined), the USDT its forwarders held when it was
 * signed, and the forwarders: each flush moves its whole balance when mined, so its issuer's fee is
 * read from the receipt (what they sent less what the hot wallet received), not from `amount`. */
export const evmSweepInFlight = sweepInFlightReader(evmSweepItem, (sweep) =>
  evmSweepItem.isFinished(sweep)
    ? null
    : { network: sweep.network, txHashes: [sweep.txHash, ...(sweep.replacedTxHashes ?? [])], amount: sweep.amount, from: sweep.forwarders.map((forwarder) => forwarder.address) },
);
