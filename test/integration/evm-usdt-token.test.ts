import { encodeFunctionData, parseEventLogs, parseUnits, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DepositForwarderFactory } from '#functions/networks/evm/contracts';
import { EvmChain } from '#functions/networks/evm/evm-chain';
import { depositForwarderAddress, depositSalt } from '#functions/networks/evm/forwarder-address';
import { EVM_NETWORK_NAMES } from '#functions/networks/evm/settings';
import { Bep20Usdt, TetherUsdt, UpgradedUsdt } from '#functions/networks/evm/usdt-contracts';
import { anvilAccount, CUSTOMER_USDT, localEvmChain, localPublicClient, localWalletClient } from '#local/evm-contracts';
import { evmSandboxIssuer, TokenWithoutControls } from '#local/evm-issuer';
import { startEvmNetworks, type LocalEvmNetworks } from '#local/evm-networks';
import { anvilNetworkSettings, startAnvilWithContracts, type Anvil } from '../support/anvil.ts';

/**
 * The local chains' USDT is each network's mainnet token as contracts/usdt/ reproduces it
 * (../shared/networks.md, "The token as it is on mainnet"), not a plain ERC-20: on ethereum (and
 * polygon, arbitrum) Tether's token, whose issuer freezes, pauses, charges a fee and deprecates;
 * on bsc BEP20USDT, 18 decimals and none of these. Each check here would fail on the plain ERC-20
 * the local chains ran before. The controls are driven as `npm run sandbox:issuer` drives them
 * (local/evm-issuer.ts) and read as the jobs read them (EvmChain's frozenAmong and tokenPaused).
 */
type Node = Awaited<ReturnType<typeof startAnvilWithContracts>>;
let ethereum: Node;
let bsc: Node;
let deprecating: Node;
let started: LocalEvmNetworks;
const nodes: Anvil[] = [];

beforeAll(async () => {
  [ethereum, bsc, deprecating, started] = await Promise.all([
    startAnvilWithContracts({ chainId: 1, usdtDecimals: 6 }),
    startAnvilWithContracts({ chainId: 56, usdtDecimals: 18 }),
    startAnvilWithContracts({ chainId: 1, usdtDecimals: 6 }),
    startEvmNetworks(EVM_NETWORK_NAMES),
  ]);
  nodes.push(ethereum, bsc, deprecating);
}, 60_000);

afterAll(async () => {
  await Promise.all([...nodes.map((node) => node.stop()), started?.stop()]);
});

const usdt6 = (amount: string) => parseUnits(amount, 6);
const newAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;
const issuerOf = (node: Node) => evmSandboxIssuer('ethereum', anvilNetworkSettings(node, { chainId: 1, confirmations: 1 }));
const chainOf = (node: Node) => new EvmChain({ rpcUrl: node.url, finalizedTag: false, confirmations: 1, maxBlockRange: 1_000, tokenDecimals: node.usdtDecimals, tokenControls: node.tokenControls });

async function balanceOf(node: Node, who: Address, token: Address = node.usdt): Promise<bigint> {
  return localPublicClient(node.chain).readContract({ address: token, abi: TetherUsdt.abi, functionName: 'balanceOf', args: [who] });
}

/** A transfer of `amount` from the customer, sent with a fixed gas limit so that a refusal is mined as
 * a reverted transaction rather than refused at estimation. */
async function customerTransfer(node: Node, to: Address, amount: bigint, token: Address = node.usdt) {
  const hash = await localWalletClient(node.chain, node.customer).writeContract({ address: token, abi: TetherUsdt.abi, functionName: 'transfer', args: [to, amount], gas: 300_000n });
  return localPublicClient(node.chain).waitForTransactionReceipt({ hash });
}

