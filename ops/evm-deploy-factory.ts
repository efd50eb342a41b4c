import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createPublicClient, createWalletClient, defineChain, formatEther, getAddress, http, isAddress, isAddressEqual, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { KmsSigner } from '#adapters/signer/kms-signer';
import { DepositForwarderFactory } from '#functions/networks/evm/contracts';
import { evmAddressFromPublicKey } from '#functions/networks/evm/keys';
import { EVM_NETWORKS } from '#functions/networks/evm/networks';
import { EVM_NETWORK_NAMES, type EvmNetworkName } from '#functions/networks/names';
import { deployForwarderFactory } from '#local/evm-contracts';
import { errorText } from './error-text.ts';

/**
 * `npm run evm:deploy-factory -- --network <name> --rpc-url <url> (--owner <0x…> | --owner-kms-key <key id or alias>) [--chain-id <id>]`,
 * with the deployer's key in EVM_DEPLOYER_KEY or in the file EVM_DEPLOYER_KEY_FILE names (never an
 * argument: arguments end up in shell history and process lists). Deploys the deposit forwarder
 * factory on a real network, owned by the network's hot wallet (its constructor deploys the
 * forwarder implementation), checks what it deployed and prints the two addresses for the stage's
 * EVM_NETWORKS. A node answering another chain id than the network's is refused unless --chain-id
 * names that id (a testnet for a sandbox stage). Exits 2 on bad usage or a refusal, 1 on a failure.
 */

export const USAGE =
  'Usage: EVM_DEPLOYER_KEY=<hex> | EVM_DEPLOYER_KEY_FILE=<path> npm run evm:deploy-factory -- --network <ethereum|bsc|polygon|arbitrum> --rpc-url <url> (--owner <0x address> | --owner-kms-key <key id or alias>) [--chain-id <id>]';

/** Bad usage or a refusal: nothing was sent. */
export class Refusal extends Error {}

export interface DeployFactoryOptions {
  network: EvmNetworkName;
  rpcUrl: string;
  deployerKey: Hex;
  owner: Address;
  /** The chain id the operator confirmed, when the node's is not the network's. */
  confirmedChainId?: number;
  log?: (line: string) => void;
}

/** Refuses a node whose chain id is not the network's, unless the operator confirmed that very id. */
export function checkChainId(network: EvmNetworkName, answered: number, confirmed: number | undefined): void {
  const expected = EVM_NETWORKS[network].chainId;
  if (confirmed !== undefined && confirmed !== answered) throw new Refusal(`The node answers chain id ${answered}, not the --chain-id ${confirmed} confirmed: nothing deployed`);
  if (answered !== expected && confirmed === undefined) {
    throw new Refusal(`The node answers chain id ${answered}, not ${network}'s ${expected}: pass --chain-id ${answered} to deploy there anyway (a testnet for a sandbox stage)`);
  }
}

export async function deployFactory({ network, rpcUrl, deployerKey, owner, confirmedChainId, log = console.log }: DeployFactoryOptions) {
  const deployer = privateKeyToAccount(deployerKey);
  const probe = createPublicClient({ transport: http(rpcUrl) });
  const chainId = await probe.getChainId();
  checkChainId(network, chainId, confirmedChainId);
  const { feeAsset } = EVM_NETWORKS[network];
  const chain = defineChain({ id: chainId, name: network, nativeCurrency: { name: feeAsset.symbol, symbol: feeAsset.symbol, decimals: feeAsset.decimals }, rpcUrls: { default: { http: [rpcUrl] } } });
  // A second between receipt polls: a provider bills each call.
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 1_000 });
  const gas = await publicClient.getBalance({ address: deployer.address });
  if (gas === 0n) throw new Refusal(`The deployer ${deployer.address} holds no ${feeAsset.symbol} on chain ${chainId}: nothing deployed`);

  log(`Deploying DepositForwarderFactory on ${network} (chain id ${chainId}) from ${deployer.address} (${formatEther(gas)} ${feeAsset.symbol}), owner ${owner}`);
  const wallet = createWalletClient({ chain, account: deployer, transport: http(rpcUrl) });
  const { factory, implementation, txHash } = await deployForwarderFactory(wallet, publicClient, owner);

  // What the stage will rely on: the owner that may sweep, and code at both addresses.
  const actualOwner = await publicClient.readContract({ address: factory, abi: DepositForwarderFactory.abi, functionName: 'owner' });
  if (!isAddressEqual(actualOwner, owner)) throw new Error(`The factory at ${factory} is owned by ${actualOwner}, not ${owner}`);
  if (!(await publicClient.getCode({ address: implementation }))) throw new Error(`No code at the forwarder implementation ${implementation}`);

  log(`  DepositForwarderFactory          ${factory}  (transaction ${txHash})`);
  log(`  DepositForwarder implementation  ${implementation}`);
  log(`For the stage's EVM_NETWORKS.${network} (config/stages.ts):`);
  log(`  "forwarderFactory": "${factory}",`);
  log(`  "forwarderImplementation": "${implementation}"`);
  return { chainId, factory, implementation, txHash };
}

