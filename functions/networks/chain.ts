import type { CoinAmount } from '../shared/money.ts';

/**
 * What the chain jobs need from a network's chain, as a port (part of the network port,
 * network.ts): a network's real chain and its sandbox stand-in implement it alike, and the scanner
 * cannot tell them apart. Addresses are in the network's own form (Network.address); transfers'
 * amounts are USDT minor units (6 decimals), balances the token's base units on chain
 * (Network.tokenDecimals).
 */
export interface ChainBlock {
  number: number;
  /** The block's id as hex. */
  hash: string;
  /** ISO 8601 UTC. */
  timestamp: string;
}

/** One token Transfer event. (txHash, eventIndex) identifies it across re-reads and re-orgs. */
export interface TokenTransfer {
  txHash: string;
  eventIndex: number;
  blockNumber: number;
  /** The block's hash, where the chain's log gives it (EVM): reorganisations are told by it. */
  blockHash?: string;
  /** The token contract that emitted the event: only the official USDT contract counts. */
  contract: string;
  /** Who paid: the event's `from`; on Solana, which has no events, the owner whose USDT fell most in
   * the transaction. */
  from: string;
  /** Everyone else whose USDT fell in the same transaction: one transaction may carry several
   * payers' USDT to one account (Solana), or route a payer's through a contract (Transfer(A→C), then
   * Transfer(C→deposit): only A is the payer OFAC lists). Each is screened as `from` is. */
  otherPayers?: string[];
  to: string;
  /** USDT minor units (6 decimals), whatever the token's decimals on chain. */
  amount: bigint;
  /** On a chain whose token has more than 6 decimals, what the transfer carried below 1e-6 USDT,
   * in the token's base units: never credited (../shared/networks.md). */
  dust?: bigint;
}

/**
 * `transfers` with `otherPayers`: every other address a Transfer of the same token in the same
 * transaction moved USDT from (`senders`: the `from` of each Transfer read in the range, the
 * wanted ones among them). A chain whose events name each movement (TRON, EVM) shows a payment
 * routed through a contract only so: screening the last hop's sender alone would credit a listed
 * address's USDT that an aggregator or a router passed on. Over-inclusive where one transaction
 * carries unrelated transfers: a deposit then waits for a person (held), never the other way.
 */
export function withOtherPayers<T extends Pick<TokenTransfer, 'txHash' | 'from' | 'otherPayers'>>(transfers: T[], senders: Iterable<{ txHash: string; from: string }>): T[] {
  if (transfers.length === 0) return transfers;
  const wanted = new Set(transfers.map((transfer) => transfer.txHash));
  const fromsOf = new Map<string, Set<string>>();
  for (const { txHash, from } of senders) {
    if (!wanted.has(txHash)) continue;
    let froms = fromsOf.get(txHash);
    if (!froms) fromsOf.set(txHash, (froms = new Set()));
    froms.add(from);
  }
  return transfers.map((transfer) => {
    const known = new Set([transfer.from, ...(transfer.otherPayers ?? [])]);
    const others = [...(fromsOf.get(transfer.txHash) ?? [])].filter((from) => !known.has(from));
    return others.length > 0 ? { ...transfer, otherPayers: [...(transfer.otherPayers ?? []), ...others] } : transfer;
  });
}

/** SUCCESS, or the network's own failure code (kept as a withdrawal's `failureReason`): anything but
 * SUCCESS means the transfer did not happen. */
export type ReceiptResult = 'SUCCESS' | (string & {});

export interface TransactionReceipt {
  txHash: string;
  blockNumber: number;
  /** Its block's hash, where the chain says it (EVM). */
  blockHash?: string;
  result: ReceiptResult;
  /**
   * The token movements the transaction made, from its Transfer events (its receipt's logs): what a
   * payout delivered and what a sweep brought in, net of an issuer's transfer fee
   * (../shared/networks.md, "Transfer fee"). Amounts in USDT minor units (6 decimals) as the chain's
   * USDT decimals give them, rounded down. Absent where the reader does not give them.
   */
  tokenTransfers?: ReceiptTransfer[];
  /**
   * The contracts that emitted a log with the Transfer event's topic that could not be read as one
   * (its amount not one word): any contract may emit such a log, beside a real USDT transfer in the
   * same transaction. Listed, not thrown, so a payer's own contract cannot make a deposit's receipt
   * unreadable; a USDT contract among them is the node's fault (reorganisations.ts stillTransfers).
   */
  unreadableTransfers?: string[];
  /**
   * What the fee payer's balance of the network's own coin fell by in the transaction, in the coin's
   * base units: its fee, and what else it paid for (on Solana, the rent of a token account the
   * transaction created). Failed, it still paid its fee. Absent where the reader does not give it.
   */
  feePayerCost?: CoinAmount;
}

