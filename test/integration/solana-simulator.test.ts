import { address, type Address } from '@solana/kit';
import { getFreezeAccountInstruction } from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { depositSeedOf, writeDepositOwnersAhead } from '#functions/networks/solana/deposit-owners';
import { SolanaRpcChain } from '#functions/networks/solana/rpc-chain';
import { SOLANA_SANDBOX_CUSTOMER } from '#functions/networks/solana/sandbox-payer';
import type { LocalRuntime } from '#local/runtime';
import { apiClient, startTestApi } from '../support/local-api.ts';
import { signedUpOwner, STRONG_PASSWORD } from '../support/dashboard.ts';
import { localSolanaWallet, sendSolanaTransaction, usdtAccountOf, type SolanaNode } from '../support/solana.ts';
import { usdt } from '../support/money.ts';

/**
 * The dashboard's `Simulate payment` on Solana, through the dashboard API over a real socket, on the
 * local runtime with Solana open as `npm start` opens it (its node in the process, a slot every
 * 400 ms): the simulator's own module (functions/handlers/dashboard-simulator/, a function of its
 * own in AWS) pays a deposit made through /v1 from the node's customer wallet
 * (functions/networks/solana/sandbox-payer.ts), creating the deposit's token account; the audit log
 * names the transaction. A payment the wallet cannot cover and one the token refuses are errors,
 * never a 202, and audit nothing. The chain jobs are off: what was paid is read from the node (the
 * deposit's crediting at `finalized` is test/integration/solana-deposits.test.ts's).
 */
let runtime: LocalRuntime;
let chain: SolanaRpcChain;

beforeAll(async () => {
  runtime = await startTestApi({ solana: true });
  chain = new SolanaRpcChain({ rpcUrl: runtime.solana!.rpcUrl!, rpcTimeoutMs: 5_000 });
  // The sweeper writes the deposit addresses ahead, and its schedule is off here: one block of them.
  const db = createDocumentClient(runtime.dynamoEndpoint);
  try {
    await writeDepositOwnersAhead(db, runtime.tableName, async () => depositSeedOf(runtime.solana!.localDepositSeed!), 0, 1);
  } finally {
    db.destroy();
  }
}, 60_000);
afterAll(() => runtime?.stop());

/** A signed-up Owner of a new sandbox company with a Solana deposit made through /v1. */
async function companyWithSolanaDeposit(name: string) {
  const owner = await signedUpOwner(runtime, name);
  const key = await owner.browser.call('POST', `/companies/${owner.companyId}/api-keys`, { body: { name: 'simulator', password: STRONG_PASSWORD } });
  expect(key.status).toBe(201);
  const created = await apiClient(runtime, key.body.data)('POST', '/deposits', { body: { method: 'usdt', network: 'solana', reference: `${name.toLowerCase().replaceAll(' ', '-')}-order`, amount: '7.5' } });
  expect(created.status).toBe(201);
  const deposit = created.body.data as { id: string; address: Address };
  return {
    deposit,
    simulate: (amount: string) => owner.browser.call('POST', `/companies/${owner.companyId}/simulated-payments`, { body: { depositId: deposit.id, amount } }),
    simulatedInAuditLog: async () =>
      ((await owner.browser.call('GET', `/companies/${owner.companyId}/audit-log`)).body.data as { action: string; details: unknown }[]).filter((entry) => entry.action === 'deposit.payment_simulated'),
  };
}

describe("the dashboard's Simulate payment on Solana", () => {
  it("pays a Solana deposit from the node's customer wallet, creating its token account, and audits the transaction; refuses more than the wallet holds and a payment the token refuses, auditing nothing", async () => {
    const company = await companyWithSolanaDeposit('Solana Sim Co');
    const mint = runtime.solana!.usdtMint;
    expect((await chain.tokenAccounts(mint, [company.deposit.address])).get(company.deposit.address)).toMatchObject({ exists: false });

    const paid = await company.simulate('7.5');
    expect(paid.status).toBe(202);
    const { txHash } = paid.body.data as { txHash: string };
    expect(await chain.receipt(txHash)).toMatchObject({ result: 'SUCCESS', tokenTransfers: [{ to: company.deposit.address, amount: usdt('7.5'), from: SOLANA_SANDBOX_CUSTOMER }] });
    expect(await chain.tokenBalance(mint, company.deposit.address)).toBe(usdt('7.5'));
    expect(await company.simulatedInAuditLog()).toEqual([expect.objectContaining({ details: { amount: '7.5', txHash } })]);

    // More than the customer wallet holds (a million USDT on a new chain): refused before anything is sent.
    const held = await chain.tokenBalance(mint, SOLANA_SANDBOX_CUSTOMER);
    const tooMuch = await company.simulate('1000000');
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', message: expect.stringMatching(/^The sandbox customer wallet holds /), details: { wallet: SOLANA_SANDBOX_CUSTOMER, asked: '1000000.000000' } });
    expect(await chain.tokenBalance(mint, SOLANA_SANDBOX_CUSTOMER)).toBe(held);

    // The issuer froze the deposit's token account: the node's preflight refuses the transfer.
    const issuer = await localSolanaWallet('issuer');
    const node = { url: runtime.solana!.rpcUrl! } as SolanaNode;
    await sendSolanaTransaction(node, issuer.signer, [getFreezeAccountInstruction({ account: await usdtAccountOf(company.deposit.address), mint: address(mint), owner: issuer.signer })]);
    const refused = await company.simulate('1');
    expect(refused.status).toBe(500);
    expect(refused.body.error).toMatchObject({ code: 'INTERNAL_ERROR', message: expect.stringContaining('The sandbox payment failed on the Solana node (transaction ') });
    expect(await chain.receipt((refused.body.error.details as { txHash: string }).txHash)).toBeNull();
    expect(await chain.tokenBalance(mint, company.deposit.address)).toBe(usdt('7.5'));
    expect(await company.simulatedInAuditLog()).toHaveLength(1);
  });
});
