import { createPublicClient, erc20Abi, http, type Address, type Hash } from 'viem';
import { describe, expect, it } from 'vitest';
import { evmSandboxPayer, SANDBOX_WALLET_ALLOWANCE, sandboxWalletOf } from '#functions/networks/evm/sandbox-payer';
import { SandboxWalletShort } from '#functions/networks/network';
import { formatAmount } from '#functions/shared/money';
import { apiClient, useTestApi } from '../support/local-api.ts';
import { signedUpOwner, STRONG_PASSWORD } from '../support/dashboard.ts';
import { evmSandboxIssuer } from '#local/evm-issuer';
import { usdt } from '../support/money.ts';

/**
 * The dashboard's `Simulate payment` on the local runtime's ethereum and bsc nodes (anvil, a block
 * a second) pays from a wallet per company, given SANDBOX_WALLET_ALLOWANCE once: a company that asks
 * for more than its wallet holds is refused (422 INSUFFICIENT_BALANCE, nothing audited, nothing
 * sent), one that spends it all stops only its own simulator, and another company's payment still
 * lands. A payment the chain reverts is an error, never a 202. The chain pollers are off: what was
 * paid is read from the node itself.
 */
const api = useTestApi(undefined, { evmNetworks: ['ethereum', 'bsc'] });

/** USDT held on chain, in the token's own decimals: USDT's 6 on ethereum, 18 on bsc. */
const node = (network: 'ethereum' | 'bsc' = 'ethereum') => {
  const settings = api.runtime.evmNetworks[network]!;
  const client = createPublicClient({ transport: http(settings.rpcUrl) });
  return {
    usdtOf: (address: string) => client.readContract({ address: settings.usdtContract as Address, abi: erc20Abi, functionName: 'balanceOf', args: [address as Address] }),
    receipt: (hash: string) => client.getTransactionReceipt({ hash: hash as Hash }),
  };
};

/** A signed-up Owner of a new sandbox company, with a deposit on `network` made through /v1. */
async function companyWithDeposit(name: string, network: 'ethereum' | 'bsc' = 'ethereum') {
  const owner = await signedUpOwner(api.runtime, name);
  const key = await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'simulator', password: STRONG_PASSWORD } });
  expect(key.status).toBe(201);
  const created = await apiClient(api.runtime, key.body.data)('POST', '/deposits', { body: { method: 'usdt', network, reference: `${name.toLowerCase().replaceAll(" ", "-")}-order`, amount: '5' } });
  expect(created.status).toBe(201);
  const deposit = created.body.data as { id: string; address: string };
  return {
    ...owner,
    deposit,
    simulate: (amount: string) => owner.browser.call('POST', `/companies/${owner.companyId}/simulated-payments`, { body: { depositId: deposit.id, amount } }),
    simulatedInAuditLog: async () =>
      ((await owner.browser.call('GET', `/companies/${owner.companyId}/audit-log`)).body.data as { action: string; details: unknown }[]).filter((entry) => entry.action === 'deposit.payment_simulated'),
  };
}

const allowance = formatAmount(SANDBOX_WALLET_ALLOWANCE, 'USDT');
const oneUnitMore = formatAmount(SANDBOX_WALLET_ALLOWANCE + 1n, 'USDT');

