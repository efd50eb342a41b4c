import { BaseError, encodeFunctionData, erc20Abi, ExecutionRevertedError, isAddressEqual, keccak256, parseAbiItem, parseTransaction, recoverTransactionAddress, toFunctionSelector, type Address, type Hex, type TransactionSerializableEIP1559, type TransactionSerializableLegacy, type TransactionSerialized } from 'viem';
import { estimateFeesPerGas, estimateGas, getBlock, getChainId, getTransactionCount } from 'viem/actions';
import type { Broadcaster } from '../chain.ts';
import type { EvmPayouts, Replacement, SignedPayout } from './withdrawal-sending.ts';
import type { EvmSweepPayouts } from './sweeps.ts';
import { lazyRpcClient, type EvmChainOptions } from './evm-chain.ts';
import { depositSalt } from './forwarder-address.ts';
import { toChecksumAddress } from './evm-address.ts';

/**
 * Signing and sending the hot wallet's payouts on an EVM network, over viem: a USDT transfer as an
 * EIP-1559 transaction (a legacy one with a gasPrice where the network's `feeMarket` says so) with
 * the network's chain id (EIP-155), once the node has answered it too, its gas estimated with a
 * margin, its fees from the node's estimate under the stage's cap. Every signed transaction is
 * checked before the sender stores it: it must recover to the hot wallet and name the chain and the
 * nonce asked.
 */

/** The hot wallet's key, behind a port: a local key in the local runtime, KMS in AWS
 * (functions/networks/evm/signer.ts). */
export interface EvmTransactionSigner {
  address(): Promise<Address>;
  /** The signed transaction, serialized (what eth_sendRawTransaction takes). */
  signTransaction(transaction: EvmUnsignedTransaction): Promise<Hex>;
}

export type EvmUnsignedTransaction = TransactionSerializableEIP1559 | TransactionSerializableLegacy;
export type FeeMarket = 'eip1559' | 'legacy';
/** What a transaction offers per gas: an EIP-1559 cap and tip, or a legacy gasPrice. */
type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint };

export interface EvmPayoutOptions {
  /** The network's chain id (EVM_NETWORKS chainId): what every transaction names, and what the node
   * must answer before anything is signed. */
  chainId: number;
  rpcUrl: EvmChainOptions['rpcUrl'];
  rpcTimeoutMs?: number;
  usdtContract: string;
  /** Where USDT lives now (EvmChain.currentUsdtContract): once Tether deprecates the stage's
   * contract, payouts and sweeps call the upgraded one (../shared/networks.md, "Deprecation"). */
  currentUsdtContract?: (contract: string) => Promise<string>;
  /** The deposit forwarders' factory, owned by the hot wallet, whose `sweep` empties them. */
  forwarderFactory: string;
  /** USDT's decimals on this chain: amounts come in 6 (../shared/networks.md). */
  tokenDecimals: number;
  /** The most a transaction may offer per gas, in wei: a fee spike never signs above it. */
  maxFeePerGas: bigint;
  feeMarket: FeeMarket;
  signer: EvmTransactionSigner;
  /** The network's chain, which sends the raw transaction and tells a rebroadcast from a refusal. */
  broadcaster: Broadcaster;
}

/** The factory's batch sweep, its one function a payout calls: parsed here rather than imported
 * from contracts.ts, whose bytecode the signing jobs' bundles do not need. */
const FACTORY_SWEEP = parseAbiItem('function sweep(address token, bytes32[] salts, address to) returns (uint256 total)');

/** Estimated gas plus a quarter: the state a transaction meets when mined may differ from the
 * estimate's (on Arbitrum, so may the L1 data cost, which its gas limit covers too), and unused gas
 * is not charged. */
const GAS_MARGIN_PERCENT = 125n;
/** What a transfer costs more when its recipient holds nothing by the time it is mined (a storage
 * slot set from zero, 22,100 gas, against 5,000 to change one): a payout signed while the recipient
 * held USDT, and mined after it moved it all out, would otherwise run out of gas and revert. */