/** The deployer's key from EVM_DEPLOYER_KEY or the file EVM_DEPLOYER_KEY_FILE names (empty is
 * unset, as in a shell); never echoed. */
export function deployerKeyFrom(env: NodeJS.ProcessEnv): Hex {
  const { EVM_DEPLOYER_KEY: key, EVM_DEPLOYER_KEY_FILE: file } = env;
  if (key && file) throw new Refusal('Set EVM_DEPLOYER_KEY or EVM_DEPLOYER_KEY_FILE, not both');
  const raw = key || (file ? readFileSync(file, 'utf8') : undefined);
  if (raw === undefined) throw new Refusal(`The deployer's key is read from EVM_DEPLOYER_KEY or EVM_DEPLOYER_KEY_FILE, never from an argument. ${USAGE}`);
  const hex = raw.trim().replace(/^0x/, '');
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Refusal("The deployer's key is not 32 bytes of hex");
  return `0x${hex}`;
}

/** The factory's owner: an address given, or the address of the network's hot wallet key in KMS. */
async function ownerFrom(values: { owner?: string; 'owner-kms-key'?: string }): Promise<Address> {
  if ((values.owner === undefined) === (values['owner-kms-key'] === undefined)) throw new Refusal(`Name the owner, the network's hot wallet: --owner or --owner-kms-key, one of them. ${USAGE}`);
  if (values.owner !== undefined) {
    if (!isAddress(values.owner)) throw new Refusal(`--owner ${values.owner} is not a 0x address (mixed case must be EIP-55)`);
    return getAddress(values.owner);
  }
  return (await new KmsSigner(values['owner-kms-key']!, undefined, evmAddressFromPublicKey).address()) as Address;
}

/** `npm run evm:deploy-factory`. */
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const { values } = parseArgs({
      options: { network: { type: 'string' }, 'rpc-url': { type: 'string' }, owner: { type: 'string' }, 'owner-kms-key': { type: 'string' }, 'chain-id': { type: 'string' } },
    });
    const network = values.network as EvmNetworkName | undefined;
    if (!network || !EVM_NETWORK_NAMES.includes(network)) throw new Refusal(`--network must be one of ${EVM_NETWORK_NAMES.join(', ')}. ${USAGE}`);
    if (!values['rpc-url'] || !URL.canParse(values['rpc-url'])) throw new Refusal(`--rpc-url must be the network's JSON-RPC URL. ${USAGE}`);
    if (values['chain-id'] !== undefined && !/^\d{1,15}$/.test(values['chain-id'])) throw new Refusal('--chain-id must be a whole number');
    const deployerKey = deployerKeyFrom(process.env);
    const owner = await ownerFrom(values);
    await deployFactory({ network, rpcUrl: values['rpc-url'], deployerKey, owner, confirmedChainId: values['chain-id'] === undefined ? undefined : Number(values['chain-id']) });
  } catch (error) {
    // parseArgs refuses an unknown option (a key passed as an argument among them) with a TypeError.
    const usage = error instanceof Refusal || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'));
    console.error(usage ? (error as Error).message : errorText(error));
    process.exit(usage ? 2 : 1);
  }
}
