import { parseEventLogs, parseUnits, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DepositForwarder, DepositForwarderFactory } from '#functions/networks/evm/contracts';
import { TetherUsdt } from '#functions/networks/evm/usdt-contracts';
import { depositForwarderAddress, depositSalt, forwarderImplementationAddress } from '#functions/networks/evm/forwarder-address';
import { localPublicClient, localWalletClient } from '#local/evm-contracts';
import { startAnvilWithContracts, type Anvil } from '../support/anvil.ts';

/**
 * The deposit forwarders on real anvil nodes: an address handed out offline receives USDT with no
 * code there, and one transaction from the hot wallet deploys and empties many such addresses.
 * Ethereum's USDT has 6 decimals and BSC's 18 (../shared/networks.md): both are run.
 */
type Node = Awaited<ReturnType<typeof startAnvilWithContracts>>;
let ethereum: Node;
let bsc: Node;
const nodes: Anvil[] = [];

beforeAll(async () => {
  [ethereum, bsc] = await Promise.all([startAnvilWithContracts({ chainId: 1, usdtDecimals: 6 }), startAnvilWithContracts({ chainId: 56, usdtDecimals: 18 })]);
  nodes.push(ethereum, bsc);
});

afterAll(async () => {
  await Promise.all(nodes.map((node) => node.stop()));
});

const usdt = (node: Node, amount: string) => parseUnits(amount, node.usdtDecimals);
const offlineAddress = (node: Node, depositId: string) => depositForwarderAddress({ factory: node.factory, implementation: forwarderImplementationAddress(node.factory), salt: depositSalt(depositId) });

/** balanceOf and transfer(address,uint256) are the same calls on ethereum's TetherUsdt and bsc's
 * Bep20Usdt (whose transfer also returns true, which a transaction sent without simulation never reads). */
async function balanceOf(node: Node, owner: Address): Promise<bigint> {
  return localPublicClient(node.chain).readContract({ address: node.usdt, abi: TetherUsdt.abi, functionName: 'balanceOf', args: [owner] });
}

async function customerPays(node: Node, to: Address, amount: bigint): Promise<void> {
  const hash = await localWalletClient(node.chain, node.customer).writeContract({ address: node.usdt, abi: TetherUsdt.abi, functionName: 'transfer', args: [to, amount] });
  await localPublicClient(node.chain).waitForTransactionReceipt({ hash });
}