const RECIPIENT_EMPTIED_GAS = 17_100n;
/** USDT's `transfer`: a stored transaction calling it is a payout, and RECIPIENT_EMPTIED_GAS applies
 * when it is signed again. */
const TRANSFER_SELECTOR = toFunctionSelector('transfer(address,uint256)');
/** A plain transfer of the gas token, the least any transaction costs: a gas limit under it is
 * refused everywhere. */
const PLAIN_TRANSFER_GAS = 21_000n;
/** Fee estimates are reused this long within a run: a burst of payouts asks once, not once each. */
const FEES_FRESH_MS = 10_000;
/** A replacement offers at least this much more, per mille, on every fee: geth (BSC's and Polygon's
 * nodes are its forks) refuses one under 10 % more as underpriced, and anvil any not above. */
const REPLACEMENT_BUMP_PER_MILLE = 125n;

/**
 * What a node answers to a transaction it will never take, whatever is done meanwhile: nothing
 * else can use its nonce until it is filled (functions/networks/evm/withdrawal-sending.ts). A refusal for want of gas
 * token is not one of these: every transaction of the wallet needs gas, a filler as much as any.
 */
const REFUSED_FOR_GOOD = /exceeds block gas limit|intrinsic gas too high|gas limit reached|invalid chain ?id|invalid sender|transaction type not supported|oversized data/i;
/**
 * What a node answers to a gas limit under what the transaction needs before it runs. Not a refusal
 * for good: on Arbitrum that need includes the L1 data cost, which moves with L1's price and L2's
 * base fee, so a payout signed on a fair estimate (or a filler with a plain transfer's 21,000) can
 * meet it later; signed again with more gas, it goes (signedWithMoreGas).
 */
const GAS_TOO_LOW = /intrinsic gas too low/i;

export class EvmPayoutNode implements EvmPayouts, EvmSweepPayouts {
  private readonly rpc: ReturnType<typeof lazyRpcClient>;
  private chainId: Promise<number> | undefined;
  private fees: { at: number; value: Promise<Market> } | undefined;

  constructor(private readonly options: EvmPayoutOptions) {
    this.rpc = lazyRpcClient(options.rpcUrl, options.rpcTimeoutMs);
  }

  /**
   * The stage's cap and the latest block's base fee when the cap is below it: no transaction the
   * wallet signs can be mined until the base fee falls, and a node refuses one offering less
   * ("max fee per gas less than block base fee"). Read from the run's fee estimate (FEES_FRESH_MS),
   * so asking costs no request of its own; `fresh`, the estimate is made again (two requests).
   * Null when the cap clears the base fee (or the chain has none).
   */
  async feeCapBelowBaseFee({ fresh = false } = {}): Promise<{ cap: bigint; baseFee: bigint } | null> {
    const { baseFeePerGas } = await this.market({ fresh });
    const cap = this.options.maxFeePerGas;
    return baseFeePerGas !== null && baseFeePerGas > cap ? { cap, baseFee: baseFeePerGas } : null;
  }

  wallet(): Promise<string> {
    return this.options.signer.address();
  }

  private usdt(): Promise<string> {
    return this.options.currentUsdtContract?.(this.options.usdtContract) ?? Promise.resolve(this.options.usdtContract);
  }

