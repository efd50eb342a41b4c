import { BaseError, ContractFunctionRevertedError, createClient, ExecutionRevertedError, HttpRequestError, RpcRequestError, decodeEventLog, encodeEventTopics, erc20Abi, formatLog, getAddress, isHex, numberToHex, parseAbiItem, slice, type Address, type Client, type Hash, type Hex, type RpcLog } from 'viem';
// Actions one by one rather than a public client's hundred: the poller's bundle carries these alone.
import { getBalance, getBlock, getBlockNumber, getTransactionCount, getTransactionReceipt, readContract, sendRawTransaction } from 'viem/actions';
import { withOtherPayers, type ChainBlock, type RecipientFilter, type TokenTransfer, type TransactionReceipt } from '../chain.ts';
import type { Chain } from '../network.ts';
import { Deprecations } from '../deprecations.ts';
import type { TokenControlsKind } from './settings.ts';
import { inCoin } from '../../shared/money.ts';
import { failoverTransport, type RpcEndpoints } from './rpc-transport.ts';

/**
 * An EVM network's chain as the network port reads it, over JSON-RPC through viem. Addresses come
 * back EIP-55 checksummed (the form deposits are stored in); transfers' amounts in USDT's 6
 * decimals, balances in the token's base units (functions/networks/chain.ts).
 */

const TRANSFER_EVENT = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const [TRANSFER_TOPIC] = encodeEventTopics({ abi: [TRANSFER_EVENT], eventName: 'Transfer' });
/** A log's data that is one 32-byte word: a Transfer event's amount. */
const ONE_WORD = /^0x[0-9a-fA-F]{64}$/;

/** The forwarder factory's read of many native balances at once (contracts/DepositForwarderFactory.sol). */
const FACTORY_NATIVE_BALANCES = parseAbiItem('function nativeBalances(address[] accounts) view returns (uint256[] balances)');
/** ~2,700 gas an address: 500 stay far under any provider's eth_call gas cap. */
const NATIVE_BALANCES_PER_CALL = 500;

/** USDT's decimals outside, whatever the token's on chain. */
const USDT_DECIMALS = 6;

export interface EvmChainOptions {
  /** The JSON-RPC URL or URLs (tried in order, a failing one left for the next), or how to get them
   * (a provider URL with its key lives in Secrets Manager). */
  rpcUrl: RpcEndpoints;
  /** How long one node may take to answer before the next is asked; absent, DEFAULT_RPC_TIMEOUT_MS. */
  rpcTimeoutMs?: number;
  /** Ask the node for its `finalized` block; otherwise a block `confirmations` deep is final. */
  finalizedTag: boolean;
  confirmations: number;
  /** The deepest reorganisation the scanner reads again for (settings.ts `finalityDepth`); absent,
   * `confirmations`. */
  finalityDepth?: number;
  /** The widest range asked of eth_getLogs at once; a refused range is split in halves. */
  maxBlockRange: number;
  /** The token's decimals on chain: transfers are reported in USDT's 6 (../shared/networks.md). */
  tokenDecimals: number;
  /** The issuer controls the token has (settings.ts TOKEN_CONTROLS): what frozenAmong and
   * tokenPaused read, or that there is nothing to read. */
  tokenControls: TokenControlsKind;
  /** The network's own coin (Network.feeAsset): a receipt then says what its transaction cost in it. */
  feeAsset?: { symbol: string; decimals: number };
}

/** TetherToken's reads of its controls (../shared/networks.md, "The token as it is on mainnet"). */
const TETHER_CONTROLS_ABI = [
  parseAbiItem('function isBlackListed(address) view returns (bool)'),
  parseAbiItem('function paused() view returns (bool)'),
  parseAbiItem('function deprecated() view returns (bool)'),
  parseAbiItem('function upgradedAddress() view returns (address)'),
] as const;