/** One sweep transaction from the hot wallet to itself; its receipt and the Swept events it logged. */
async function sweep(node: Node, depositIds: string[]) {
  const publicClient = localPublicClient(node.chain);
  const hash = await localWalletClient(node.chain, node.hotWallet).writeContract({
    address: node.factory,
    abi: DepositForwarderFactory.abi,
    functionName: 'sweep',
    args: [node.usdt, depositIds.map(depositSalt), node.hotWallet.address],
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  const swept = parseEventLogs({ abi: DepositForwarderFactory.abi, eventName: 'Swept', logs: receipt.logs }).map(({ args }) => ({ salt: args.salt as Hex, forwarder: args.forwarder, amount: args.amount }));
  return { receipt, swept };
}

describe('a deposit address computed offline', () => {
  it("is the factory's predictAddress for the deposit's salt, with no code until a sweep", async () => {
    const publicClient = localPublicClient(ethereum.chain);
    const salt = depositSalt('dep_01JQ7Z8X4M2N6P0R3S5T7V9W1Y');

    const predicted = await publicClient.readContract({ address: ethereum.factory, abi: DepositForwarderFactory.abi, functionName: 'predictAddress', args: [salt] });

    expect(forwarderImplementationAddress(ethereum.factory)).toBe(ethereum.implementation);
    expect(depositForwarderAddress({ factory: ethereum.factory, implementation: ethereum.implementation, salt })).toBe(predicted);
    expect(await publicClient.getCode({ address: predicted })).toBeUndefined();
    expect(depositSalt('dep_01JQ7Z8X4M2N6P0R3S5T7V9W1Y')).not.toBe(depositSalt('dep_01JQ7Z8X4M2N6P0R3S5T7V9W1Z'));
  });
});

describe('sweep', () => {
  it.each([
    ['ethereum (USDT with 6 decimals)', () => ethereum],
    ['bsc (USDT with 18 decimals)', () => bsc],
  ])('deploys two paid addresses and moves their sum to the hot wallet in one transaction on %s', async (name, node) => {
    const chain = node();
    const [first, second] = ['dep_sweep_first', 'dep_sweep_second'];
    await customerPays(chain, offlineAddress(chain, first), usdt(chain, '12.5'));
    await customerPays(chain, offlineAddress(chain, second), usdt(chain, '7.25'));
    const nonceBefore = await localPublicClient(chain.chain).getTransactionCount({ address: chain.hotWallet.address });
    // The local runtime gives the hot wallet USDT of its own for withdrawals: the sweep adds to it.
    const heldBefore = await balanceOf(chain, chain.hotWallet.address);

    const { receipt, swept } = await sweep(chain, [first, second]);

    expect(receipt.status).toBe('success');
    expect(await localPublicClient(chain.chain).getTransactionCount({ address: chain.hotWallet.address })).toBe(nonceBefore + 1);
    expect(swept).toEqual([
      { salt: depositSalt(first), forwarder: offlineAddress(chain, first), amount: usdt(chain, '12.5') },
      { salt: depositSalt(second), forwarder: offlineAddress(chain, second), amount: usdt(chain, '7.25') },
    ]);
    expect((await balanceOf(chain, chain.hotWallet.address)) - heldBefore).toBe(usdt(chain, '19.75'));
    for (const id of [first, second]) {
      expect(await balanceOf(chain, offlineAddress(chain, id))).toBe(0n);
      expect(await localPublicClient(chain.chain).getCode({ address: offlineAddress(chain, id) })).toMatch(/^0x363d3d373d3d3d363d73/);
    }
    console.info(`${name}: sweep of 2 new addresses used ${receipt.gasUsed} gas, ${receipt.gasUsed / 2n} per address`);
    // A clone's deployment (32k for CREATE2 plus its code) and a token transfer: far below a full contract per address.
    expect(receipt.gasUsed / 2n).toBeLessThan(120_000n);
  });

  it('flushes an address deployed by an earlier sweep next to a new one, and skips one holding nothing', async () => {
    const [earlier, fresh, unpaid] = ['dep_again_earlier', 'dep_again_fresh', 'dep_again_unpaid'];
    await customerPays(ethereum, offlineAddress(ethereum, earlier), usdt(ethereum, '1'));
    await sweep(ethereum, [earlier]);
    await customerPays(ethereum, offlineAddress(ethereum, earlier), usdt(ethereum, '2'));
    await customerPays(ethereum, offlineAddress(ethereum, fresh), usdt(ethereum, '3'));
    const hotWalletBefore = await balanceOf(ethereum, ethereum.hotWallet.address);

    const { receipt, swept } = await sweep(ethereum, [earlier, unpaid, fresh]);

    expect(receipt.status).toBe('success');
    expect(swept.map(({ salt, amount }) => [salt, amount])).toEqual([
      [depositSalt(earlier), usdt(ethereum, '2')],
      [depositSalt(fresh), usdt(ethereum, '3')],
    ]);
    expect(await balanceOf(ethereum, ethereum.hotWallet.address)).toBe(hotWalletBefore + usdt(ethereum, '5'));
    expect(await localPublicClient(ethereum.chain).getCode({ address: offlineAddress(ethereum, unpaid) })).toBeUndefined();
    console.info(`ethereum: sweep of 1 deployed + 1 new + 1 empty address used ${receipt.gasUsed} gas`);
  });

  it('is refused to anyone but the hot wallet, and a deployed forwarder obeys only the factory', async () => {
    const id = 'dep_refused';
    await customerPays(ethereum, offlineAddress(ethereum, id), usdt(ethereum, '4'));
    await sweep(ethereum, [id]);
    await customerPays(ethereum, offlineAddress(ethereum, id), usdt(ethereum, '6'));
    const customerWallet = localWalletClient(ethereum.chain, ethereum.customer);

    await expect(
      customerWallet.writeContract({ address: ethereum.factory, abi: DepositForwarderFactory.abi, functionName: 'sweep', args: [ethereum.usdt, [depositSalt(id)], ethereum.customer.address] }),
    ).rejects.toThrow(/OwnableUnauthorizedAccount/);
    await expect(
      customerWallet.writeContract({ address: offlineAddress(ethereum, id), abi: DepositForwarder.abi, functionName: 'flush', args: [ethereum.usdt, ethereum.customer.address] }),
    ).rejects.toThrow(/NotFactory/);
    expect(await balanceOf(ethereum, offlineAddress(ethereum, id))).toBe(usdt(ethereum, '6'));
  });
});
