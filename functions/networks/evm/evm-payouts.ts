import {
  BaseError,
  encodeFunctionData,
  erc20Abi,
  ExecutionRevertedError,
  isAddressEqual,
  keccak256,
  parseTransaction,
  recoverTransactionAddress,
  type Address,
  type Hex,
  type TransactionSerializableEIP1559,
  type TransactionSerialized,
} from 'viem';
import { estimateFeesPerGas, estimateGas, getChainId, getTransactionCount } from 'viem/actions';
import type { Broadcaster } from '../chain.ts';
import type { EvmPayouts, SignedPayout } from '#functions/withdrawals/evm-withdrawal-sending';
import { lazyRpcClient, type EvmChainOptions } from './evm-chain.ts';

/**
 * Signing and sending the hot wallet's payouts on an EVM network, over viem: a USDT transfer as an
 * EIP-1559 transaction with the node's chain id (EIP-155), its gas estimated with a margin, its fees
 * from the node's estimate under the stage's cap. Every signed transaction is checked before the
 * sender stores it: it must recover to the hot wallet and name the node's chain and the nonce asked.
 */

/** The hot wallet's key, behind a port: a local key in the local runtime, KMS in AWS
 * (functions/adapters/signer/evm-signer.ts). */
export interface EvmTransactionSigner {
  address(): Promise<Address>;
  /** The signed transaction, serialized (what eth_sendRawTransaction takes). */
  signTransaction(transaction: TransactionSerializableEIP1559): Promise<Hex>;
}

export interface EvmPayoutOptions {
  rpcUrl: EvmChainOptions['rpcUrl'];
  usdtContract: string;
  /** USDT's decimals on this chain: amounts come in 6 (../shared/networks.md). */
  tokenDecimals: number;
  /** The most a transaction may offer per gas, in wei: a fee spike never signs above it. */
  maxFeePerGas: bigint;
  signer: EvmTransactionSigner;
  /** The network's chain, which sends the raw transaction and tells a rebroadcast from a refusal. */
  broadcaster: Broadcaster;
}

/** Estimated gas plus a quarter: the state a transaction meets when mined may differ from the
 * estimate's, and unused gas is not charged. */
const GAS_MARGIN_PERCENT = 125n;
/** What a transfer costs more when its recipient holds nothing by the time it is mined (a storage
 * slot set from zero, 22,100 gas, against 5,000 to change one): a payout signed while the recipient
 * held USDT, and mined after it moved it all out, would otherwise run out of gas and revert. */
const RECIPIENT_EMPTIED_GAS = 17_100n;
/** A plain transfer of the gas token: what a nonce filler costs. */
const FILLER_GAS = 21_000n;
/** Fee estimates are reused this long within a run: a burst of payouts asks once, not once each. */
const FEES_FRESH_MS = 10_000;

/**
 * What a node answers to a transaction it will never take, whatever is done meanwhile: nothing
 * else can use its nonce until it is filled (evm-withdrawal-sending.ts). A refusal for want of gas
 * token is not one of these: every transaction of the wallet needs gas, a filler as much as any.
 */
const REFUSED_FOR_GOOD = /exceeds block gas limit|intrinsic gas too (low|high)|gas limit reached|invalid chain ?id|invalid sender|transaction type not supported|oversized data/i;

export class EvmPayoutNode implements EvmPayouts {
  private readonly rpc: ReturnType<typeof lazyRpcClient>;
  private chainId: Promise<number> | undefined;
  private fees: { at: number; value: Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> } | undefined;

  constructor(private readonly options: EvmPayoutOptions) {
    this.rpc = lazyRpcClient(options.rpcUrl);
  }

  wallet(): Promise<string> {
    return this.options.signer.address();
  }

  async pendingNonce(wallet: string): Promise<number> {
    return getTransactionCount(await this.rpc(), { address: wallet as Address, blockTag: 'pending' });
  }

  async signedTransfer({ nonce, to, amount }: { nonce: number; to: string; amount: bigint }): Promise<SignedPayout | null> {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to as Address, amount * 10n ** BigInt(this.options.tokenDecimals - 6)] });
    const from = await this.options.signer.address();
    let gas: bigint;
    try {
      gas = await estimateGas(await this.rpc(), { account: from, to: this.options.usdtContract as Address, data });
    } catch (error) {
      if (error instanceof BaseError && error.walk((cause) => cause instanceof ExecutionRevertedError)) return null;
      throw error;
    }
    return this.signed({ to: this.options.usdtContract as Address, data, nonce, gas: ((gas + RECIPIENT_EMPTIED_GAS) * GAS_MARGIN_PERCENT) / 100n });
  }

  async signedFiller(nonce: number): Promise<SignedPayout> {
    return this.signed({ to: await this.options.signer.address(), value: 0n, nonce, gas: FILLER_GAS });
  }

  async broadcast(raw: string): Promise<'sent' | { refused: string }> {
    try {
      await this.options.broadcaster.broadcast({ raw });
      return 'sent';
    } catch (error) {
      const message = error instanceof BaseError ? error.details || error.shortMessage : String(error);
      if (REFUSED_FOR_GOOD.test(message)) return { refused: message };
      throw error;
    }
  }

  private async signed(request: Pick<TransactionSerializableEIP1559, 'to' | 'data' | 'value' | 'nonce' | 'gas'>): Promise<SignedPayout> {
    const client = await this.rpc();
    const chainId = await (this.chainId ??= getChainId(client));
    const transaction: TransactionSerializableEIP1559 = { type: 'eip1559', chainId, ...request, ...(await this.cappedFees()) };
    const raw = await this.options.signer.signTransaction(transaction);
    // A signer that answered for another key or chain would have its payouts refused, or worse,
    // replayed elsewhere: nothing unchecked is stored as sent.
    const parsed = parseTransaction(raw);
    const signer = await recoverTransactionAddress({ serializedTransaction: raw as TransactionSerialized });
    if (parsed.chainId !== chainId || parsed.nonce !== request.nonce || !isAddressEqual(signer, await this.options.signer.address())) {
      throw new Error(`The signer's transaction does not check out: chain ${parsed.chainId} (node ${chainId}), nonce ${parsed.nonce} (${request.nonce}), signed by ${signer}`);
    }
    return { raw, txHash: keccak256(raw) };
  }

  /** The node's EIP-1559 estimate, the fee cap held to the stage's maximum. Replacing a transaction
   * stuck under a fee spike (same nonce, higher fee) is not built: it would start here. */
  private cappedFees(): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
    if (!this.fees || Date.now() - this.fees.at > FEES_FRESH_MS) {
      const value = this.rpc().then(async (client) => {
        const estimate = await estimateFeesPerGas(client, { chain: null, type: 'eip1559' });
        const maxFeePerGas = estimate.maxFeePerGas < this.options.maxFeePerGas ? estimate.maxFeePerGas : this.options.maxFeePerGas;
        return { maxFeePerGas, maxPriorityFeePerGas: estimate.maxPriorityFeePerGas < maxFeePerGas ? estimate.maxPriorityFeePerGas : maxFeePerGas };
      });
      value.catch(() => (this.fees = undefined));
      this.fees = { at: Date.now(), value };
    }
    return this.fees.value;
  }
}
