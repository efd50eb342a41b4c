import type { ReceiptResult, TokenTransfer } from '#functions/networks/chain';
import { toBigInt } from '../client.ts';
import { transferOnChainFromItem } from './chain-transfer.ts';
import { globalRecord, type Item } from './item.ts';

/**
 * The one owner of the sandbox chain's own items (functions/networks/tron/sandbox-chain.ts,
 * sandbox-balances.ts and sandbox-token.ts): its genesis, its transfers by block (one partition,
 * range-queried by block number), each transaction's receipt, the token balances it keeps (one
 * partition per contract, TRX included), the one-time TRX grant to the hot wallet, and the token
 * issuer's controls (paused, fee, deprecation; one partition of frozen addresses). Written only
 * where the sandbox chain stands in for TRON.
 */
const block = (blockNumber: number) => `BLOCK#${String(blockNumber).padStart(12, '0')}#`;

/** A record of one address under one contract: a partition per contract (every address's record
 * of it is one Query), the address as the sort key; `head` is what each item of it begins with. */
function contractAddressRecord(type: string, partitionPrefix: string) {
  const partition = (contract: string) => `${partitionPrefix}#${contract}`;
  const key = (contract: string, address: string) => ({ PK: partition(contract), SK: address });
  return { type, partition, key, head: (contract: string, address: string) => ({ ...key(contract, address), type, contract, address }) };
}

/** One change a transaction made to a balance, kept on the transaction so a dropped one can be undone. */
export interface BalanceMove {
  contract: string;
  address: string;
  /** Minor units (sun for TRX), as a decimal string: negative is a debit. */
  delta: string;
}

/** What the chain keeps of a transaction: its block, its receipt's result and the balances it moved. */
export interface SandboxTransaction {
  txHash: string;
  blockNumber: number;
  result: ReceiptResult;
  moves: BalanceMove[];
  /** The TRX (sun) the transaction burnt from its sender; null on transactions recorded before it was kept. */
  feeSun: bigint | null;
}

export const sandboxGenesisItem = {
  type: 'SandboxGenesis',
  key: () => ({ PK: 'SANDBOX_CHAIN', SK: 'GENESIS' }),
  /** `balancesKept`: the chain has kept its balances since genesis (older local tables had not). */
  toItem: (genesisMs: number): Item => ({
    ...sandboxGenesisItem.key(),
    type: sandboxGenesisItem.type,
    genesisMs,
    balancesKept: true,
    createdAt: new Date(genesisMs).toISOString(),
  }),
  fromItem: (item: Item) => ({ genesisMs: Number(toBigInt(item.genesisMs)), balancesKept: item.balancesKept === true }),
};

export const sandboxTransferItem = {
  type: 'SandboxTransfer',
  partition: 'SANDBOX_TRANSFERS',
  key: (blockNumber: number, txHash: string, eventIndex: number) => ({ PK: sandboxTransferItem.partition, SK: `${block(blockNumber)}${txHash}#${eventIndex}` }),
  /** The sort key range holding every transfer of blocks `from` to `to`, both included. */
  blocks: (from: number, to: number) => ({ from: block(from), to: `${block(to)}~` }),
  /** Every Transfer event of one transaction (two when the token charged a fee), for itemsUnder. */
  ofTransaction: (blockNumber: number, txHash: string) => ({ PK: sandboxTransferItem.partition, skPrefix: `${block(blockNumber)}${txHash}#` }),

  toItem: (transfer: TokenTransfer, createdAt: string): Item => ({
    ...sandboxTransferItem.key(transfer.blockNumber, transfer.txHash, transfer.eventIndex),
    type: sandboxTransferItem.type,
    ...transfer,
    createdAt,
  }),
  fromItem: (item: Item): TokenTransfer => ({
    ...transferOnChainFromItem(item),
    contract: item.contract as string,
    from: item.from as string,
    to: item.to as string,
  }),
};

export const sandboxTransactionItem = {
  ...globalRecord('SandboxTransaction', 'SANDBOX_TX', 'TX'),
  toItem: (transaction: SandboxTransaction, createdAt: string): Item => ({ ...sandboxTransactionItem.head(transaction.txHash), ...transaction, createdAt }),
  fromItem: (item: Item): SandboxTransaction => ({
    txHash: item.txHash as string,
    blockNumber: Number(toBigInt(item.blockNumber)),
    result: item.result as ReceiptResult,
    // Absent on transactions recorded before balances were kept.
    moves: (item.moves as BalanceMove[] | undefined) ?? [],
    feeSun: item.feeSun === undefined ? null : toBigInt(item.feeSun),
  }),
};

/** An address's balance of one contract; its `amount` only ever changes by ADD (moveItem). */
export const sandboxBalanceItem = {
  ...contractAddressRecord('SandboxBalance', 'SANDBOX_BALANCE'),
  toItem: (contract: string, address: string, amount: bigint): Item => ({ ...sandboxBalanceItem.head(contract, address), amount }),
  fromItem: (item: Item) => ({ address: item.address as string, amount: toBigInt(item.amount) }),
};

export const sandboxTreasuryGrantItem = {
  type: 'SandboxTreasuryGrant',
  key: (address: string) => ({ PK: 'SANDBOX_CHAIN', SK: `TREASURY_GRANT#${address}` }),
  toItem: (address: string, amountSun: bigint): Item => ({ ...sandboxTreasuryGrantItem.key(address), type: sandboxTreasuryGrantItem.type, address, amountSun }),
};

/**
 * What the issuer has set on the sandbox's USDT (Tether's `TetherToken`), one item per token under
 * its original contract. Each field is SET on its own (freeze aside, every issuer call is one
 * UpdateItem), so two calls side by side never undo each other; a field never set reads as the
 * token deployed: not paused, no fee, not deprecated.
 */
export interface SandboxTokenControls {
  paused: boolean;
  /** Tether's `basisPointsRate`: 0–20. */
  feeBasisPoints: number;
  /** Tether's `maximumFee`, in USDT minor units: no transfer pays more. */
  maxFee: bigint;
  /** Tether's `upgradedAddress` once `deprecate`d: the contract that then emits every Transfer event. */
  upgradedContract: string | null;
}

export const sandboxTokenControlsItem = {
  type: 'SandboxTokenControls',
  key: (contract: string) => ({ PK: 'SANDBOX_CHAIN', SK: `TOKEN_CONTROLS#${contract}` }),
  fromItem: (item: Item | null): SandboxTokenControls => ({
    paused: item?.paused === true,
    feeBasisPoints: item?.feeBasisPoints === undefined ? 0 : Number(toBigInt(item.feeBasisPoints)),
    maxFee: item?.maxFee === undefined ? 0n : toBigInt(item.maxFee),
    upgradedContract: typeof item?.upgradedContract === 'string' ? item.upgradedContract : null,
  }),
};

/** An address the issuer has frozen (Tether's `isBlackListed`): present while frozen, deleted when
 * unfrozen; one partition per token, so every frozen address is one Query. */
export const sandboxFrozenAddressItem = {
  ...contractAddressRecord('SandboxFrozenAddress', 'SANDBOX_FROZEN'),
  toItem: (contract: string, address: string, frozenAt: string): Item => ({ ...sandboxFrozenAddressItem.head(contract, address), frozenAt }),
  fromItem: (item: Item) => ({ address: item.address as string }),
};