export interface ReceiptTransfer {
  /** The contract that emitted the event: after a deprecation, the upgraded one. */
  contract: string;
  to: string;
  amount: bigint;
  /** The payer, where the reader gives it (EVM). */
  from?: string;
  /** Its place among the contract's Transfer events of the transaction, as TokenTransfer.eventIndex
   * counts it, where the reader gives it (EVM): what tells a deposit's transfer in a re-mined
   * transaction from another. */
  eventIndex?: number;
  /** True where the transaction created the recipient's token account (Solana: it held no balance
   * before), its rent paid by the fee payer; absent where it did not, or where the reader does not say. */
  toAccountCreated?: boolean;
  /** The token account credited, where the chain keeps balances in accounts of their own (Solana:
   * the owner `to`'s associated token account), so a payout to the account itself is told. */
  toAccount?: string;
}

/** What `receipt` shows reached `to` in USDT (every Transfer event to it, or, where the chain keeps
 * balances in accounts of their own, to `to` as the token account credited: a Solana payee named by
 * its token account), or null when the reader gave no transfers. A payout's transaction calls the
 * USDT contract alone, so every Transfer event in it is USDT's, through the original contract or,
 * once deprecated, the upgraded one. */
export function receivedBy(receipt: TransactionReceipt, to: string, sameAddress: (a: string, b: string) => boolean = (a, b) => a === b): bigint | null {
  if (!receipt.tokenTransfers) return null;
  const reached = (transfer: ReceiptTransfer) => sameAddress(transfer.to, to) || (transfer.toAccount !== undefined && sameAddress(transfer.toAccount, to));
  return receipt.tokenTransfers.filter(reached).reduce((sum, transfer) => sum + transfer.amount, 0n);
}

/**
 * The scanner's say on which transfers a chain read needs to decode. On an EVM chain a log's
 * recipient can be read from its raw topic, while decoding a log (both addresses checksummed, a
 * keccak each) is most of the scanner's CPU; nearly every USDT transfer is between strangers.
 */
export interface RecipientFilter {
  /** Called once the logs are read and before mayWant: the filter refreshes itself then, so that it
   * knows every address that could have been paid in the blocks read (deposit-address-filter.ts). */
  afterRead(): Promise<void>;
  /** False only for a recipient certainly not wanted; `address` as the raw log has it (EVM: lower
   * case, 0x and 40 hex digits). */
  mayWant(address: string): boolean;
}

export interface ChainReader {
  /** The newest block (may still be reversed). */
  latestBlock(): Promise<ChainBlock>;
  /** The newest final block, which can no longer be reversed (Network.finality says when). */
  finalBlock(): Promise<ChainBlock>;
  /**
   * How many blocks below the head a reorganisation can still replace, for chains that give block
   * hashes (EVM; the stage's `finalityDepth`): the scanner reads blocks again until they are final,
   * no deeper than this. Absent (TRON): the scanner re-reads a fixed overlap (SCAN_OVERLAP_BLOCKS).
   */
  readonly finalityDepth?: number;
  /**
   * The block the node has now at a height, or null past its head. Chains that give transfers'
   * block hashes (EVM) have it: the scanner compares the hashes it recorded with the node's to
   * find what a reorganisation replaced.
   */
  blockAt?(number: number): Promise<ChainBlock | null>;
  /**
   * The newest block whose events the chain's event source has indexed, where the events come from
   * an index apart from the node that answers latestBlock (TRON: TronGrid's event database, which can
   * trail its nodes). The scanner reads no further: a block read before its events are indexed would
   * look empty, and once the cursor has passed it and the overlap's blocks, its payments would never
   * be seen. Absent (EVM, Solana, the sandbox chain): the node that answers the head answers the logs.
   * Null when the index answers nothing this can read: the scan reads to the head, and warns.
   */
  indexedThrough?(): Promise<Pick<ChainBlock, 'number' | 'timestamp'> | null>;
  /** Every Transfer event of `contract` in blocks `fromBlock`..`toBlock` inclusive, all pages;
   * `recipients` lets a chain leave out, before decoding them, those to addresses that are certainly
   * not wanted (a chain that cannot tell cheaply ignores it). */
  transfers(contract: string, fromBlock: number, toBlock: number, recipients?: RecipientFilter): Promise<TokenTransfer[]>;
  /**
   * The contracts whose Transfer events are USDT's, given the stage's: once the issuer deprecates it
   * for an upgraded contract, that one's too (../shared/networks.md, "Deprecation"). Absent: the
   * stage's alone.
   */
  usdtContracts?(contract: string): Promise<string[]>;
  /**
   * The receipt from the newest view, or null when that view does not know the transaction (not
   * yet, or forked out).
   */
  receipt(txHash: string): Promise<TransactionReceipt | null>;
  /**
   * The receipt as the final chain has it, or null when the transaction is in no final block.
   * Asked before deciding a transaction will never be mined: a network's provider may answer
   * receipt() and finalBlock() from different nodes, and the one behind receipt() can lag.
   */
  finalReceipt(txHash: string): Promise<TransactionReceipt | null>;
}

