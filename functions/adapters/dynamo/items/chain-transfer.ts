import type { NetworkName } from '#functions/networks/names';
import type { TransferRecord } from '#functions/deposits/deposit-transitions';
import type { HoldReason } from '#functions/deposits/deposits';
import { toBigInt } from '../client.ts';
import { globalRecord, type Item } from './item.ts';

/** What every stored transfer holds of the chain's event: where it is on chain and its amount
 * (here, and the sandbox chain's own transfers in sandbox-chain.ts). */
export const transferOnChainFromItem = (item: Item) => ({
  txHash: item.txHash as string,
  eventIndex: Number(toBigInt(item.eventIndex)),
  blockNumber: Number(toBigInt(item.blockNumber)),
  amount: toBigInt(item.amount),
});

/**
 * The one owner of a stored `ChainTransfer`: one item per USDT transfer to a deposit address,
 * created once (keyed by transaction and event index), so a replayed block cannot credit twice.
 * While it confirms it carries a GSI1 mark, oldest block first, for the confirmation job.
 */
export const chainTransferItem = {
  type: 'ChainTransfer',
  /** Keyed by network, transaction and event index (TRON's keys keep the form they had alone). */
  key: (network: NetworkName, txHash: string, eventIndex: number) => ({
    PK: network === 'tron' ? `CHAIN_TRANSFER#${txHash}#${eventIndex}` : `CHAIN_TRANSFER#${network}#${txHash}#${eventIndex}`,
    SK: 'TRANSFER',
  }),
  /** GSI1, sparse, a partition per network (its poller confirms its own): transfers waiting for
   * confirmation, oldest block first. */
  confirmingPartition: (network: NetworkName) => (network === 'tron' ? 'CHAIN_TRANSFERS#confirming' : `CHAIN_TRANSFERS#${network}#confirming`),
  confirming: (network: NetworkName, blockNumber: number, txHash: string, eventIndex: number) => ({
    GSI1PK: chainTransferItem.confirmingPartition(network),
    GSI1SK: `${String(blockNumber).padStart(12, '0')}#${txHash}#${eventIndex}`,
  }),

  /** GSI1, sparse, a partition per network: transfers final but held (HoldReason), which the
   * poller checks for a lifted freeze. */
  heldPartition: (network: NetworkName) => `CHAIN_TRANSFERS#${network}#held`,
  held: (network: NetworkName, blockNumber: number, txHash: string, eventIndex: number) => ({
    GSI1PK: chainTransferItem.heldPartition(network),
    GSI1SK: `${String(blockNumber).padStart(12, '0')}#${txHash}#${eventIndex}`,
  }),

  toItem: (record: TransferRecord, updatedAt: string): Item => ({
    ...chainTransferItem.key(record.network, record.txHash, record.eventIndex),
    ...(record.status === 'confirming' ? chainTransferItem.confirming(record.network, record.blockNumber, record.txHash, record.eventIndex) : {}),
    ...(record.status === 'held' ? chainTransferItem.held(record.network, record.blockNumber, record.txHash, record.eventIndex) : {}),
    type: chainTransferItem.type,
    ...record,
    updatedAt,
  }),
  fromItem: (item: Item): TransferRecord => ({
    ...transferOnChainFromItem(item),
    // Stored before a second network existed: TRON's.
    network: (item.network as NetworkName | undefined) ?? 'tron',
    ...(typeof item.blockHash === 'string' && { blockHash: item.blockHash }),
    companyId: item.companyId as string,
    depositId: item.depositId as string,
    status: item.status as TransferRecord['status'],
    ...(typeof item.from === 'string' && { from: item.from }),
    ...(Array.isArray(item.otherPayers) && { otherPayers: item.otherPayers as string[] }),
    ...(typeof item.to === 'string' && { to: item.to }),
    ...(typeof item.holdReason === 'string' && { holdReason: item.holdReason as HoldReason }),
    ...(item.sanctionCleared === true && { sanctionCleared: true as const }),
  }),
};

/** The deposit scanner's position on a chain (`nextBlock`), where its next scan starts reading again
 * (`rereadFrom`, on a chain with a finality depth: the first block it read before it was final), and
 * the lease that lets one scanner move them at a time. */
export const scanCursorItem = {
  ...globalRecord('ScanCursor', 'CHAIN_CURSOR', 'CURSOR'),
  /** The next block to scan; null before the first run has moved the cursor. */
  nextBlockOf: (item: Item): number | null => (item.nextBlock === undefined ? null : Number(toBigInt(item.nextBlock))),
  /** The first block the last scan read before it was final; null where no scan said one (TRON). */
  rereadFromOf: (item: Item): number | null => (item.rereadFrom === undefined ? null : Number(toBigInt(item.rereadFrom))),
};

/** A bounded rescan of a network's blocks (`npm run deposits:rescan`) beside its live scan, in the
 * scan cursor's partition: the range `fromBlock`–`untilBlock`, `nextBlock` where it stands (past
 * `untilBlock` once finished: the record stays, saying what the last rescan read), `requestedAt`,
 * and a lease of its own. */
export const scanRescanItem = {
  ...globalRecord('ScanRescan', 'CHAIN_CURSOR', 'RESCAN'),
  progressOf: (item: Item) => ({
    fromBlock: Number(toBigInt(item.fromBlock)),
    nextBlock: Number(toBigInt(item.nextBlock)),
    untilBlock: Number(toBigInt(item.untilBlock)),
    requestedAt: item.requestedAt as string,
  }),
};
