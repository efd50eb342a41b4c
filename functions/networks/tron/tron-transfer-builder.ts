import { randomInt } from 'node:crypto';
import { TronWeb } from 'tronweb';
import type { ChainReader, UnsignedTransfer } from '#functions/networks/chain';
import type { SweepBuilder } from './sweeps.ts';
import type { SliceSettings } from '#functions/settings/functions';

/**
 * Builds TRC-20 `transfer(address,uint256)` transactions offline with tronweb (only the sending
 * job bundles tronweb; ../shared/tron-notes.md, Size): the reference block comes from our own
 * chain reader, so no node is called and the transaction id is known before anything is sent.
 */
export interface TronTransferBuilderOptions {
  usdtContract: string;
  /** Hard cap in sun on the TRX the call may burn; too low ends in OUT_OF_ENERGY. */
  feeLimitSun: number;
}

/**
 * Longer than tronweb's 60 s default, so a broadcast lost to a crashed sender can still be retried
 * by the next poll (one minute apart in AWS), yet short enough that an unmined transaction is
 * declared failed, and its funds returned, within minutes.
 */
export const TRANSACTION_LIFETIME_MS = 5 * 60_000;

/**
 * The last timestamp this process gave a transaction. A transaction's id is the hash of its raw
 * data, so two equal payouts (same sender, recipient and amount) built against one reference block
 * would be one transaction: each gets a timestamp of its own, strictly increasing in this process
 * and spread by a random offset across processes. Uniqueness is then enforced by the claim on the
 * id (functions/withdrawals/payouts.ts), which makes a colliding payout sign afresh.
 */
let lastTimestamp = 0;

function uniqueTimestamp(blockTime: number): number {
  lastTimestamp = Math.max(blockTime + randomInt(1000), lastTimestamp + 1);
  return lastTimestamp;
}

// txLocal with a blockHeader never calls the node; the host is required by the constructor only.
const offline = new TronWeb({ fullHost: 'http://127.0.0.1:9' });

export class TronTransferBuilder implements SweepBuilder {
  constructor(
    private readonly chain: ChainReader,
    private readonly options: TronTransferBuilderOptions,
  ) {}

  async usdtTransfer({ from, to, amount }: { from: string; to: string; amount: bigint }): Promise<UnsignedTransfer> {
    const blockHeader = await this.blockHeader();
    const { transaction } = await offline.transactionBuilder.triggerSmartContract(
      this.options.usdtContract,
      'transfer(address,uint256)',
      { feeLimit: this.options.feeLimitSun, txLocal: true, blockHeader } as never,
      [
        { type: 'address', value: to },
        { type: 'uint256', value: amount.toString() },
      ],
      from,
    );
    return {
      txId: transaction.txID,
      expiresAt: new Date(transaction.raw_data.expiration).toISOString(),
      transaction: transaction as unknown as Record<string, unknown>,
    };
  }

  /** A TRX transfer of `amount` sun: the sweeper's fee top-up of a deposit address, and what is left of it going back. */
  async feeTransfer({ from, to, amount }: { from: string; to: string; amount: bigint }): Promise<UnsignedTransfer> {
    const blockHeader = await this.blockHeader();
    const transaction = await offline.transactionBuilder.sendTrx(to, Number(amount), from, { blockHeader } as never);
    return {
      txId: transaction.txID,
      expiresAt: new Date(transaction.raw_data.expiration).toISOString(),
      transaction: transaction as unknown as Record<string, unknown>,
    };
  }

  /** java-tron takes the signature beside the raw data, as hex in a list (one per signer). */
  signed(unsigned: UnsignedTransfer, signature: Uint8Array): Record<string, unknown> {
    return { ...unsigned.transaction, signature: [Buffer.from(signature).toString('hex')] };
  }

  /** The reference block pins the transaction to our view of the chain (../shared/tron-notes.md, Sending). */
  private async blockHeader() {
    const block = await this.chain.latestBlock();
    const blockTime = Date.parse(block.timestamp);
    return {
      ref_block_bytes: (block.number & 0xffff).toString(16).padStart(4, '0'),
      ref_block_hash: block.hash.slice(16, 32),
      expiration: blockTime + TRANSACTION_LIFETIME_MS,
      timestamp: uniqueTimestamp(blockTime),
    };
  }
}

/** The one way the signing jobs (withdrawal sender, sweeper) build their transfers: the stage's
 * USDT contract and fee cap, from their settings. */
export function transferBuilderFrom(chain: ChainReader, settings: SliceSettings<'chain' | 'transfers'>): TronTransferBuilder {
  return new TronTransferBuilder(chain, { usdtContract: settings.USDT_CONTRACT, feeLimitSun: settings.WITHDRAWAL_FEE_LIMIT_SUN });
}

