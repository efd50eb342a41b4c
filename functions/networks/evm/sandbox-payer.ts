import { createClient, encodeFunctionData, erc20Abi, getAddress, http, keccak256, numberToHex, rpcSchema, stringToHex, type Address, type Hash, type Hex, type PublicRpcSchema, type TestRpcSchema, type WalletRpcSchema } from 'viem';
import { SandboxPaymentReverted, SandboxWalletShort, type NetworkSandbox, type SandboxPayer, type SandboxPayment } from '../network.ts';
import type { SliceSettings } from '#functions/settings/functions';
import { EVM_NETWORKS } from './networks.ts';
import type { EvmNetworkName, EvmNetworkSettings } from './settings.ts';

/**
 * The customer wallet of the local EVM nodes: anvil's third funded account of its public test
 * mnemonic ("test test … junk"), which local/evm-contracts.ts gives USDT when a node starts. It
 * pays what `npm run sandbox:pay` and the tests pay; the dashboard's `Simulate payment` pays from
 * the company's own wallet instead (sandboxWalletOf).
 */
export const SANDBOX_CUSTOMER: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

/**
 * The USDT a company's sandbox wallet is given once, in USDT minor units: a million USDT, more than
 * any demonstration pays, and still a ceiling, so that a company that spends it all stops only its
 * own simulator. It comes from the token's issuer, who holds about 500 million on a fresh node
 * (local/evm-contracts.ts), enough for hundreds of companies; a fee the issuer switched on
 * (`npm run sandbox:issuer`) takes its share of this transfer as of any other.
 */
export const SANDBOX_WALLET_ALLOWANCE = 1_000_000n * 10n ** 6n;

/** The native coin (wei) a company's wallet is given for gas: one coin pays thousands of token
 * transfers at anvil's gas prices. Given again whenever it falls below a tenth of that. */
const WALLET_GAS = 10n ** 18n;
const WALLET_GAS_LOW = WALLET_GAS / 10n;

/** Receipts on a local node, which mines a block a second: asked for at a short interval, so that
 * a payment answers soon after its block, and for long enough to outlast many blocks. */
const RECEIPT_POLLING_MS = 50;
const RECEIPT_WITHIN_MS = 20_000;

/** The gas limit of the simulator's transfers: well above what a USDT transfer costs, even forwarded
 * by a deprecated contract. Fixed, so that a transfer the token refuses (paused, a frozen sender) is
 * mined and its receipt says it reverted; left to estimate, the node would refuse to send it with an
 * error that names nothing. */
const TRANSFER_GAS = 300_000n;

/** The token owner's getter, getOwner(), the same on TetherUsdt and Bep20Usdt (contracts/usdt/). */
const GET_OWNER = '0x893d20e8';

/**
 * The company's wallet on the sandbox EVM nodes: the first 20 bytes of keccak256 of the company id
 * (with a prefix of its own), so the same address on every node and after every restart, found
 * from the id alone. Nobody holds its key: anvil sends for it by impersonation.
 */
export const sandboxWalletOf = (companyId: string): Address => getAddress(`0x${keccak256(stringToHex(`cambio-sandbox-payer:${companyId}`)).slice(2, 42)}`);

/**
 * A customer's USDT payment on a sandbox EVM node, as a wallet sends it: `amount` in USDT minor
 * units, scaled to the token's decimals on chain. The node signs each transaction itself
 * (eth_sendTransaction from an unlocked or impersonated account): the dashboard API, which carries
 * this payer, bundles no transaction signing.
 *
 * With a `payment`, the company's own wallet pays (the dashboard's `Simulate payment`): funded the
 * first time it pays, refused when it holds less than the amount, and an error when the transfer
 * reverts, so that a payment answered as made was made. Without one, SANDBOX_CUSTOMER pays, as
 * `npm run sandbox:pay` and the tests want, and the answer does not wait for its block.
 */