/** Tether's newer TetherToken's one control (settings.ts `blocked-list`: Arbitrum's USD₮0). */
const BLOCKED_LIST_ABI = [parseAbiItem('function isBlocked(address) view returns (bool)')] as const;

/** A call the contract reverted (it has no such function, or refused): not a node's fault. Geth-based
 * nodes (Arbitrum's Nitro among them) say it of a call to a missing function as -32000 "execution
 * reverted" with no data, which viem reads as ExecutionRevertedError, not ContractFunctionRevertedError. */
const reverted = (error: unknown): boolean =>
  error instanceof BaseError && error.walk((cause) => cause instanceof ContractFunctionRevertedError || cause instanceof ExecutionRevertedError) !== null;

/** A node that refuses a range says so in many words: too many results, range too large, limit
 * exceeded, response size, timeout. Any of them means "ask for less". */
const RANGE_REFUSED = /range|too many|limit|exceed|size|timeout|10000 results/i;
/** A provider's rate limit reads like a range refusal ("Too Many Requests", "rate limit exceeded")
 * but asks for patience, not for less: narrowing the range for it would multiply the requests for
 * the rest of the process, and draw more of them. */
const RATE_LIMITED = /too many requests|rate limit|rate exceeded|\b429\b/i;
const refusesRange = (error: unknown): boolean => {
  const text = String((error as Error).message);
  // The HTTP status wherever viem's error chain holds it, as rpc-transport.ts nodeFault reads it.
  const http = error instanceof BaseError ? (error.walk((cause) => cause instanceof HttpRequestError || cause instanceof RpcRequestError) as HttpRequestError | RpcRequestError | null) : null;
  const status = http?.status;
  return RANGE_REFUSED.test(text) && !RATE_LIMITED.test(text) && status !== 429;
};

/** The node answered a page of logs without having the page's last block. */
class NodeBehindError extends Error {
  constructor(block: number) {
    super(`The node has no block ${block} though it answered logs up to it: a backend behind the tip; the range is read again next run`);
    this.name = 'NodeBehindError';
  }
}

/** A JSON-RPC client over the network's nodes (./rpc-transport.ts: a failing one is left for the
 * next), made on first use (the URLs may need a Secrets Manager read), made again after a failed
 * attempt. */
export function lazyRpcClient(rpcUrl: EvmChainOptions['rpcUrl'], timeoutMs?: number): () => Promise<Client> {
  let client: Promise<Client> | undefined;
  return () => {
    client ??= (async () => {
      const urls = typeof rpcUrl === 'function' ? await rpcUrl() : rpcUrl;
      return createClient({ transport: failoverTransport(urls, { timeoutMs }) });
    })().catch((error) => {
      client = undefined;
      throw error;
    });
    return client;
  };
}

export class EvmChain implements Chain {
  /** The widest range the node last answered: once it refused a wider one, later reads start
   * there rather than being refused again (each refusal also costs viem's retries). */
  private logsWidth: number;

  constructor(private readonly options: EvmChainOptions) {
    this.logsWidth = options.maxBlockRange;
    this.rpc = lazyRpcClient(options.rpcUrl, options.rpcTimeoutMs);
  }

  private readonly rpc: () => Promise<Client>;

  /** Blocks below the head a reorganisation can still replace: as set, and without the `finalized`
   * tag never fewer than `confirmations`, the depth at which a block counts as final here. */
  get finalityDepth(): number {
    const { finalityDepth = this.options.confirmations, finalizedTag, confirmations } = this.options;
    return finalizedTag ? finalityDepth : Math.max(finalityDepth, confirmations);
  }

  async latestBlock(): Promise<ChainBlock> {
    return blockOf(await getBlock(await this.rpc(), { blockTag: 'latest' }));
  }

  async blockAt(number: number): Promise<ChainBlock | null> {
    try {
      return blockOf(await getBlock(await this.rpc(), { blockNumber: BigInt(number) }));
    } catch (error) {
      if ((error as Error).name === 'BlockNotFoundError') return null;
      throw error;
    }
  }