describe('each network of npm start runs its mainnet token', () => {
  it("ethereum, polygon and arbitrum: TetherUsdt with 6 decimals, owned by the issuer, its controls readable; bsc: Bep20Usdt with 18 and no freeze list", async () => {
    const issuer = anvilAccount.issuer().address;
    for (const name of EVM_NETWORK_NAMES) {
      const network = started.settings[name]!;
      const client = localPublicClient(localEvmChain(network.rpcUrl!, network.chainId));
      const token = network.usdtContract as Address;
      const customer = anvilAccount.customer().address;
      expect(await client.readContract({ address: token, abi: TetherUsdt.abi, functionName: 'getOwner' }), name).toBe(issuer);
      if (name === 'bsc') {
        expect(network.tokenControls).toBe('none');
        expect(await client.readContract({ address: token, abi: Bep20Usdt.abi, functionName: 'decimals' })).toBe(18);
        expect(await client.readContract({ address: token, abi: Bep20Usdt.abi, functionName: 'balanceOf', args: [customer] })).toBe(CUSTOMER_USDT * 10n ** 18n);
        await expect(client.readContract({ address: token, abi: TetherUsdt.abi, functionName: 'isBlackListed', args: [customer] })).rejects.toThrow();
      } else {
        expect(network.tokenControls, name).toBe('tether');
        expect(await client.readContract({ address: token, abi: TetherUsdt.abi, functionName: 'decimals' }), name).toBe(6n);
        expect(await client.readContract({ address: token, abi: TetherUsdt.abi, functionName: 'isBlackListed', args: [customer] }), name).toBe(false);
        expect(await client.readContract({ address: token, abi: TetherUsdt.abi, functionName: 'paused' }), name).toBe(false);
        expect(await client.readContract({ address: token, abi: TetherUsdt.abi, functionName: 'basisPointsRate' }), name).toBe(0n);
        expect(await client.readContract({ address: token, abi: TetherUsdt.abi, functionName: 'balanceOf', args: [customer] }), name).toBe(CUSTOMER_USDT * 10n ** 6n);
      }
    }
  });

  it("Tether's transfer returns nothing, BEP20USDT's returns true", async () => {
    const call = (node: Node) =>
      localPublicClient(node.chain).call({ account: node.customer.address, to: node.usdt, data: encodeFunctionData({ abi: TetherUsdt.abi, functionName: 'transfer', args: [newAddress(), 1n] }) });
    expect((await call(ethereum)).data).toBeUndefined();
    expect((await call(bsc)).data).toBe(`0x${'0'.repeat(63)}1`);
  });
});