describe("the simulator's wallet per company on a local EVM node", () => {
  it("refuses more than the company's wallet holds, then pays all of it, then refuses one unit more; another company still pays", async () => {
    const [a, b] = await Promise.all([companyWithDeposit('Wallet A'), companyWithDeposit('Wallet B')]);
    const [walletA, walletB] = [sandboxWalletOf(a.companyId), sandboxWalletOf(b.companyId)];
    expect(walletA).not.toBe(walletB);

    // More than the allowance: refused before anything is sent, and not in the audit log.
    const tooMuch = await a.simulate(oneUnitMore);
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body).toMatchObject({
      success: false,
      error: {
        code: 'INSUFFICIENT_BALANCE',
        message: expect.stringContaining(`The sandbox wallet of this company holds ${allowance} USDT, less than the ${oneUnitMore} asked`),
        details: { wallet: walletA, held: allowance, asked: oneUnitMore },
      },
    });
    expect(await node().usdtOf(a.deposit.address)).toBe(0n);
    expect(await a.simulatedInAuditLog()).toEqual([]);

    // Exactly the allowance: paid, on chain and in the audit log.
    const all = await a.simulate(allowance);
    expect(all.status).toBe(202);
    expect((await node().receipt(all.body.data.txHash)).status).toBe('success');
    expect(await node().usdtOf(a.deposit.address)).toBe(SANDBOX_WALLET_ALLOWANCE);
    expect(await node().usdtOf(walletA)).toBe(0n);
    expect(await a.simulatedInAuditLog()).toEqual([expect.objectContaining({ details: { amount: allowance, txHash: all.body.data.txHash } })]);

    // Spent: the wallet is not given its allowance again.
    const oneMore = await a.simulate('0.000001');
    expect(oneMore.status).toBe(422);
    expect(oneMore.body.error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', message: expect.stringContaining('holds 0.000000 USDT, less than the 0.000001 asked') });
    expect(await a.simulatedInAuditLog()).toHaveLength(1);
    expect(await node().usdtOf(a.deposit.address)).toBe(SANDBOX_WALLET_ALLOWANCE);

    // Another company's simulator is untouched: its payment lands at its deposit address.
    const paid = await b.simulate('12.5');
    expect(paid.status).toBe(202);
    expect((await node().receipt(paid.body.data.txHash)).status).toBe('success');
    expect(await node().usdtOf(b.deposit.address)).toBe(usdt('12.5'));
    expect(await node().usdtOf(walletB)).toBe(SANDBOX_WALLET_ALLOWANCE - usdt('12.5'));
    expect(await b.simulatedInAuditLog()).toEqual([expect.objectContaining({ details: { amount: '12.5', txHash: paid.body.data.txHash } })]);

    // What was funded is read from the chain, so a payer made afresh (the API process restarted)
    // does not give company A its allowance again.
    const afresh = evmSandboxPayer('ethereum', api.runtime.evmNetworks.ethereum!);
    await expect(afresh.pay(a.deposit.address, 1n, { companyId: a.companyId })).rejects.toBeInstanceOf(SandboxWalletShort);
    expect(await node().usdtOf(walletA)).toBe(0n);
  });

  it('funds a wallet once when its first two payments come together', async () => {
    const c = await companyWithDeposit('Wallet C');
    const answers = await Promise.all([c.simulate('1'), c.simulate('2')]);
    expect(answers.map((answer) => answer.status)).toEqual([202, 202]);
    expect(await node().usdtOf(c.deposit.address)).toBe(usdt('3'));
    expect(await node().usdtOf(sandboxWalletOf(c.companyId))).toBe(SANDBOX_WALLET_ALLOWANCE - usdt('3'));
    expect(await c.simulatedInAuditLog()).toHaveLength(2);
  });

  it('answers an error, never 202, when the payment reverts on chain (the issuer froze the wallet), and audits nothing', async () => {
    const d = await companyWithDeposit('Wallet D');
    const wallet = sandboxWalletOf(d.companyId);
    expect((await d.simulate('1')).status).toBe(202);
    const issuer = evmSandboxIssuer('ethereum', api.runtime.evmNetworks.ethereum!);
    await issuer.freeze(wallet);
    try {
      const refused = await d.simulate('2');
      expect(refused.status).toBe(500);
      expect(refused.body.error).toMatchObject({ code: 'INTERNAL_ERROR', message: expect.stringContaining('The sandbox payment reverted on chain (transaction 0x') });
      const txHash = (refused.body.error.details as { txHash: string }).txHash;
      expect((await node().receipt(txHash)).status).toBe('reverted');
      expect(await node().usdtOf(d.deposit.address)).toBe(usdt('1'));
      expect(await d.simulatedInAuditLog()).toHaveLength(1);
    } finally {
      await issuer.unfreeze(wallet);
    }
  });

  it("pays on bsc too, whose token (BEP20USDT) has 18 decimals: the company's wallet there is funded on that node, and the amount scaled", async () => {
    const e = await companyWithDeposit('Wallet E', 'bsc');
    const paid = await e.simulate('0.5');
    expect(paid.status).toBe(202);
    const toEighteen = 10n ** 12n;
    expect(await node('bsc').usdtOf(e.deposit.address)).toBe(usdt('0.5') * toEighteen);
    expect(await node('bsc').usdtOf(sandboxWalletOf(e.companyId))).toBe((SANDBOX_WALLET_ALLOWANCE - usdt('0.5')) * toEighteen);
    // Its wallet on ethereum is the same address, not funded until it pays there.
    expect(await node('ethereum').usdtOf(sandboxWalletOf(e.companyId))).toBe(0n);
  });
});