  async signedTransfer({ nonce, to, amount }: { nonce: number; to: string; amount: bigint }): Promise<SignedPayout | null> {
    // Checksummed: an address given all in capitals (accepted, as the EIP allows one case) is refused
    // by viem's encoder, which checks any address not all lower case against its checksum.
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [toChecksumAddress(to) as Address, amount * 10n ** BigInt(this.options.tokenDecimals - 6)] });
    return this.signedCall((await this.usdt()) as Address, data, nonce, RECIPIENT_EMPTIED_GAS);
  }

  /** The factory's batch sweep of these deposits' forwarders to the hot wallet (contracts/
   * DepositForwarderFactory.sol), signed with `nonce`; null when the node says it would revert. */
  async signedSweep({ nonce, depositIds }: { nonce: number; depositIds: string[] }): Promise<SignedPayout | null> {
    const data = encodeFunctionData({
      abi: [FACTORY_SWEEP],
      functionName: 'sweep',
      args: [(await this.usdt()) as Address, depositIds.map(depositSalt), await this.options.signer.address()],
    });
    return this.signedCall(this.options.forwarderFactory as Address, data, nonce, 0n);
  }

  /** A call from the hot wallet, its gas estimated (gasFor); null when the estimate reverts. */
  private async signedCall(to: Address, data: Hex, nonce: number, extraGas: bigint): Promise<SignedPayout | null> {
    const gas = await this.gasFor({ to, data }, extraGas);
    return gas === null ? null : this.signed({ to, data, nonce, gas });
  }

  /** The gas limit a call from the hot wallet is signed with: the node's estimate, `extraGas` added
   * (what the state at mining may cost beyond the estimate's), with a margin, never under a plain
   * transfer's; null when the estimate reverts. */
  private async gasFor(call: { to: Address; data?: Hex; value?: bigint }, extraGas: bigint): Promise<bigint | null> {
    let estimate: bigint;
    try {
      estimate = await estimateGas(await this.rpc(), { account: await this.options.signer.address(), ...call });
    } catch (error) {
      if (error instanceof BaseError && error.walk((cause) => cause instanceof ExecutionRevertedError)) return null;
      throw error;
    }
    return atLeast(((estimate + extraGas) * GAS_MARGIN_PERCENT) / 100n, PLAIN_TRANSFER_GAS);
  }

  /** A transfer of nothing to the hot wallet itself, its gas estimated as any call's: a plain
   * transfer's 21,000 on most chains, more on Arbitrum, whose gas limit covers the L1 data cost
   * too (a filler signed with 21,000 there is refused, and its nonce never filled). */
  async signedFiller(nonce: number): Promise<SignedPayout> {
    const wallet = (await this.options.signer.address()) as Address;
    const gas = await this.gasFor({ to: wallet, value: 0n }, 0n);
    if (gas === null) throw new Error('the node says a transfer of nothing from the hot wallet to itself would revert');
    return this.signed({ to: wallet, value: 0n, nonce, gas });
  }

  async broadcast(raw: string): Promise<'sent' | { refused: string } | { gasTooLow: string }> {
    try {
      await this.options.broadcaster.broadcast({ raw });
      return 'sent';
    } catch (error) {
      const message = error instanceof BaseError ? error.details || error.shortMessage : String(error);
      if (GAS_TOO_LOW.test(message)) return { gasTooLow: message };
      if (REFUSED_FOR_GOOD.test(message)) return { refused: message };
      throw error;
    }
  }

  /**
   * The stored transaction again, same nonce, call and fees, with more gas: the node's estimate now
   * (with its margin, as when signed) and a margin above the stored limit at least, so that each
   * refusal for too little gas raises it. What a node that answered "intrinsic gas too low" takes
   * (GAS_TOO_LOW): the version refused never entered its pool, so at the same fees this one is no
   * underpriced replacement. Null, nothing signed:
   * the call would now revert, the gas it needs is more than a block holds (it can never be mined),
   * or another key signed it (a hot wallet since rotated).
   */
  async signedWithMoreGas(raw: string): Promise<SignedPayout | null> {
    const wallet = await this.options.signer.address();
    if (!isAddressEqual(await recoverTransactionAddress({ serializedTransaction: raw as TransactionSerialized }), wallet)) return null;
    const stored = parseTransaction(raw as TransactionSerialized);
    const call = { to: stored.to!, data: stored.data, value: stored.value };
    const estimated = await this.gasFor(call, stored.data?.startsWith(TRANSFER_SELECTOR) ? RECIPIENT_EMPTIED_GAS : 0n);
    if (estimated === null) return null;
    const gas = atLeast(estimated, (stored.gas! * GAS_MARGIN_PERCENT) / 100n);
    const { blockGasLimit } = await this.market();
    if (blockGasLimit !== null && gas > blockGasLimit) return null;
    return this.signed({ ...call, nonce: stored.nonce!, gas }, feesOf(stored));
  }

  /**
   * The stored transaction again, same nonce, gas and payout, offering more: every fee at least
   * REPLACEMENT_BUMP_PER_MILLE above what it offered and at least the node's estimate now, none
   * above the cap. Null, nothing signed, for one the estimate still covers whose nonce is not the
   * wallet's next to be mined: it waits for an earlier one, not for a price (or has just been mined);
   * and for one another key signed (a hot wallet since rotated): this key's nonce is not its.
   */
  async signedReplacement(raw: string): Promise<Replacement> {
    const wallet = await this.options.signer.address();
    if (!isAddressEqual(await recoverTransactionAddress({ serializedTransaction: raw as TransactionSerialized }), wallet)) return null;
    const stored = parseTransaction(raw as TransactionSerialized);
    const request = { to: stored.to!, data: stored.data, value: stored.value, nonce: stored.nonce!, gas: stored.gas! };
    const offered = feesOf(stored);
    // The node's price now, not the run's: the payout is waiting because that moved.
    const { estimate, baseFeePerGas } = await this.market({ fresh: true });
    const cap = this.options.maxFeePerGas;
    // Under a base fee above the cap, no version can be mined: nothing is signed, the cap is reported.
    if (baseFeePerGas !== null && baseFeePerGas > cap) return { capReached: { offered: priceOf(offered)[0], needed: atLeast(bumped(priceOf(offered)[0]), baseFeePerGas), cap } };
    if (!below(offered, estimate)) {
      const mined = await getTransactionCount(await this.rpc(), { address: wallet, blockTag: 'latest' });
      if (mined !== request.nonce) return null;
    }
    const [offeredMax, offeredTip] = priceOf(offered);
    const [neededMax, neededTip] = [bumped(offeredMax), bumped(offeredTip)];
    if (neededMax > cap) return { capReached: { offered: offeredMax, needed: neededMax, cap } };
    const fees: Fees =
      'gasPrice' in estimate
        ? { gasPrice: atMost(atLeast(neededMax, estimate.gasPrice), cap) }
        : (() => {
            const maxFeePerGas = atMost(atLeast(neededMax, estimate.maxFeePerGas), cap);
            return { maxFeePerGas, maxPriorityFeePerGas: atMost(atLeast(neededTip, estimate.maxPriorityFeePerGas), maxFeePerGas) };
          })();
    return this.signed(request, fees);
  }

  private async signed(request: Pick<TransactionSerializableEIP1559, 'to' | 'data' | 'value' | 'nonce' | 'gas'>, fees?: Fees): Promise<SignedPayout> {
    const chainId = await this.nodeChainId();
    const priced = fees ?? (await this.cappedFees());
    const transaction: EvmUnsignedTransaction = 'gasPrice' in priced ? { type: 'legacy', chainId, ...request, ...priced } : { type: 'eip1559', chainId, ...request, ...priced };
    const raw = await this.options.signer.signTransaction(transaction);
    // A signer that answered for another key or chain would have its payouts refused, or worse,
    // replayed elsewhere: nothing unchecked is stored as sent.
    const parsed = parseTransaction(raw);
    const signer = await recoverTransactionAddress({ serializedTransaction: raw as TransactionSerialized });
    if (parsed.chainId !== chainId || parsed.nonce !== request.nonce || parsed.type !== transaction.type || !isAddressEqual(signer, await this.options.signer.address())) {
      throw new Error(`The signer's transaction does not check out: chain ${parsed.chainId} (node ${chainId}), nonce ${parsed.nonce} (${request.nonce}), type ${parsed.type} (${transaction.type}), signed by ${signer}`);
    }
    return { raw, txHash: keccak256(raw) };
  }

  /**
   * The network's chain id once the node has answered the same, asked once in the process's life.
   * A node of another chain (a URL that names the wrong network) would be sent transactions it
   * refuses, or, where the hot wallet holds coin on that chain too, mines: nothing is signed for
   * it. A failed or wrong answer is not kept: the next signing asks again (a cached rejection would
   * refuse every payout of a warm container after one node error).
   */
  private nodeChainId(): Promise<number> {
    if (!this.chainId) {
      const expected = this.options.chainId;
      const asked = this.rpc().then(async (client) => {
        const answered = await getChainId(client);
        if (answered !== expected) throw new Error(`The node answers chain id ${answered}, not the network's ${expected}: nothing is signed for it`);
        return answered;
      });
      asked.catch(() => {
        if (this.chainId === asked) this.chainId = undefined;
      });
      this.chainId = asked;
    }
    return this.chainId;
  }

  /** The node's estimate, held under the stage's maximum. */
  private async cappedFees(): Promise<Fees> {
    const { estimate } = await this.market();
    const cap = this.options.maxFeePerGas;
    if ('gasPrice' in estimate) return { gasPrice: atMost(estimate.gasPrice, cap) };
    const maxFeePerGas = atMost(estimate.maxFeePerGas, cap);
    return { maxFeePerGas, maxPriorityFeePerGas: atMost(estimate.maxPriorityFeePerGas, maxFeePerGas) };
  }

  /** What the node says a transaction should offer now (viem: the base fee's and gasPrice with a
   * margin for the blocks to come), in the network's fee market, and the latest block's base fee
   * (null on a chain without one) and gas limit: viem reads that block for its estimate anyway, so
   * it is read here and handed over, no request more. */
  private market({ fresh = false } = {}): Promise<Market> {
    if (fresh || !this.fees || Date.now() - this.fees.at > FEES_FRESH_MS) {
      const type = this.options.feeMarket;
      const value = this.rpc().then(async (client): Promise<Market> => {
        // `block`: viem's estimate takes the block it stands on (not in its public type), else reads it.
        const block = await getBlock(client, { blockTag: 'latest' });
        const baseFeePerGas = block.baseFeePerGas ?? null;
        const blockGasLimit = block.gasLimit ?? null;
        if (type === 'legacy') return { estimate: { gasPrice: (await estimateFeesPerGas(client, { chain: null, type: 'legacy', block } as { chain: null; type: 'legacy' })).gasPrice }, baseFeePerGas, blockGasLimit };
        const { maxFeePerGas, maxPriorityFeePerGas } = await estimateFeesPerGas(client, { chain: null, type: 'eip1559', block } as { chain: null; type: 'eip1559' });
        return { estimate: { maxFeePerGas, maxPriorityFeePerGas }, baseFeePerGas, blockGasLimit };
      });
      value.catch(() => (this.fees = undefined));
      this.fees = { at: Date.now(), value };
    }
    return this.fees.value;
  }
}