describe("ethereum's TetherUsdt under its issuer", () => {
  it('a frozen address cannot send (transfer, nor as transferFrom\'s from) but still receives; frozenAmong names it; unfrozen, it sends again', async () => {
    const issuer = issuerOf(ethereum);
    const chain = chainOf(ethereum);
    const customer = ethereum.customer.address;
    const stranger = newAddress();

    await issuer.freeze(customer);

    expect(await chain.frozenAmong(ethereum.usdt, [stranger, customer])).toEqual(new Set([customer]));
    expect((await customerTransfer(ethereum, stranger, usdt6('1'))).status).toBe('reverted');
    // transferFrom with the frozen address as `from`, by a spender it approved before.
    const spender = localWalletClient(ethereum.chain, ethereum.deployer);
    const client = localPublicClient(ethereum.chain);
    await client.waitForTransactionReceipt({ hash: await localWalletClient(ethereum.chain, ethereum.customer).writeContract({ address: ethereum.usdt, abi: TetherUsdt.abi, functionName: 'approve', args: [ethereum.deployer.address, usdt6('5')] }) });
    const pulled = await spender.writeContract({ address: ethereum.usdt, abi: TetherUsdt.abi, functionName: 'transferFrom', args: [customer, stranger, usdt6('1')], gas: 300_000n });
    expect((await client.waitForTransactionReceipt({ hash: pulled })).status).toBe('reverted');
    // It still receives.
    const before = await balanceOf(ethereum, customer);
    await client.waitForTransactionReceipt({ hash: await spender.writeContract({ address: ethereum.usdt, abi: TetherUsdt.abi, functionName: 'transfer', args: [customer, usdt6('2')] }) });
    expect(await balanceOf(ethereum, customer)).toBe(before + usdt6('2'));

    await issuer.unfreeze(customer);

    expect(await chain.frozenAmong(ethereum.usdt, [stranger, customer])).toEqual(new Set());
    expect((await customerTransfer(ethereum, stranger, usdt6('1'))).status).toBe('success');
    expect(await balanceOf(ethereum, stranger)).toBe(usdt6('1'));
  });

  it("destroyBlackFunds erases a frozen address's balance from it and the supply, with no Transfer event", async () => {
    const victim = newAddress();
    await customerTransfer(ethereum, victim, usdt6('7'));
    await issuerOf(ethereum).freeze(victim);
    const client = localPublicClient(ethereum.chain);
    const supply = await client.readContract({ address: ethereum.usdt, abi: TetherUsdt.abi, functionName: 'totalSupply' });

    const hash = await localWalletClient(ethereum.chain, ethereum.issuer).writeContract({ address: ethereum.usdt, abi: TetherUsdt.abi, functionName: 'destroyBlackFunds', args: [victim] });
    const receipt = await client.waitForTransactionReceipt({ hash });

    expect(receipt.status).toBe('success');
    expect(await balanceOf(ethereum, victim)).toBe(0n);
    expect(await client.readContract({ address: ethereum.usdt, abi: TetherUsdt.abi, functionName: 'totalSupply' })).toBe(supply - usdt6('7'));
    expect(parseEventLogs({ abi: TetherUsdt.abi, eventName: 'Transfer', logs: receipt.logs })).toEqual([]);
    expect(parseEventLogs({ abi: TetherUsdt.abi, eventName: 'DestroyedBlackFunds', logs: receipt.logs })[0]?.args).toEqual({ _blackListedUser: victim, _balance: usdt6('7') });
  });

  it('paused, every transfer reverts and tokenPaused says so; unpaused, transfers go through', async () => {
    const issuer = issuerOf(ethereum);
    const chain = chainOf(ethereum);
    const to = newAddress();

    await issuer.pause();
    await issuer.pause(); // a second pause does nothing (Tether's pause() would revert)

    expect(await chain.tokenPaused(ethereum.usdt)).toBe(true);
    expect((await customerTransfer(ethereum, to, usdt6('1'))).status).toBe('reverted');

    await issuer.unpause();

    expect(await chain.tokenPaused(ethereum.usdt)).toBe(false);
    expect((await customerTransfer(ethereum, to, usdt6('1'))).status).toBe('success');
  });

  it('with a fee, the recipient gets value − fee and the issuer the fee, each with its own Transfer event; the fee stops at its maximum', async () => {
    const issuer = issuerOf(ethereum);
    const to = newAddress();
    const owner = ethereum.issuer.address;
    try {
      await issuer.setFee(10, usdt6('49'));
      const before = await balanceOf(ethereum, owner);

      const receipt = await customerTransfer(ethereum, to, usdt6('1000'));

      expect(await balanceOf(ethereum, to)).toBe(usdt6('999'));
      expect(await balanceOf(ethereum, owner)).toBe(before + usdt6('1'));
      const transfers = parseEventLogs({ abi: TetherUsdt.abi, eventName: 'Transfer', logs: receipt.logs }).map(({ args }) => args);
      expect(transfers).toEqual([
        { from: ethereum.customer.address, to: owner, value: usdt6('1') },
        { from: ethereum.customer.address, to, value: usdt6('999') },
      ]);

      // 19 basis points of 1000 is 1.9, above a maximum of 1: the fee is 1.
      await issuer.setFee(19, usdt6('1'));
      await customerTransfer(ethereum, to, usdt6('1000'));
      expect(await balanceOf(ethereum, to)).toBe(usdt6('1998'));
    } finally {
      await issuer.setFee(0, 0n);
    }
  });

  it("refuses a fee Tether's setParams would not take, and only the issuer may use the controls", async () => {
    const issuer = issuerOf(ethereum);
    await expect(issuer.setFee(20, 0n)).rejects.toThrow(RangeError);
    await expect(issuer.setFee(10, usdt6('50'))).rejects.toThrow(RangeError);
    await expect(issuer.setFee(10, usdt6('1.5'))).rejects.toThrow(RangeError);
    const client = localPublicClient(ethereum.chain);
    await expect(client.simulateContract({ account: ethereum.issuer, address: ethereum.usdt, abi: TetherUsdt.abi, functionName: 'setParams', args: [20n, 0n] })).rejects.toThrow();
    for (const call of [
      { functionName: 'addBlackList', args: [ethereum.customer.address] },
      { functionName: 'pause', args: [] },
      { functionName: 'setParams', args: [1n, 1n] },
      { functionName: 'issue', args: [1n] },
      { functionName: 'deprecate', args: [ethereum.customer.address] },
    ] as const) {
      await expect(client.simulateContract({ account: ethereum.customer, address: ethereum.usdt, abi: TetherUsdt.abi, ...call } as never), call.functionName).rejects.toThrow();
    }
  });
});