/** How far past a transaction's expiration the final chain must be before it is declared
 * expired: 20 TRON blocks, so no node answering for the provider can still be catching up to its block. */
export const EXPIRY_SETTLE_MARGIN_MS = 60_000;

/** EXPIRY_SETTLE_MARGIN_MS in a network's blocks (Network.blockMs, rounded up): how far a final
 * chain counted in blocks must be past a transaction before no view knowing it means it is gone. */
export const expirySettleMarginBlocks = (network: { blockMs: number }): number => Math.ceil(EXPIRY_SETTLE_MARGIN_MS / network.blockMs);

export interface SentTransactionOutcome {
  /** The newest view's receipt (in a block, perhaps not yet final), or null. */
  seen: TransactionReceipt | null;
  /** What it came to for good: its receipt once final, 'expired' once it can never be mined,
   * null while neither is known. */
  settled: TransactionReceipt | 'expired' | null;
}

/**
 * Where a transaction we signed and sent stands: settled by the final chain's receipt once the newest
 * view shows it at a final height. It is 'expired' only once the final chain is
 * EXPIRY_SETTLE_MARGIN_MS past its expiration and neither receipt() nor finalReceipt() knows it:
 * the node behind receipt() may lag the one that gave `final` (TronGrid serves them from
 * different machines, and the next request may reach another one), and treating a mined transfer
 * as never sent would send its money twice.
 */
export async function sentTransactionOutcome(
  chain: ChainReader,
  txHash: string,
  expiresAt: string | null,
  final: ChainBlock,
): Promise<SentTransactionOutcome> {
  const seen = await chain.receipt(txHash);
  // Settled by the final chain's own receipt, not the newest view's: a node on a fork the network
  // left can show the transaction in a block at a final height that the final chain does not hold
  // (a payout marked sent that never left). Asked once per transaction, when it first looks final;
  // the final node not holding it yet is asked again next run.
  if (seen) return { seen, settled: seen.blockNumber <= final.number ? readable(await chain.finalReceipt(txHash)) : null };
  if (expiresAt === null || Date.parse(final.timestamp) <= Date.parse(expiresAt) + EXPIRY_SETTLE_MARGIN_MS) return { seen, settled: null };
  const settled = await chain.finalReceipt(txHash);
  return { seen, settled: settled === null ? 'expired' : readable(settled) };
}

/**
 * The receipt, or null while it has a log with the Transfer topic that could not be read
 * (unreadableTransfers): Cambio's own transactions call USDT (or the forwarder factory, which calls
 * it) alone, so such a log is USDT's, garbled by the node. Settled from it, a payout would complete
 * having delivered nothing and a sweep book its whole amount as the issuer's fee; it is asked
 * again on a later run instead.
 */
export function readable(receipt: TransactionReceipt | null): TransactionReceipt | null {
  return receipt && (receipt.unreadableTransfers?.length ?? 0) > 0 ? null : receipt;
}

/** A transfer built by a network's TransferBuilder, before it is signed. */
export interface UnsignedTransfer {
  /** The transaction id, hex: what the hot wallet or a deposit key signs. */
  txId: string;
  expiresAt: string;
  /** The transaction as the chain's broadcast API takes it, without its signature. */
  transaction: Record<string, unknown>;
}

export interface TransferBuilder {
  /** A USDT `transfer(to, amount)` from `from`, with the stage's fee limit. */
  usdtTransfer(input: { from: string; to: string; amount: bigint }): Promise<UnsignedTransfer>;
  /** The transaction as broadcast and stored: the unsigned one with its 65-byte r‖s‖v signature. */
  signed(unsigned: UnsignedTransfer, signature: Uint8Array): Record<string, unknown>;
}

export interface Broadcaster {
  /** 'duplicate': the chain has this transaction already (a rebroadcast). */
  broadcast(signedTransaction: Record<string, unknown>): Promise<'accepted' | 'duplicate'>;
}

/**
 * A transfer of nothing from the hot wallet to itself that takes the place (the nonce) of a stored
 * transaction the node refused for good, so that the transactions behind it are not held up
 * (functions/networks/evm/nonce-sequence.ts). Stored on the withdrawal or sweep it fills for.
 */
export interface NonceFiller {
  /** The newest version, signed. */
  signed: string;
  txHash: string;
  /** The node's words when it refused the transaction. */
  refusal: string;
  /** When the node took its newest version (fillers stored before they were replaced have none). */
  broadcastAt?: string | null;
  /** Earlier versions, replaced at a higher fee: a filler under a fee spike would hold up every
   * nonce behind it as surely as the transaction it fills. */
  replacedTxHashes?: string[];
}
