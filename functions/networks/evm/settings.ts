import * as v from 'valibot';
import { EVM_ADDRESS_PATTERN } from './address-pattern.ts';
import { EVM_NETWORK_NAMES, type EvmNetworkName } from '../names.ts';
import { usdtFeeFigure, usdtFigure } from '#functions/settings/usdt-figure';

export { EVM_NETWORK_NAMES, type EvmNetworkName };

const address = v.pipe(v.string(), v.regex(EVM_ADDRESS_PATTERN, 'is not a 0x address'));

/**
 * Which issuer controls a network's USDT has, and so how Cambio reads them (TokenControls in
 * ../network.ts):
 * - `tether`, the old TetherToken's: `isBlackListed(address)`, `paused()`, a transfer fee and
 *   deprecation (Ethereum, and the local TetherUsdt on polygon and arbitrum);
 * - `blocked-list`, Tether's newer TetherToken's (Arbitrum's USD₮0, and the chains Tether has moved
 *   to it): `isBlocked(address)` only, with no pause, no fee and no deprecation (the local
 *   BlockedListUsdt reproduces it). A stage whose contract is this one must say so: the old
 *   token's calls revert on it, and every poll would fail (evm-chain.ts says which setting to change);
 * - `none`, a token without them (BSC's BEP20USDT), read as never frozen nor paused without asking
 *   the node.
 * Stated, never guessed from a call that fails: a node's error must not read as "not frozen".
 */
export const TOKEN_CONTROLS = ['tether', 'blocked-list', 'none'] as const;
export type TokenControlsKind = (typeof TOKEN_CONTROLS)[number];
const whole = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
const rpcUrl = v.pipe(v.string(), v.check((value) => URL.canParse(value), 'is not a URL'));

/**
 * One EVM network on a stage. Each names its node, the contracts, and when a block is final:
 * `finalizedTag` asks the node for its `finalized` block (Ethereum, BSC, Polygon and Arbitrum all
 * answer it, and it is the only rule that holds through any reorganisation the chain can make);
 * without it, a block `confirmations` deep counts as final (the local anvil nodes, whose
 * `finalized` is their latest block and would credit a block the tests are about to reorganise).
 * `confirmations` is also what a deposit shows as `requiredConfirmations`.
 */