export function evmSandboxPayer(name: EvmNetworkName, network: EvmNetworkSettings): SandboxPayer & { pay(address: string, amount: bigint, payment?: SandboxPayment): Promise<{ txHash: string }> } {
  // Plain JSON-RPC requests rather than viem's actions, which would add a few hundred KB to the
  // dashboard API's bundle (test/infra/bundles.test.ts) for a handful of calls.
  const { request } = createClient({ transport: http(network.rpcUrl), rpcSchema: rpcSchema<[...PublicRpcSchema, ...WalletRpcSchema, ...TestRpcSchema<'anvil'>]>() });
  const token = network.usdtContract as Address;
  const scale = 10n ** BigInt(EVM_NETWORKS[name].tokenDecimals - 6);
  const transfer = (to: Address, onChain: bigint): Hex => encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, onChain] });
  // Sent once: a send retried after a lost answer could pay twice.
  const send = (from: Address, data: Hex, gas?: bigint): Promise<Hash> =>
    request({ method: 'eth_sendTransaction', params: [{ from, to: token, data, ...(gas !== undefined && { gas: numberToHex(gas) }) }] }, { retryCount: 0 });
  const tokenCall = (data: Hex): Promise<Hex> => request({ method: 'eth_call', params: [{ to: token, data }, 'latest'] });
  const usdtOf = async (wallet: Address): Promise<bigint> => BigInt(await tokenCall(encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [wallet] })));
  /** Nobody holds the key of a company's wallet, nor need hold the issuer's: anvil signs for any
   * address it impersonates. Asked before each transaction, since a node restarted from its saved
   * state has forgotten whom it impersonated; left on, since anyone who reaches the node may
   * impersonate any address anyway. */
  const impersonated = async (from: Address): Promise<Address> => {
    await request({ method: 'anvil_impersonateAccount', params: [from] });
    return from;
  };

  /** Whether the transaction reverted, once it is mined. */
  async function reverted(txHash: Hash): Promise<boolean> {
    const deadline = Date.now() + RECEIPT_WITHIN_MS;
    for (;;) {
      const receipt = (await request({ method: 'eth_getTransactionReceipt', params: [txHash] })) as { status: Hex } | null;
      if (receipt) return receipt.status !== '0x1';
      if (Date.now() > deadline) throw new Error(`Transaction ${txHash} was not mined within ${RECEIPT_WITHIN_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, RECEIPT_POLLING_MS));
    }
  }

  /** Gas first, whenever it runs low: anvil_setBalance sets the coin outright, with no transaction. */
  async function withGas(wallet: Address): Promise<void> {
    if (BigInt(await request({ method: 'eth_getBalance', params: [wallet, 'latest'] })) >= WALLET_GAS_LOW) return;
    await request({ method: 'anvil_setBalance', params: [wallet, numberToHex(WALLET_GAS)] });
  }

  /**
   * Gives the wallet its allowance the first time the company pays. Whether that happened is read
   * from the chain, not kept by the API process, so it survives the process's restarts and follows
   * the node's own (a node started afresh forgets both the allowance and the payments): a wallet
   * that holds no USDT and has never sent a transaction (nonce 0) was never funded. One that holds
   * none after sending has spent its allowance, and stays empty.
   */
  async function withAllowance(wallet: Address): Promise<void> {
    const [held, sent] = await Promise.all([usdtOf(wallet), request({ method: 'eth_getTransactionCount', params: [wallet, 'pending'] })]);
    if (held > 0n || BigInt(sent) > 0n) return;
    const issuer = await impersonated(getAddress(`0x${(await tokenCall(GET_OWNER)).slice(-40)}`));
    const funding = await send(issuer, transfer(wallet, SANDBOX_WALLET_ALLOWANCE * scale), TRANSFER_GAS);
    if (await reverted(funding)) {
      throw new SandboxPaymentReverted(`The issuer's transfer of this company's sandbox USDT reverted (transaction ${funding}): the token may be paused, or the issuer short of USDT`, funding);
    }
  }

  async function payFromCompanyWallet(address: Address, amount: bigint, { companyId }: SandboxPayment): Promise<{ txHash: string }> {
    const wallet = sandboxWalletOf(companyId);
    await withGas(wallet);
    await withAllowance(wallet);
    const held = await usdtOf(wallet);
    if (held < amount * scale) throw new SandboxWalletShort(wallet, held / scale, amount);
    const txHash = await send(await impersonated(wallet), transfer(address, amount * scale), TRANSFER_GAS);
    if (await reverted(txHash)) {
      throw new SandboxPaymentReverted(`The sandbox payment reverted on chain (transaction ${txHash}), so nothing was paid: the token may be paused, or this company's sandbox wallet ${wallet} frozen by the issuer`, txHash);
    }
    return { txHash };
  }

  const inTurn = oneAtATimePerKey();
  return {
    pay: async (address, amount, payment) => {
      if (payment) {
        // One payment at a time per company, so two first payments do not both fund the wallet,
        // and each reads the balance the one before it left.
        return inTurn(payment.companyId, () => payFromCompanyWallet(address as Address, amount, payment));
      }
      return { txHash: await send(SANDBOX_CUSTOMER, transfer(address as Address, amount * scale)) };
    },
  };
}

/** Runs each task once the tasks given before it under the same key have settled, whether they
 * succeeded or failed; tasks under other keys run alongside. */
function oneAtATimePerKey(): <T>(key: string, task: () => Promise<T>) => Promise<T> {
  const lastOf = new Map<string, Promise<unknown>>();
  return (key, task) => {
    const run = (lastOf.get(key) ?? Promise.resolve()).then(task);
    const settled = run.catch(() => undefined);
    lastOf.set(key, settled);
    // Forgotten once nothing waits behind it, so the map holds only the companies paying now.
    void settled.then(() => {
      if (lastOf.get(key) === settled) lastOf.delete(key);
    });
    return run;
  };
}

/** The simulator's payer where the stage's node for the network is a sandbox (the local runtime's
 * anvil); null where it is a real network, where money moves only from a real wallet. */
export const evmSandbox = (name: EvmNetworkName): NetworkSandbox => ({
  payer: (_db, _tableName, settings: SliceSettings<'chain'>) => {
    const network = settings.EVM_NETWORKS[name];
    return network?.sandbox && network.rpcUrl ? evmSandboxPayer(name, network) : null;
  },
});