  async transactionCountAt(wallet: string, blockNumber: number): Promise<number> {
    return getTransactionCount(await this.rpc(), { address: wallet as Address, blockNumber: BigInt(blockNumber) });
  }

  /** The hash of the wallet's transaction with `nonce` in the block at `blockNumber` (the block read
   * with its transactions); null when the node shows none there or has no such block. */
  async walletTransactionIn(wallet: string, nonce: number, blockNumber: number): Promise<string | null> {
    try {
      const block = await getBlock(await this.rpc(), { blockNumber: BigInt(blockNumber), includeTransactions: true });
      return block.transactions.find((transaction) => transaction.from.toLowerCase() === wallet.toLowerCase() && transaction.nonce === nonce)?.hash ?? null;
    } catch (error) {
      if ((error as Error).name === 'BlockNotFoundError') return null;
      throw error;
    }
  }

  async finalBlock(): Promise<ChainBlock> {
    const client = await this.rpc();
    if (this.options.finalizedTag) return blockOf(await getBlock(client, { blockTag: 'finalized' }));
    const latest = await getBlockNumber(client, { cacheTime: 0 });
    const final = latest - BigInt(this.options.confirmations) + 1n;
    return blockOf(await getBlock(client, { blockNumber: final < 0n ? 0n : final }));
  }

  /**
   * Every Transfer log of `contract` in the range, in chain order. A log's `eventIndex` is its place
   * among the token's Transfer logs of its transaction, not the block-wide logIndex: a transaction
   * re-mined in another block after a reorganisation keeps it, so it is recorded once.
   *
   * With `recipients`, a log whose recipient (its third topic, read raw) is certainly not wanted is
   * left out before viem decodes it: decoding checksums both addresses, a keccak each, and most of
   * a block's USDT transfers are between strangers.
   */
  async transfers(contract: string, fromBlock: number, toBlock: number, recipients?: RecipientFilter): Promise<TokenTransfer[]> {
    if (toBlock < fromBlock) return [];
    const logs = await this.logsIn(contract as Address, fromBlock, toBlock, this.logsWidth);
    await recipients?.afterRead();
    const perTransaction = new Map<string, number>();
    const unit = 10n ** BigInt(this.options.tokenDecimals - USDT_DECIMALS);
    const transfers: TokenTransfer[] = [];
    for (const log of logs) {
      // Counted before the filter: a transfer's index must not depend on which others are wanted.
      const eventIndex = perTransaction.get(log.transactionHash!) ?? 0;
      perTransaction.set(log.transactionHash!, eventIndex + 1);
      // This event has three topics; a log of the same signature without them (another token
      // standard's) is not a USDT transfer, as viem's strict decoding of the whole range would also say.
      if (log.topics.length !== 3) continue;
      if (recipients && !recipients.mayWant(slice(log.topics[2]!, 12).toLowerCase())) continue;
      const { args } = decodeEventLog({ abi: [TRANSFER_EVENT], data: log.data, topics: log.topics, strict: true });
      const { blockNumber, blockHash } = formatLog(log);
      transfers.push({
        txHash: log.transactionHash!,
        eventIndex,
        blockNumber: Number(blockNumber),
        blockHash: blockHash!,
        contract,
        from: args.from,
        to: args.to,
        amount: args.value / unit,
        ...(args.value % unit > 0n && { dust: args.value % unit }),
      });
    }
    // Each wanted transfer's transaction's other senders, from the logs already read (the sender
    // topic read raw, checksummed as viem decodes `from`): only the few transactions that pay a
    // deposit address are looked at again.
    const wanted = new Set(transfers.map((transfer) => transfer.txHash));
    const senders = function* () {
      for (const log of logs) if (log.topics.length === 3 && wanted.has(log.transactionHash!)) yield { txHash: log.transactionHash!, from: getAddress(slice(log.topics[1]!, 12)) };
    };
    return withOtherPayers(transfers, senders());
  }