export const evmNetworkSettings = v.strictObject({
  chainId: whole(1, 2 ** 40),
  /** The JSON-RPC endpoint, or the Secrets Manager id of one (a provider's URL carries its key).
   * `rpcUrls`: several, tried in order, a failing one (an error, a 429, a timeout) left for the next
   * (functions/networks/evm/rpc-transport.ts); the secret may hold several too, comma-separated. The
   * secret's come first, then rpcUrl, then rpcUrls. */
  rpcUrl: v.optional(rpcUrl),
  rpcUrls: v.optional(v.pipe(v.array(rpcUrl), v.minLength(1, 'lists no URL'), v.maxLength(5, 'lists over 5 URLs'))),
  rpcUrlSecret: v.optional(v.pipe(v.string(), v.nonEmpty())),
  /** How long, in milliseconds, one node may take over a request before the next URL is asked (a
   * hanging node then costs this, and is asked last for a minute). Absent: DEFAULT_RPC_TIMEOUT_MS. */
  rpcTimeoutMs: v.optional(whole(100, 30_000)),
  /** The official USDT contract: transfers of any other token are ignored. */
  usdtContract: address,
  /** The issuer controls that contract has (TOKEN_CONTROLS). Absent: the network's own
   * (functions/networks/evm/networks.ts `tokenControls`). */
  tokenControls: v.optional(v.picklist(TOKEN_CONTROLS, `is not ${TOKEN_CONTROLS.join(' or ')}`)),
  /** The deposit forwarders' factory (contracts/DepositForwarderFactory.sol) and the forwarder
   * implementation its clones delegate to: a deposit address is their CREATE2 address. */
  forwarderFactory: address,
  forwarderImplementation: address,
  finalizedTag: v.boolean(),
  confirmations: whole(1, 10_000),
  /** The deepest reorganisation the scanner reads again for: a block read before it was final is
   * read again at every scan until it is final, no deeper than this many blocks below the head
   * (../shared/networks.md, "Finality, reorganisations and the node"). Without `finalizedTag` it is
   * at least `confirmations`. Absent: DEFAULT_FINALITY_DEPTH, which says each network's reason. */
  finalityDepth: v.optional(whole(1, 10_000)),
  /** The widest block range one eth_getLogs call asks for; a node that refuses it gets halves. */
  maxBlockRange: v.optional(whole(1, 100_000), 1_000),
  /** How often the network's deposit poller runs, in minutes (its EventBridge schedule; deployed stages). */
  scanEveryMinutes: v.optional(whole(1, 60), 1),
  /** The fee charged on a withdrawal on this network, USDT with up to 6 decimals (a network's gas
   * costs differ by orders of magnitude: Ethereum's dollars, Polygon's cents). Absent: the stage's
   * WITHDRAWAL_FEE_USDT; 0 waives it. */
  withdrawalFeeUsdt: v.optional(usdtFeeFigure),
  /** The smallest withdrawal on this network, USDT (worth raising where the fee is high: on Ethereum
   * a 1 USDT payout would cost its company several in fee). Absent: the stage's WITHDRAWAL_MINIMUM_USDT. */
  withdrawalMinimumUsdt: v.optional(usdtFigure),
  /** The most deposit forwarders one sweep transaction empties (contracts/DepositForwarderFactory.sol):
   * ~54k gas for each one deployed, so 100 take ~5.4M, well inside every network's block. */
  sweepBatchSize: v.optional(whole(1, 500), 100),
  /** USDT below which a forwarder is not worth sweeping on this network (its ~54k gas costs dollars
   * on Ethereum, a fraction of a cent on Polygon). Absent: the stage's SWEEP_MINIMUM_USDT. */
  sweepMinimumUsdt: v.optional(usdtFigure),
  /** The hot wallet's gas token (ETH, BNB, POL), in that token, below which the withdrawal sender and
   * the sweeper log `hot wallet gas low` and count HotWalletGasLow, alarmed per network: every
   * payout and sweep stops when it runs out. Absent: DEFAULT_HOT_WALLET_GAS_MINIMUM. */
  hotWalletGasMinimum: v.optional(v.pipe(v.string(), v.regex(/^\d{1,9}(\.\d{1,18})?$/, 'is not an amount of the gas token'))),
  /** Native coin (ETH, BNB, POL) at a deposit address, in that coin, below which it is not swept on
   * its own: sweeping an address costs the hot wallet ~54k gas, so a stranger's 1 wei to many
   * addresses would otherwise be paid for by Cambio. Less is left (reconcile reports it) until the
   * address's USDT is swept, which moves it too. Absent: DEFAULT_NATIVE_SWEEP_MINIMUM. */
  sweepMinimumNative: v.optional(v.pipe(v.string(), v.regex(/^\d{1,9}(\.\d{1,18})?$/, 'is not an amount of the gas token'))),
  /** The most a payout offers per gas, in gwei (maxFeePerGas, or gasPrice on a legacy fee market):
   * the sender signs the node's estimate held under this, and never replaces a payout above it.
   * Absent: DEFAULT_MAX_FEE_PER_GAS_GWEI. */
  maxFeePerGasGwei: v.optional(whole(1, 100_000)),
  /** How fees are priced: `eip1559` (maxFeePerGas and a tip over the block's base fee) or `legacy`
   * (one gasPrice, from eth_gasPrice: for a node that prices that way, as BSC's validators long did).
   * Absent: eip1559. */
  feeMarket: v.optional(v.picklist(['eip1559', 'legacy'], 'is not eip1559 or legacy')),
  /** A payout broadcast this long ago and still not mined is replaced: the same nonce and transfer
   * at a higher fee, up to maxFeePerGasGwei (functions/networks/evm/withdrawal-sending.ts).
   * Absent: DEFAULT_REPLACE_AFTER_SECONDS. */
  replaceAfterSeconds: v.optional(whole(10, 86_400)),
  /** The node is the local runtime's anvil, whose USDT is the sandbox's: the dashboard's Simulate
   * payment and `npm run sandbox:pay` pay from its customer wallet (local stage only). */
  sandbox: v.optional(v.boolean(), false),
});
export type EvmNetworkSettings = v.InferOutput<typeof evmNetworkSettings>;

