import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  parseEther,
  http,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type LocalAccount,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { DepositForwarderFactory } from '#functions/networks/evm/contracts';
import { Bep20Usdt, BlockedListUsdt, TetherUsdt } from '#functions/networks/evm/usdt-contracts';
import { EVM_NETWORKS } from '#functions/networks/evm/networks';
import type { TokenControlsKind } from '#functions/networks/evm/settings';
import type { HotWalletFloat } from '#functions/ledger/floats';
import type { EvmNetworkName } from '#functions/networks/names';

/**
 * The contracts a local EVM node needs before Cambio can take deposits on it: the network's USDT as
 * it is on mainnet (contracts/usdt/: TetherUsdt, with Tether's freeze, pause, fee and deprecation,
 * or BSC's Bep20Usdt, with none), owned by the local issuer account, and the deposit forwarder
 * factory owned by the network's hot wallet. Deployed by `npm start` on each network's anvil and by
 * the tests on theirs.
 */

/** Anvil's default mnemonic: its first accounts are funded with 10,000 ETH each at start. */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

/**
 * Anvil's funded accounts by role. Fixed indexes so every start of a fresh node gives the same
 * addresses, and with them the same token and factory addresses (CREATE from the deployer's
 * first nonces).
 */
export const anvilAccount = {
  deployer: () => mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 0 }),
  hotWallet: () => mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 1 }),
  customer: () => mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 2 }),
  /** The token's owner (Tether's issuer): the only account that freezes, pauses, sets the fee,
   * deprecates, issues and mints (local/evm-issuer.ts, `npm run sandbox:issuer`). The last of anvil's
   * ten funded accounts, used for nothing else. */
  issuer: () => mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 9 }),
};

/** What the hot wallet starts with, in whole tokens: the float withdrawals are paid from. */
export const HOT_WALLET_USDT = 1_000_000n;
/** What the issuer issues at start, in whole tokens: enough that no local run can spend it all. */
const ISSUED_USDT = 1_000_000_000n;
/** What the customer account starts with, in whole tokens. */
export const CUSTOMER_USDT = 1_000_000n;
/** The deployer's USDT, in whole tokens: what tests pay from when the customer's would not do. */
const DEPLOYER_USDT = ISSUED_USDT / 2n;

/**
 * Which contract a network's local USDT is, by the controls the network's token has: TetherUsdt
 * (Ethereum's TetherToken, and in place of Polygon's and Arbitrum's, whose controls it has) for
 * Tether's, BlockedListUsdt (Tether's newer token) for a blocked list, Bep20Usdt (BSC's BEP20USDT,
 * 18 decimals) for none.
 */
export type LocalUsdtToken = 'tether' | 'blocked-list' | 'bep20';
const LOCAL_TOKEN_OF_CONTROLS: Record<TokenControlsKind, LocalUsdtToken> = { tether: 'tether', 'blocked-list': 'blocked-list', none: 'bep20' };
/** The other way round: which controls a deployed local token has. */
const CONTROLS_OF_LOCAL_TOKEN = Object.fromEntries(Object.entries(LOCAL_TOKEN_OF_CONTROLS).map(([controls, token]) => [token, controls])) as Record<LocalUsdtToken, TokenControlsKind>;
export const localUsdtTokenOf = (tokenControls: TokenControlsKind): LocalUsdtToken => LOCAL_TOKEN_OF_CONTROLS[tokenControls];

/** The local token of the network whose chain id a node answers (the local nodes answer their real
 * network's); TetherUsdt on any other chain. */
const usdtTokenOfChain = (chainId: number): LocalUsdtToken => {
  const network = Object.values(EVM_NETWORKS).find((candidate) => candidate.chainId === chainId);
  return network ? localUsdtTokenOf(network.tokenControls) : 'tether';
};