  /** The contract's Transfer logs as the node sends them (eth_getLogs through viem's transport),
   * the range split as the node requires. */
  private async logsIn(contract: Address, fromBlock: number, toBlock: number, width: number): Promise<RpcLog[]> {
    const client = await this.rpc();
    const logs: RpcLog[] = [];
    for (let start = fromBlock; start <= toBlock; start += width) {
      const end = Math.min(toBlock, start + width - 1);
      // The page's last block asked with its logs, in the same batch (one HTTP request, so one
      // backend): some nodes (reth) answer eth_getLogs only up to their own head, silently, and a
      // backend behind the one that gave the scan its tip would leave the blocks past its head
      // out, never read again once the scan moved on. No such block: the run fails, reads again.
      const ask = async (options?: { retryCount: number }) => {
        const [page, last] = await Promise.all([
          client.request({ method: 'eth_getLogs', params: [{ address: contract, topics: [TRANSFER_TOPIC], fromBlock: numberToHex(start), toBlock: numberToHex(end) }] }, options),
          client.request({ method: 'eth_getBlockByNumber', params: [numberToHex(end), false] }, options),
        ]);
        if (last === null) throw new NodeBehindError(end);
        return page;
      };
      let page: RpcLog[];
      try {
        // Once, without viem's retries: viem takes Infura's -32005 for a passing error and asks the
        // same range twice more, 150 and 300 ms later, before a refused range can be split.
        page = await ask({ retryCount: 0 });
      } catch (error) {
        if (end > start && !(error instanceof NodeBehindError) && refusesRange(error)) {
          const half = Math.ceil((end - start + 1) / 2);
          this.logsWidth = Math.min(this.logsWidth, half);
          logs.push(...(await this.logsIn(contract, start, end, half)));
          continue;
        }
        // Anything else (a 503, a dropped connection) is asked again with the transport's retries.
        page = await ask();
      }
      for (const log of page) if (!log.removed) logs.push(log);
    }
    return logs;
  }

  async receipt(txHash: string): Promise<TransactionReceipt | null> {
    if (!isHex(txHash)) return null;
    try {
      const receipt = await getTransactionReceipt(await this.rpc(), { hash: txHash as Hash });
      const unit = 10n ** BigInt(this.options.tokenDecimals - USDT_DECIMALS);
      // Its Transfer events (a payout's delivery and an issuer's fee, a sweep's forwarders), in 6
      // decimals, each with its place among its contract's Transfer events as transfers() counts it.
      const perContract = new Map<string, number>();
      // A log with the Transfer topic that is not one (its amount not one word: any contract can
      // emit one beside a real USDT transfer) is listed by its emitter, not thrown (chain.ts).
      const unreadableTransfers: string[] = [];
      const tokenTransfers = receipt.logs.flatMap((log) => {
        if (log.topics[0] !== TRANSFER_TOPIC) return [];
        const eventIndex = perContract.get(log.address.toLowerCase()) ?? 0;
        perContract.set(log.address.toLowerCase(), eventIndex + 1);
        if (log.topics.length !== 3) return [];
        if (!ONE_WORD.test(log.data)) {
          unreadableTransfers.push(log.address);
          return [];
        }
        const { args } = decodeEventLog({ abi: [TRANSFER_EVENT], topics: log.topics, data: log.data });
        return [{ contract: log.address, from: args.from, to: args.to, amount: args.value / unit, eventIndex }];
      });
      // What the sender paid: gas used at its effective price (on Arbitrum gasUsed carries the L1 part too).
      // (viem gives a receipt without effectiveGasPrice, from a node that leaves it out, as null.)
      const { feeAsset } = this.options;
      const feePayerCost = feeAsset && typeof receipt.effectiveGasPrice === 'bigint' ? inCoin(feeAsset, receipt.gasUsed * receipt.effectiveGasPrice) : undefined;
      return {
        txHash,
        blockNumber: Number(receipt.blockNumber),
        blockHash: receipt.blockHash,
        result: receipt.status === 'success' ? 'SUCCESS' : 'REVERTED',
        tokenTransfers,
        ...(unreadableTransfers.length && { unreadableTransfers }),
        ...(feePayerCost && { feePayerCost }),
      };
    } catch (error) {
      if ((error as Error).name === 'TransactionReceiptNotFoundError') return null;
      throw error;
    }
  }