/**
 * How deep a reorganisation each network can make before its blocks are final, in blocks: the
 * scanner's bound on what it reads again (evmNetworkSettings `finalityDepth`). Reading again costs
 * only the blocks not yet final at the last scan, so on a network whose `finalized` block follows
 * its head closely the bound matters only while finality stalls.
 * - ethereum 64: a block is finalized about two epochs (2 × 32 slots of 12 s) after it is made.
 * - bsc 64: fast finality finalizes a block within two or three; 64 (~48 s of blocks) covers the
 *   fallback to the longest chain while votes stall, with margin.
 * - polygon 256: milestones finalize within seconds; before them Polygon reorganised 157 blocks
 *   (February 2023), which 256 covers should milestones stall.
 * - arbitrum 240, a minute of blocks: the sequencer orders blocks alone and does not reorganise
 *   its own chain; `finalized` waits for Ethereum's finality (~20 minutes, ~4,800 blocks), too many
 *   to read again every run, so this bounds the cost rather than proving a depth.
 */
export const DEFAULT_FINALITY_DEPTH: Record<EvmNetworkName, number> = { ethereum: 64, bsc: 64, polygon: 256, arbitrum: 240 };

/** Some dozens of payouts and sweeps at each network's ordinary fees: time to fund it before it stops. */
export const DEFAULT_HOT_WALLET_GAS_MINIMUM: Record<EvmNetworkName, string> = { ethereum: '0.1', bsc: '0.05', polygon: '20', arbitrum: '0.01' };

/** About ten times what sweeping one address costs at each network's ordinary fees (~54k gas). */
export const DEFAULT_NATIVE_SWEEP_MINIMUM: Record<EvmNetworkName, string> = { ethereum: '0.005', bsc: '0.001', polygon: '0.5', arbitrum: '0.0005' };

/** Ten times a busy day's base fee on Ethereum: a cap against a runaway estimate, not a price. */
export const DEFAULT_MAX_FEE_PER_GAS_GWEI = 500;

/** Fifteen of Ethereum's blocks: a payout priced at the node's estimate is mined well within it, so
 * one still waiting was outbid by a fee spike. */
export const DEFAULT_REPLACE_AFTER_SECONDS = 180;

/** EVM_NETWORKS: a JSON object from network name to its settings. A network left out is not open on
 * the stage: deposits on it are refused and no poller reads it. */
export const EVM_STAGE_SETTINGS = {
  EVM_NETWORKS: v.optional(
    v.pipe(
      v.string(),
      v.parseJson(undefined, 'is not JSON'),
      v.record(v.picklist(EVM_NETWORK_NAMES, `names a network other than ${EVM_NETWORK_NAMES.join(', ')}`), evmNetworkSettings),
      v.check((networks) => Object.values(networks).every((network) => network.rpcUrl !== undefined || network.rpcUrls !== undefined || network.rpcUrlSecret !== undefined), 'has a network with none of rpcUrl, rpcUrls, rpcUrlSecret'),
    ),
    '{}',
  ),
};

/** The contracts of an EVM network the stage's settings name (functions/withdrawals/refused-destinations.ts):
 * its USDT, and the deposit forwarders' factory and implementation; none where the stage does not open it. */
/** An EVM network is open on a stage whose EVM_NETWORKS names it, whatever the entry holds. */
export const evmIsOpen =
  (name: EvmNetworkName) =>
  (settings: { EVM_NETWORKS?: Partial<Record<EvmNetworkName, unknown>> }): boolean =>
    settings.EVM_NETWORKS?.[name] !== undefined;

export const evmStageContracts =
  (name: EvmNetworkName) =>
  (settings: { EVM_NETWORKS: Partial<Record<EvmNetworkName, EvmNetworkSettings>> }): string[] => {
    const network = settings.EVM_NETWORKS[name];
    return network ? [network.usdtContract, network.forwarderFactory, network.forwarderImplementation] : [];
  };
