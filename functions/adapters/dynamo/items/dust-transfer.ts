import type { DustTransfer } from '#functions/deposits/dust';
import type { NetworkName } from '#functions/networks/names';
import { toBigInt } from '../client.ts';
import type { Item } from './item.ts';

/**
 * The one owner of a stored `DustTransfer` (functions/deposits/dust.ts): the part below 1e-6 USDT
 * of one transfer to a deposit address, in its network's partition, keyed by the transfer's id
 * (transaction and its place among the token's events), so it is recorded once. Reconcile's Scan
 * sums them per network.
 */
export const dustTransferItem = {
  type: 'DustTransfer',
  key: (network: NetworkName, txHash: string, eventIndex: number) => ({ PK: `DUST#${network}`, SK: `TX#${txHash}#${eventIndex}` }),
  isOne: (item: Item): boolean => item.type === dustTransferItem.type,
  toItem: (dust: DustTransfer): Item => ({ ...dustTransferItem.key(dust.network, dust.txHash, dust.eventIndex), type: dustTransferItem.type, ...dust }),
  fromItem: (item: Item): DustTransfer => ({
    network: item.network as NetworkName,
    txHash: item.txHash as string,
    eventIndex: Number(toBigInt(item.eventIndex)),
    blockNumber: Number(toBigInt(item.blockNumber)),
    blockHash: item.blockHash as string,
    address: item.address as string,
    amount: toBigInt(item.amount),
    recordedAt: item.recordedAt as string,
  }),
};
