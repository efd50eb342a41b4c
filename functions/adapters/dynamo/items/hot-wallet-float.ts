import type { HotWalletFloat } from '#functions/ledger/floats';
import type { NetworkName } from '#functions/networks/names';
import { toBigInt } from '../client.ts';
import { type Item } from './item.ts';

/**
 * The one owner of a stored `HotWalletFloat` (functions/ledger/floats.ts): one item per funding
 * transaction, in its network's partition, created in the same transaction as its ledger entry so a
 * float is never recorded twice. `ofNetwork` lists a network's floats.
 */
export const hotWalletFloatItem = {
  type: 'HotWalletFloat',
  key: (network: NetworkName, txHash: string) => ({ PK: `FLOAT#${network}`, SK: `TX#${txHash}` }),
  ofNetwork: (network: NetworkName) => ({ PK: `FLOAT#${network}`, skPrefix: 'TX#' }),
  isOne: (item: Item): boolean => item.type === hotWalletFloatItem.type,
  toItem: (float: HotWalletFloat, entryId: string, recordedAt: string): Item => ({
    ...hotWalletFloatItem.key(float.network, float.txHash),
    type: hotWalletFloatItem.type,
    network: float.network,
    txHash: float.txHash,
    amount: float.amount,
    entryId,
    recordedAt,
  }),
  fromItem: (item: Item): HotWalletFloat => ({ network: item.network as NetworkName, txHash: item.txHash as string, amount: toBigInt(item.amount) }),
};