describe('deprecation', () => {
  it('after deprecate, a payment through the old contract or the upgraded one moves the same balances, and the Transfer event is the upgraded contract\'s', async () => {
    const node = deprecating;
    const client = localPublicClient(node.chain);
    const to = newAddress();
    const customerBefore = await balanceOf(node, node.customer.address);

    const { upgradedContract } = await issuerOf(node).deprecate();
    const upgraded = upgradedContract as Address;

    expect(await client.readContract({ address: node.usdt, abi: TetherUsdt.abi, functionName: 'deprecated' })).toBe(true);
    expect(await client.readContract({ address: node.usdt, abi: TetherUsdt.abi, functionName: 'upgradedAddress' })).toBe(upgraded);
    // Balances carry over, read through either contract.
    expect(await balanceOf(node, node.customer.address, upgraded)).toBe(customerBefore);
    expect(await balanceOf(node, node.customer.address)).toBe(customerBefore);

    const throughOld = await customerTransfer(node, to, usdt6('3'));
    expect(throughOld.status).toBe('success');
    expect(throughOld.logs.map((log) => log.address.toLowerCase())).toEqual([upgraded.toLowerCase()]);
    expect(parseEventLogs({ abi: UpgradedUsdt.abi, eventName: 'Transfer', logs: throughOld.logs })[0]?.args).toEqual({ from: node.customer.address, to, value: usdt6('3') });

    const throughNew = await customerTransfer(node, to, usdt6('4'), upgraded);
    expect(throughNew.status).toBe('success');
    expect(throughNew.logs.map((log) => log.address.toLowerCase())).toEqual([upgraded.toLowerCase()]);

    for (const token of [node.usdt, upgraded]) {
      expect(await balanceOf(node, to, token)).toBe(usdt6('7'));
      expect(await balanceOf(node, node.customer.address, token)).toBe(customerBefore - usdt6('7'));
    }
    // Deprecating again changes nothing.
    expect(await issuerOf(node).deprecate()).toEqual({ upgradedContract: upgraded });
  });

  it('once deprecated, the controls act on the upgraded contract: a frozen sender is refused through either contract, a paused token too', async () => {
    const node = deprecating;
    const issuer = issuerOf(node);
    const upgraded = (await issuer.deprecate()).upgradedContract as Address;
    const chain = chainOf(node);
    const to = newAddress();

    await issuer.freeze(node.customer.address);
    expect(await chain.frozenAmong(upgraded, [node.customer.address, to])).toEqual(new Set([node.customer.address]));
    expect((await customerTransfer(node, to, usdt6('1'))).status).toBe('reverted');
    expect((await customerTransfer(node, to, usdt6('1'), upgraded)).status).toBe('reverted');
    await issuer.unfreeze(node.customer.address);

    await issuer.pause();
    expect(await chain.tokenPaused(upgraded)).toBe(true);
    expect((await customerTransfer(node, to, usdt6('1'))).status).toBe('reverted');
    await issuer.unpause();
    expect((await customerTransfer(node, to, usdt6('1'))).status).toBe('success');
    expect(await balanceOf(node, to, upgraded)).toBe(usdt6('1'));
  });

  it("a deposit address paid through the deprecated contract is swept through it (the forwarder's SafeERC20 copes with Tether's no-bool transfer)", async () => {
    const node = deprecating;
    const client = localPublicClient(node.chain);
    const salt = depositSalt('dep_01JQ7Z8X4M2N6P0R3S5T7V9DEP');
    const address = depositForwarderAddress({ factory: node.factory, implementation: node.implementation, salt });
    await customerTransfer(node, address, usdt6('12'));
    const hotBefore = await balanceOf(node, node.hotWallet.address);

    const hash = await localWalletClient(node.chain, node.hotWallet).writeContract({ address: node.factory, abi: DepositForwarderFactory.abi, functionName: 'sweep', args: [node.usdt, [salt], node.hotWallet.address] });

    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');
    expect(await balanceOf(node, address)).toBe(0n);
    expect(await balanceOf(node, node.hotWallet.address)).toBe(hotBefore + usdt6('12'));
  });
});

describe('bsc, whose BEP20USDT has no issuer controls', () => {
  it('frozenAmong and tokenPaused answer "none frozen, not paused" from the setting, without asking the node', async () => {
    // No node listens on port 9: any read would fail.
    const offline = new EvmChain({ rpcUrl: 'http://127.0.0.1:9', finalizedTag: false, confirmations: 1, maxBlockRange: 1_000, tokenDecimals: 18, tokenControls: 'none' });

    expect(await offline.frozenAmong(bsc.usdt, [bsc.customer.address])).toEqual(new Set());
    expect(await offline.tokenPaused(bsc.usdt)).toBe(false);
  });

  it('a setting that claims Tether\'s controls on it gets an error from the node, never "not frozen"', async () => {
    const wrong = new EvmChain({ rpcUrl: bsc.url, finalizedTag: false, confirmations: 1, maxBlockRange: 1_000, tokenDecimals: 18, tokenControls: 'tether' });

    await expect(wrong.frozenAmong(bsc.usdt, [bsc.customer.address])).rejects.toThrow();
    await expect(wrong.tokenPaused(bsc.usdt)).rejects.toThrow();
  });

  it('has no issuer to drive', () => {
    expect(() => evmSandboxIssuer('bsc', anvilNetworkSettings(bsc, { chainId: 56, confirmations: 1 }))).toThrow(TokenWithoutControls);
  });
});

