/**
 * What the chain jobs need from TRON, as a port: the TronGrid adapter reads mainnet or Nile, the
 * sandbox adapter reads blocks kept in DynamoDB, and the scanner cannot tell them apart.
 * Addresses are base58 `T…`; amounts are token minor units (USDT: 6 decimals).
 */
export interface ChainBlock {
  number: number;
  /** blockID as hex. */
  hash: string;
  /** ISO 8601 UTC. */
  timestamp: string;
}

/** One TRC-20 Transfer event. (txHash, eventIndex) identifies it across re-reads and re-orgs. */
export interface TokenTransfer {
  txHash: string;
  eventIndex: number;
  blockNumber: number;
  /** The token contract that emitted the event: only the official USDT contract counts. */
  contract: string;
  from: string;
  to: string;
  amount: bigint;
}

/** java-tron's `receipt.result`; anything but SUCCESS means the transfer did not happen. */
export type ReceiptResult = 'SUCCESS' | 'REVERT' | 'OUT_OF_ENERGY' | 'OUT_OF_TIME' | 'TRANSFER_FAILED' | (string & {});

export interface TransactionReceipt {
  txHash: string;
  blockNumber: number;
  result: ReceiptResult;
}

export interface ChainReader {
  /** The newest block (may still be reversed). */
  latestBlock(): Promise<ChainBlock>;
  /** The newest solidified block: irreversible once 19 of 27 producers have built on it. */
  solidifiedBlock(): Promise<ChainBlock>;
  /** Every Transfer event of `contract` in blocks `fromBlock`..`toBlock` inclusive, all pages. */
  transfers(contract: string, fromBlock: number, toBlock: number): Promise<TokenTransfer[]>;
  /**
   * The receipt from the newest view (TronGrid: the full node), or null when that view does not
   * know the transaction (not yet, or forked out).
   */
  receipt(txHash: string): Promise<TransactionReceipt | null>;
  /**
   * The receipt as the solidified chain has it (TronGrid: the solidity node), or null when the
   * transaction is in no solidified block. Asked before deciding a transaction will never be
   * mined: the full node behind receipt() can lag the solidity node behind solidifiedBlock().
   */
  solidifiedReceipt(txHash: string): Promise<TransactionReceipt | null>;
}

/** How far past a transaction's expiration the solidified chain must be before it is declared
 * expired: 20 blocks, so no node answering for TronGrid can still be catching up to its block. */
export const EXPIRY_SETTLE_MARGIN_MS = 60_000;

export interface SentTransactionOutcome {
  /** The newest view's receipt (in a block, perhaps not yet solidified), or null. */
  seen: TransactionReceipt | null;
  /** What it came to for good: its receipt once solidified, 'expired' once it can never be
   * mined, null while neither is known. */
  settled: TransactionReceipt | 'expired' | null;
}

/**
 * Where a transaction we signed and sent stands. It is 'expired' only once the solidified chain
 * is EXPIRY_SETTLE_MARGIN_MS past its expiration and neither the full node nor the solidity node
 * knows it: the full node may lag the solidity node that gave `solidified` (TronGrid serves them
 * from different machines, and the next request may reach another one), and treating a mined
 * transfer as never sent would send its money twice.
 */
export async function sentTransactionOutcome(
  chain: ChainReader,
  txHash: string,
  expiresAt: string | null,
  solidified: ChainBlock,
): Promise<SentTransactionOutcome> {
  const seen = await chain.receipt(txHash);
  if (seen) return { seen, settled: seen.blockNumber <= solidified.number ? seen : null };
  if (expiresAt === null || Date.parse(solidified.timestamp) <= Date.parse(expiresAt) + EXPIRY_SETTLE_MARGIN_MS) return { seen, settled: null };
  return { seen, settled: (await chain.solidifiedReceipt(txHash)) ?? 'expired' };
}