  /** The receipt if its block is final: an EVM node answers receipts from its canonical chain. */
  async finalReceipt(txHash: string): Promise<TransactionReceipt | null> {
    const [receipt, final] = await Promise.all([this.receipt(txHash), this.finalBlock()]);
    return receipt && receipt.blockNumber <= final.number ? receipt : null;
  }

  async broadcast(signedTransaction: Record<string, unknown>): Promise<'accepted' | 'duplicate'> {
    try {
      await sendRawTransaction(await this.rpc(), { serializedTransaction: signedTransaction.raw as Hex });
      return 'accepted';
    } catch (error) {
      if (/already known|already imported|known transaction|nonce too low/i.test(String((error as Error).message))) return 'duplicate';
      throw error;
    }
  }

  /** `address`'s balance of the token `contract` at the latest block, or at block `atBlock`. */
  async tokenBalance(contract: string, address: string, atBlock?: number): Promise<bigint> {
    return readContract(await this.rpc(), { address: contract as Address, abi: erc20Abi, functionName: 'balanceOf', args: [address as Address], ...(atBlock !== undefined && { blockNumber: BigInt(atBlock) }) });
  }

  async tokenBalances(contract: string, addresses: string[]): Promise<Map<string, bigint>> {
    const balances = await Promise.all(addresses.map((address) => this.tokenBalance(contract, address)));
    return new Map(addresses.map((address, i) => [address, balances[i]!]));
  }

  /** USDT held by each address in USDT's 6 decimals, whatever the token's on chain: below is dust. */
  async usdtBalances(contract: string, addresses: string[]): Promise<Map<string, bigint>> {
    const unit = 10n ** BigInt(this.options.tokenDecimals - USDT_DECIMALS);
    return new Map([...(await this.tokenBalances(contract, addresses))].map(([address, held]) => [address, held / unit]));
  }

  async feeBalance(address: string): Promise<bigint> {
    return getBalance(await this.rpc(), { address: address as Address });
  }

  /**
   * Native coin (ETH, BNB, POL) held by each address, in wei: the forwarder factory's
   * `nativeBalances`, one eth_call for NATIVE_BALANCES_PER_CALL addresses (a provider bills each
   * call: an eth_getBalance per address would make the sweeper's every run cost one per deposit
   * address read). Calls for more go out together, in one batched request.
   */
  async nativeBalances(factory: string, addresses: string[]): Promise<Map<string, bigint>> {
    const client = await this.rpc();
    const chunks: string[][] = [];
    for (let start = 0; start < addresses.length; start += NATIVE_BALANCES_PER_CALL) chunks.push(addresses.slice(start, start + NATIVE_BALANCES_PER_CALL));
    const read = await Promise.all(
      chunks.map((chunk) => readContract(client, { address: factory as Address, abi: [FACTORY_NATIVE_BALANCES], functionName: 'nativeBalances', args: [chunk as Address[]] })),
    );
    return new Map(chunks.flatMap((chunk, i) => chunk.map((address, j) => [address, read[i]![j]!] as const)));
  }

