import { companyPartition as company } from './items/item.ts';

/**
 * Every DynamoDB key the service writes or reads is built here and nowhere else; docs/data-model.md
 * lists the entities and access patterns these keys serve. Records that have moved to their own
 * module under `items/` (ledger entries, events, …) own their keys there, with their format.
 */

export const keys = {
  /** The chain scanner resolves a transfer's `to` address to its deposit with one read of this. */
  depositAddress: (address: string) => ({ PK: `ADDRESS#${address}`, SK: 'ADDRESS' }),
  /** One item per on-chain transfer to a deposit address: created once, so a replayed block cannot credit twice. */
  chainTransfer: (txHash: string, eventIndex: number) => ({ PK: `CHAIN_TRANSFER#${txHash}#${eventIndex}`, SK: 'TRANSFER' }),
  /** GSI1, sparse: transfers waiting for confirmation, oldest block first. */
  confirmingTransfer: (blockNumber: number, txHash: string, eventIndex: number) => ({
    GSI1PK: 'CHAIN_TRANSFERS#confirming',
    GSI1SK: `${String(blockNumber).padStart(12, '0')}#${txHash}#${eventIndex}`,
  }),
  /** The deposit scanner's position on a chain, and its lease. */
  scanCursor: (name: string) => ({ PK: `CHAIN_CURSOR#${name}`, SK: 'CURSOR' }),
  /** The sandbox chain (functions/adapters/chain/sandbox-chain.ts): its genesis, its transfers by
   * block (one partition, range-queried by block number) and each transaction's receipt. */
  sandboxGenesis: () => ({ PK: 'SANDBOX_CHAIN', SK: 'GENESIS' }),
  sandboxTransfer: (blockNumber: number, txHash: string, eventIndex: number) => ({
    PK: 'SANDBOX_TRANSFERS',
    SK: `BLOCK#${String(blockNumber).padStart(12, '0')}#${txHash}#${eventIndex}`,
  }),
  sandboxBlockBound: (blockNumber: number) => `BLOCK#${String(blockNumber).padStart(12, '0')}#`,
  sandboxTransaction: (txHash: string) => ({ PK: `SANDBOX_TX#${txHash}`, SK: 'TX' }),
  /** GSI1, sparse, on the DepositAddress item: it received confirmed funds since its last sweep. */
  sweepDue: (address: string) => ({ GSI1PK: 'SWEEPS#due', GSI1SK: address }),
  /** GSI1, sparse, on the DepositAddress item instead of sweepDue: the sweeper left USDT below its
   * minimum there, which companies were credited with and reconciliation must still count. */
  sweepBelowMinimum: (address: string) => ({ GSI1PK: 'SWEEPS#below_minimum', GSI1SK: address }),
  /** The sweep in progress for a deposit address, and the record of each finished one. */
  openSweep: (address: string) => ({ PK: `SWEEP#${address}`, SK: 'OPEN' }),
  finishedSweep: (address: string, createdAt: string) => ({ PK: `SWEEP#${address}`, SK: `FINISHED#${createdAt}` }),
  finishedSweepsOf: (address: string) => ({ PK: `SWEEP#${address}`, skPrefix: 'FINISHED#' }),
  addressIndexCounter: () => ({ PK: 'COUNTER#DEPOSIT_ADDRESS_INDEX', SK: 'COUNTER' }),
  /** Which payout a signed transaction id belongs to: created once, before the broadcast, so no
   * two payouts can ever share one transaction (functions/domain/payouts.ts). */
  transactionClaim: (txId: string) => ({ PK: `TX_CLAIM#${txId}`, SK: 'CLAIM' }),
  /** The sandbox chain's token balances: one partition per token contract (TRX included), an
   * item per address, moved in the same transaction as the transfer that changes them. */
  sandboxBalance: (contract: string, address: string) => ({ PK: `SANDBOX_BALANCE#${contract}`, SK: address }),
  sandboxBalancesOf: (contract: string) => ({ PK: `SANDBOX_BALANCE#${contract}`, skPrefix: '' }),
  /** The one-time TRX grant to the sandbox hot wallet (its treasury), so fees and top-ups can be paid. */
  sandboxTreasuryGrant: (address: string) => ({ PK: 'SANDBOX_CHAIN', SK: `TREASURY_GRANT#${address}` }),


  idempotency: (companyId: string, key: string) => ({ PK: company(companyId), SK: `IDEMPOTENCY#${key}` }),
} as const;

/** The `type` attribute on every item, so an export can be read without parsing keys. */
export const ENTITY = {
  depositAddress: 'DepositAddress',
  counter: 'Counter',
  sweep: 'Sweep',
  chainTransfer: 'ChainTransfer',
  scanCursor: 'ScanCursor',
  sandboxGenesis: 'SandboxGenesis',
  sandboxTransfer: 'SandboxTransfer',
  sandboxTransaction: 'SandboxTransaction',
  sandboxBalance: 'SandboxBalance',
  sandboxTreasuryGrant: 'SandboxTreasuryGrant',
  transactionClaim: 'TransactionClaim',
  idempotency: 'IdempotencyRecord',
} as const;

// The local runtime's webhook queues (issue #12, kill -9 losing an event): kept apart from the
// service's own keys above, as they exist only where SQS does not.

/** Each message of the local runtime's in-process queues, written through so a restart, even a
 * kill -9, loses none (functions/adapters/dynamo/local-queue-store.ts). One partition per queue.
 * Never written in AWS, where the messages live in SQS. */
export const localQueueKeys = {
  message: (queue: string, messageId: string) => ({ PK: `LOCAL_QUEUE#${queue}`, SK: `MESSAGE#${messageId}` }),
  messagesOf: (queue: string) => ({ PK: `LOCAL_QUEUE#${queue}`, skPrefix: 'MESSAGE#' }),
};

export const LOCAL_QUEUE_MESSAGE = 'LocalQueueMessage';