/** The node's fee estimate, the base fee it stands on, and the most gas that block holds. */
type Market = { estimate: Fees; baseFeePerGas: bigint | null; blockGasLimit: bigint | null };

const atMost = (wei: bigint, limit: bigint) => (wei < limit ? wei : limit);
const atLeast = (wei: bigint, floor: bigint) => (wei > floor ? wei : floor);
/** Up by REPLACEMENT_BUMP_PER_MILLE, rounded up, and by one wei at least (a tip of 0 included). */
const bumped = (wei: bigint) => atLeast(wei + (wei * REPLACEMENT_BUMP_PER_MILLE + 999n) / 1000n, wei + 1n);

function feesOf(transaction: ReturnType<typeof parseTransaction>): Fees {
  if (transaction.type === 'legacy' || transaction.type === 'eip2930') return { gasPrice: transaction.gasPrice! };
  return { maxFeePerGas: transaction.maxFeePerGas!, maxPriorityFeePerGas: transaction.maxPriorityFeePerGas! };
}

/** The most a transaction pays per gas and the most of it that goes to the validator: a legacy
 * gasPrice is both. */
const priceOf = (fees: Fees): [bigint, bigint] => ('gasPrice' in fees ? [fees.gasPrice, fees.gasPrice] : [fees.maxFeePerGas, fees.maxPriorityFeePerGas]);

/** Whether `offered` is under what the node asks now: its cap (or price) or its tip lower. */
function below(offered: Fees, asked: Fees): boolean {
  const [[max, tip], [askedMax, askedTip]] = [priceOf(offered), priceOf(asked)];
  return max < askedMax || tip < askedTip;
}