export interface NetworkContracts {
  chain: Chain;
  usdt: Address;
  usdtDecimals: number;
  /** Which contract `usdt` is, and so the controls Cambio reads on it (settings' `tokenControls`). */
  usdtToken: LocalUsdtToken;
  tokenControls: TokenControlsKind;
  factory: Address;
  /** The factory's DepositForwarder, deployed by its constructor. */
  implementation: Address;
  /** Deploys the token and the factory; holds USDT for tests to pay from. */
  deployer: LocalAccount;
  /** The token's owner (anvilAccount.issuer). */
  issuer: LocalAccount;
  /** The factory's owner: the only account that may sweep. */
  hotWallet: LocalAccount;
  /** Holds CUSTOMER_USDT of the token and ETH for gas: the wallet that pays deposits. */
  customer: LocalAccount;
  /** The transaction that put HOT_WALLET_USDT on the hot wallet: its float, which the local runtime
   * records in the ledger (functions/ledger/floats.ts) so that reconcile balances. */
  floatTxHash: Hex;
}

/**
 * A viem chain for a local node. A short polling interval because anvil mines each transaction
 * as it arrives: viem's default of 4 s would make every receipt wait for nothing.
 */
export function localEvmChain(url: string, chainId: number): Chain {
  return defineChain({
    id: chainId,
    name: `local-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
}

export const LOCAL_POLLING_MS = 50;

export function localPublicClient(chain: Chain): PublicClient {
  return createPublicClient({ chain, transport: http(), pollingInterval: LOCAL_POLLING_MS });
}

export function localWalletClient(chain: Chain, account: LocalAccount) {
  return createWalletClient({ chain, account, transport: http(), pollingInterval: LOCAL_POLLING_MS });
}

/** Waits at the client's own polling interval: LOCAL_POLLING_MS on a local node, a second on a real network's. */
async function mined(publicClient: PublicClient, hash: Hex) {
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
  return receipt;
}

async function deployed(publicClient: PublicClient, hash: Hex): Promise<Address> {
  const { contractAddress } = await mined(publicClient, hash);
  if (!contractAddress) throw new Error(`transaction ${hash} deployed no contract`);
  return contractAddress;
}

/**
 * Deploys DepositForwarderFactory owned by `owner`, the network's hot wallet (the only account that
 * may sweep); its constructor deploys the DepositForwarder implementation its clones delegate to.
 * What a stage's EVM_NETWORKS names as forwarderFactory and forwarderImplementation: deployed here
 * on each anvil, and on a real network by npm run evm:deploy-factory (ops/evm-deploy-factory.ts).
 */
export async function deployForwarderFactory(
  wallet: WalletClient<Transport, Chain, Account>,
  publicClient: PublicClient,
  owner: Address,
): Promise<{ factory: Address; implementation: Address; txHash: Hex }> {
  const txHash = await wallet.deployContract({ abi: DepositForwarderFactory.abi, bytecode: DepositForwarderFactory.bytecode, args: [owner] });
  const factory = await deployed(publicClient, txHash);
  const implementation = await publicClient.readContract({ address: factory, abi: DepositForwarderFactory.abi, functionName: 'implementation' });
  return { factory, implementation, txHash };
}

/** The float deployNetworkContracts gave the hot wallet, as the ledger records it: USDT in its 6
 * decimals whatever the token's on the node (functions/ledger/floats.ts). */
export const hotWalletFloatOf = (network: EvmNetworkName, contracts: Pick<NetworkContracts, 'floatTxHash'>): HotWalletFloat => ({
  network,
  txHash: contracts.floatTxHash,
  amount: HOT_WALLET_USDT * 10n ** 6n,
});

/**
 * Deploys the network's USDT (TetherUsdt or BlockedListUsdt with `usdtDecimals`, or Bep20Usdt, whose 18 are fixed) and
 * the factory, hands the token to the issuer, who issues the supply and gives the customer account,
 * the hot wallet and the deployer their USDT. `hotWallet` is the factory's owner: anvil's second account
 * unless the caller's hot wallet is another key, which is then given ETH for its payouts' and sweeps' gas.
 *
 * The deployer's first two transactions are the token's and the factory's deployments, as they
 * were when the local token was a plain ERC-20, so the token, the factory and every deposit address
 * keep their addresses; the token then changes owner (as Tether's `transferOwnership`) rather than
 * being deployed by the issuer.
 */
export async function deployNetworkContracts(
  url: string,
  options: { usdtDecimals: number; usdtToken?: LocalUsdtToken; hotWallet?: LocalAccount },
): Promise<NetworkContracts> {
  const probe = createPublicClient({ transport: http(url) });
  const chain = localEvmChain(url, await probe.getChainId());
  const publicClient = localPublicClient(chain);
  const [deployer, customer, issuer] = [anvilAccount.deployer(), anvilAccount.customer(), anvilAccount.issuer()];
  const hotWallet = options.hotWallet ?? anvilAccount.hotWallet();
  const wallet = localWalletClient(chain, deployer);
  const asIssuer = localWalletClient(chain, issuer);
  const usdtToken = options.usdtToken ?? usdtTokenOfChain(chain.id);
  if (usdtToken === 'bep20' && options.usdtDecimals !== 18) throw new Error(`Bep20Usdt has 18 decimals, as BSC's USDT; asked for ${options.usdtDecimals}`);
  const unit = 10n ** BigInt(options.usdtDecimals);
  if (options.hotWallet) {
    await createTestClient({ chain, mode: 'anvil', transport: http() }).setBalance({ address: hotWallet.address, value: parseEther('10000') });
  }

  const deployments = {
    tether: () => wallet.deployContract({ abi: TetherUsdt.abi, bytecode: TetherUsdt.bytecode, args: [0n, 'Tether USD', 'USDT', BigInt(options.usdtDecimals)] }),
    'blocked-list': () => wallet.deployContract({ abi: BlockedListUsdt.abi, bytecode: BlockedListUsdt.bytecode, args: ['USD₮0', 'USD₮0', options.usdtDecimals] }),
    bep20: () => wallet.deployContract({ abi: Bep20Usdt.abi, bytecode: Bep20Usdt.bytecode }),
  } satisfies Record<LocalUsdtToken, () => Promise<Hex>>;
  const usdt = await deployed(publicClient, await deployments[usdtToken]());
  const { factory, implementation } = await deployForwarderFactory(wallet, publicClient, hotWallet.address);
  // The same selector on every token: transferOwnership(address); then issue (Tether) or mint (the
  // newer token, BEP-20) to the issuer.
  await mined(publicClient, await wallet.writeContract({ address: usdt, abi: TetherUsdt.abi, functionName: 'transferOwnership', args: [issuer.address] }));
  const issuance = {
    tether: () => asIssuer.writeContract({ address: usdt, abi: TetherUsdt.abi, functionName: 'issue', args: [ISSUED_USDT * unit] }),
    'blocked-list': () => asIssuer.writeContract({ address: usdt, abi: BlockedListUsdt.abi, functionName: 'mint', args: [issuer.address, ISSUED_USDT * unit] }),
    bep20: () => asIssuer.writeContract({ address: usdt, abi: Bep20Usdt.abi, functionName: 'mint', args: [ISSUED_USDT * unit] }),
  } satisfies Record<LocalUsdtToken, () => Promise<Hex>>;
  await mined(publicClient, await issuance[usdtToken]());
  // transfer(address,uint256) is the same call on every token (Tether's returns nothing, which a
  // transaction sent without simulating does not read).
  const pay = async (to: Address, amount: bigint) =>
    mined(publicClient, await asIssuer.writeContract({ address: usdt, abi: TetherUsdt.abi, functionName: 'transfer', args: [to, amount * unit] }));
  await pay(customer.address, CUSTOMER_USDT);
  await pay(deployer.address, DEPLOYER_USDT);
  // The hot wallet's float, for withdrawals.
  const { transactionHash: floatTxHash } = await pay(hotWallet.address, HOT_WALLET_USDT);
  const tokenControls = CONTROLS_OF_LOCAL_TOKEN[usdtToken];
  return { chain, usdt, usdtDecimals: options.usdtDecimals, usdtToken, tokenControls, factory, implementation, deployer, issuer, hotWallet, customer, floatTxHash };
}