  /**
   * The issuer's freeze list, of each address: TetherToken's `isBlackListed` on the contract USDT
   * lives in now, or the newer token's `isBlocked`; one eth_call each, sent together (the client
   * batches them into one request). A failed read throws: it never counts as "not frozen". A token
   * without the control (`none`) asks the node nothing.
   */
  async frozenAmong(contract: string, addresses: string[]): Promise<Set<string>> {
    const controls = this.options.tokenControls;
    if (controls === 'none' || addresses.length === 0) return new Set();
    const client = await this.rpc();
    // Once deprecated, the upgraded contract keeps the freeze list that counts; the newer token
    // cannot be deprecated (it is upgraded behind its proxy, at the same address).
    const current = controls === 'tether' ? await this.currentUsdtContract(contract) : contract;
    const frozen = await this.controlsRead(contract, () =>
      Promise.all(
        addresses.map((address) =>
          controls === 'tether'
            ? readContract(client, { address: current as Address, abi: TETHER_CONTROLS_ABI, functionName: 'isBlackListed', args: [address as Address] })
            : readContract(client, { address: current as Address, abi: BLOCKED_LIST_ABI, functionName: 'isBlocked', args: [address as Address] }),
        ),
      ),
    );
    return new Set(addresses.filter((_, i) => frozen[i]));
  }

  /** TetherToken's `paused()`; false without asking for a token that cannot be paused (`none`,
   * and the newer token, which has no pause). */
  async tokenPaused(contract: string): Promise<boolean> {
    if (this.options.tokenControls !== 'tether') return false;
    const current = await this.currentUsdtContract(contract);
    return this.controlsRead(contract, async () => readContract(await this.rpc(), { address: current as Address, abi: TETHER_CONTROLS_ABI, functionName: 'paused' }));
  }

  /**
   * A read of the issuer's controls. When the contract reverts it, the stage names controls the
   * contract does not have (the newer token answers no `isBlackListed`, the old one no
   * `isBlocked`): every poll would fail on it, so the error says which setting to change rather
   * than a bare revert.
   */
  private async controlsRead<T>(contract: string, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if (!reverted(error)) throw error;
      const other = this.options.tokenControls === 'tether' ? "'blocked-list' (Tether's newer TetherToken: isBlocked, no pause)" : "'tether' (TetherToken: isBlackListed and paused)";
      throw new Error(
        `the USDT contract ${contract} reverted a read of its ${this.options.tokenControls === 'tether' ? 'isBlackListed/paused' : 'isBlocked'} control: it does not have the controls the stage's tokenControls '${this.options.tokenControls}' names. Read its ABI on the network's explorer and set the network's tokenControls in EVM_NETWORKS (${other} or 'none')`,
        { cause: error },
      );
    }
  }

  private readonly deprecations = new Deprecations(async (contract) => {
    if (this.options.tokenControls !== 'tether') return null;
    const client = await this.rpc();
    let deprecated: boolean;
    try {
      deprecated = await readContract(client, { address: contract as Address, abi: TETHER_CONTROLS_ABI, functionName: 'deprecated' });
    } catch (error) {
      // A contract without `deprecated()` (an upgraded one, which cannot be deprecated again)
      // reverts the call, on any node: it is where USDT lives. A node's error is thrown.
      if (reverted(error)) return null;
      throw error;
    }
    return deprecated ? readContract(client, { address: contract as Address, abi: TETHER_CONTROLS_ABI, functionName: 'upgradedAddress' }) : null;
  });

  /** The contracts USDT's Transfer events come from: the stage's, and its upgraded one once deprecated (functions/networks/deprecations.ts). */
  usdtContracts(contract: string): Promise<string[]> {
    return this.deprecations.contracts(contract);
  }

  /** Where USDT lives now: the upgraded contract once the stage's is deprecated, else the stage's. */
  currentUsdtContract(contract: string): Promise<string> {
    return this.deprecations.current(contract);
  }
}

function blockOf(block: { number: bigint | null; hash: Hash | null; timestamp: bigint }): ChainBlock {
  if (block.number === null || block.hash === null) throw new Error('The node answered a pending block');
  return { number: Number(block.number), hash: block.hash, timestamp: new Date(Number(block.timestamp) * 1000).toISOString() };
}
