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
import { DepositForwarderFactory, TestUsdt } from '#functions/networks/evm/contracts';
import type { HotWalletFloat } from '#functions/ledger/floats';
import type { EvmNetworkName } from '#functions/networks/names';

/**
 * The contracts a local EVM node needs before Cambio can take deposits on it: the sandbox USDT
 * (contracts/TestUsdt.sol) and the deposit forwarder factory owned by the network's hot wallet.
 * Deployed by `npm start` on each network's anvil and by the tests on theirs.
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
};

/** What the hot wallet starts with, in whole tokens: the float withdrawals are paid from. */
export const HOT_WALLET_USDT = 1_000_000n;
/** The deployer's USDT, in whole tokens: enough that no local run can spend it all. */
const DEPLOYER_SUPPLY_USDT = 1_000_000_000n;
/** What the customer account starts with, in whole tokens. */
export const CUSTOMER_USDT = 1_000_000n;

export interface NetworkContracts {
  chain: Chain;
  usdt: Address;
  usdtDecimals: number;
  factory: Address;
  /** The factory's DepositForwarder, deployed by its constructor. */
  implementation: Address;
  deployer: LocalAccount;
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
 * Deploys the sandbox USDT with the network's decimals (18 on bsc, else 6) and the factory, and
 * gives the customer account and the hot wallet their USDT. `hotWallet` is the factory's owner: anvil's second account
 * unless the caller's hot wallet is another key, which is then given ETH for its payouts' and sweeps' gas.
 */
export async function deployNetworkContracts(url: string, options: { usdtDecimals: number; hotWallet?: LocalAccount }): Promise<NetworkContracts> {
  const probe = createPublicClient({ transport: http(url) });
  const chain = localEvmChain(url, await probe.getChainId());
  const publicClient = localPublicClient(chain);
  const [deployer, customer] = [anvilAccount.deployer(), anvilAccount.customer()];
  const hotWallet = options.hotWallet ?? anvilAccount.hotWallet();
  const wallet = localWalletClient(chain, deployer);
  const unit = 10n ** BigInt(options.usdtDecimals);
  if (options.hotWallet) {
    await createTestClient({ chain, mode: 'anvil', transport: http() }).setBalance({ address: hotWallet.address, value: parseEther('10000') });
  }

  const usdt = await deployed(
    publicClient,
    await wallet.deployContract({ abi: TestUsdt.abi, bytecode: TestUsdt.bytecode, args: [options.usdtDecimals, DEPLOYER_SUPPLY_USDT * unit] }),
  );
  const { factory, implementation } = await deployForwarderFactory(wallet, publicClient, hotWallet.address);
  await mined(publicClient, await wallet.writeContract({ address: usdt, abi: TestUsdt.abi, functionName: 'transfer', args: [customer.address, CUSTOMER_USDT * unit] }));
  // The hot wallet's float, for withdrawals (after the deployments, so their addresses stay put).
  const { transactionHash: floatTxHash } = await mined(
    publicClient,
    await wallet.writeContract({ address: usdt, abi: TestUsdt.abi, functionName: 'transfer', args: [hotWallet.address, HOT_WALLET_USDT * unit] }),
  );
  return { chain, usdt, usdtDecimals: options.usdtDecimals, factory, implementation, deployer, hotWallet, customer, floatTxHash };
}
