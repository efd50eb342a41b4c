import type { Network } from '../network.ts';
import { withDisplay } from '../display.ts';
import { evmAddressFormat } from './address.ts';
import type { EvmNetworkName, EvmNetworkSettings, TokenControlsKind } from './settings.ts';

/**
 * The EVM networks as the network port describes them (../shared/networks.md). USDT has 6 decimals
 * on each but BNB Smart Chain, where it has 18. Fees are paid in each chain's own coin, 18
 * decimals (wei). When a block is final differs: the stage's settings choose the rule each chain's
 * reader follows (functions/networks/evm/settings.ts); `finality` says it for people.
 */
type EvmNetworkFacts = { blockMs: number; chainId: number; tokenControls: TokenControlsKind };
/** Every EVM network's fee coin has 18 decimals, and its addresses are EIP-55's. */
const evmNetwork = ({ feeSymbol, ...network }: Omit<Network, 'title' | 'address' | 'explorerTransactionUrl' | 'feeAsset'> & EvmNetworkFacts & { feeSymbol: string }) =>
  withDisplay({ ...network, feeAsset: { symbol: feeSymbol, decimals: 18 }, address: evmAddressFormat });

/** When each chain's block can no longer be reversed, for people. */
const FINALITY = {
  ethereum: "finalized: two epochs of the beacon chain's validators have attested to it (about 13 minutes)",
  bsc: 'finalized: fast finality, once two thirds of the validators have voted for it (a few seconds)',
  polygon: "finalized: a milestone of Polygon's validators includes it (a few seconds)",
  arbitrum: 'finalized: the batch holding it is final on Ethereum (about 20 minutes)',
};

export const ethereum = evmNetwork({ name: 'ethereum', chainId: 1, blockMs: 12_000, tokenDecimals: 6, tokenControls: 'tether', feeSymbol: 'ETH', finality: FINALITY.ethereum });
export const bsc = evmNetwork({ name: 'bsc', chainId: 56, blockMs: 750, tokenDecimals: 18, tokenControls: 'none', feeSymbol: 'BNB', finality: FINALITY.bsc });
export const polygon = evmNetwork({ name: 'polygon', chainId: 137, blockMs: 2_000, tokenDecimals: 6, tokenControls: 'tether', feeSymbol: 'POL', finality: FINALITY.polygon });
export const arbitrum = evmNetwork({ name: 'arbitrum', chainId: 42161, blockMs: 250, tokenDecimals: 6, tokenControls: 'tether', feeSymbol: 'ETH', finality: FINALITY.arbitrum });

/** With each chain's id on its main network (../shared/networks.md: what its local node answers, and
 * what npm run evm:deploy-factory expects), its usual time between blocks (`blockMs`: the
 * scan-lag alarm's threshold is ten minutes of blocks) and its USDT's issuer controls
 * (`tokenControls`, settings.ts TOKEN_CONTROLS: TetherToken's on Ethereum, and on Polygon and
 * Arbitrum as the local chains run them; none on BSC, whose BEP20USDT has no freeze, pause or fee).
 * A stage's EVM_NETWORKS may say otherwise per network, and must where the contract is Tether's
 * newer token (`blocked-list`: Arbitrum's and Polygon's mainnet USDT today; docs/evm-networks.md,
 * `tokenControls`). */
export const EVM_NETWORKS = { ethereum, bsc, polygon, arbitrum } as const;

/**
 * The issuer controls of the mainnet USDT contracts whose code is known here (docs/evm-networks.md,
 * `tokenControls`): Ethereum's is the old TetherToken, BSC's BEP20USDT has none, and Arbitrum's
 * (USD₮0) and Polygon's are Tether's newer token with a blocked list. Polygon's PoS USDT was
 * upgraded to USDT0 behind its proxy in 2025, at the same address (`UChildUSDT0` with
 * `WithBlockedList`: `isBlocked`, no `isBlackListed`), where ../shared/networks.md still describes
 * the bridged TetherToken. `cdk synth` refuses a stage that names one of these with other controls.
 */
export const KNOWN_USDT_CONTROLS: Readonly<Record<string, TokenControlsKind>> = {
  '0xdac17f958d2ee523a2206206994597c13d831ec7': 'tether',
  '0x55d398326f99059ff775485246999027b3197955': 'none',
  '0xc2132d05d31c914a87c6611c10748aeb04b58e8f': 'blocked-list',
  '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9': 'blocked-list',
};

/** The controls the stage's USDT contract on the network has: as its EVM_NETWORKS entry says, else
 * the network's own. Here, light, for the stack's alarms too (lib/chain-alarms.ts). */
export const evmTokenControlsOf = (name: EvmNetworkName, network: Pick<EvmNetworkSettings, 'tokenControls'>): TokenControlsKind => network.tokenControls ?? EVM_NETWORKS[name].tokenControls;
