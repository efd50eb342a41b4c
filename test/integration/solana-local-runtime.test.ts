import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSolanaRpc, generateKeyPairSigner, signature as signatureOf, type Address } from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoScreeningStore } from '#adapters/dynamo/screening-store';
import { readItem } from '#adapters/dynamo/queries';
import { TOKEN_ACCOUNT_BYTES } from '#functions/networks/solana/chain';
import { depositOwnersItem } from '#functions/networks/solana/deposit-owner-record';
import { solanaChainOf } from '#functions/networks/solana/from-settings';
import { DynamoSolanaSweepStore } from '#functions/networks/solana/sweep-store';
import { addStageEntry } from '#functions/screening/screening-import';
import { formatAmount } from '#functions/shared/money';
import type { LocalRuntime } from '#local/runtime';
import { LOCAL_SOLANA_HOT_WALLET } from '#local/solana-runtime';
import { newCompany, startTestApi } from '../support/local-api.ts';
import { expectLedgerMatchesBalances, usdt } from '../support/money.ts';
import { runOpsCommand } from '../support/ops-commands.ts';
import { solanaSignerFrom } from '#functions/networks/solana/signer';
import { customerPaysEach, solanaEndpointOf } from '../support/solana.ts';
import { waitFor } from '../support/wait.ts';

/**
 * USDT on Solana end to end on the local runtime as `npm start` opens it (local/solana-runtime.ts:
 * its node in the process, the chain jobs on their timer, the API over a real socket), the issue's
 * "Done when": a deposit made with the API and paid from the customer wallet with `npm run
 * sandbox:pay` completes at `finalized`, credited the exact amount, by the runtime's own poller; a
 * withdrawal to a wallet with no USDT account is paid by the runtime's sender, the account created
 * and its balance grown by exactly the amount; ten paid deposits are swept by the runtime's sweeper in
 * ceil(10 / capacity) transactions, their token accounts closed; a sanctioned Solana address is
 * refused; `npm run reconcile` balances, Solana included.
 *
 * Slots pass every 100 ms, not npm start's 400 ms (finality 32 slots deep: 3.2 s, not 12.8 s), so
 * the file stays short; nothing else differs. The tests run in order: the sweep counts its
 * transactions, so no other deposit may be due beside its ten.
 */
const workDir = mkdtempSync(join(tmpdir(), 'cambio-solana-e2e-'));
const SLOT_MS = 100;
const WITHIN_MS = 30_000;
/** A Solana transaction's id: its first signature, 64 bytes in base58. */
const SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{86,88}$/;
let runtime: LocalRuntime;
let db: ReturnType<typeof createDocumentClient>;
let company: Awaited<ReturnType<typeof newCompany>>;

const network = () => runtime.solana!;
const chain = () => solanaChainOf({ SOLANA: network() });
const mint = () => network().usdtMint;
const sandboxPay = (...args: string[]) => runOpsCommand('ops/sandbox-pay.ts', args, {}, workDir);
const depositOf = async (id: string) => (await company.call('GET', `/deposits/${id}`)).body.data;
const completed = (id: string) => waitFor(() => depositOf(id), (deposit) => deposit.status === 'completed', WITHIN_MS);
/** The withdrawal once the runtime's sender has completed or failed it. */
const finished = (id: string) =>
  waitFor(async () => (await company.call('GET', `/withdrawals/${id}`)).body.data, (withdrawal) => withdrawal.status === 'completed' || withdrawal.status === 'failed', WITHIN_MS);

const sweepStore = () => new DynamoSolanaSweepStore(db, runtime.tableName);
/** Until the runtime's sweeper has swept every credited deposit and its sweeps are final: nothing
 * due, nothing in flight. */
async function sweptAndSettled() {
  const sweeps = sweepStore();
  const left = await waitFor(async () => (await sweeps.openSweeps()).length + (await sweeps.dueAddresses(10)).due.length, (count) => count === 0, WITHIN_MS);
  expect(left).toBe(0);
}

/** A Solana deposit made with the API. */
async function newDeposit(reference: string, amount: string) {
  const created = await company.call('POST', '/deposits', { body: { method: 'usdt', network: 'solana', reference, amount } });
  expect(created.status).toBe(201);
  return created.body.data as { id: string; address: string; requiredConfirmations: number };
}

beforeAll(async () => {
  runtime = await startTestApi({ dataDir: join(workDir, '.data'), solana: true, solanaSlotIntervalMs: SLOT_MS, pollIntervalMs: 200 });
  db = createDocumentClient(runtime.dynamoEndpoint);
  company = await newCompany(runtime, 'Solana E2E Co');
  // The runtime's sweeper writes the deposit addresses ahead on its first run
  // (functions/networks/solana/deposit-owners.ts); deposit creation answers 503 until then.
  await waitFor(() => readItem(db, runtime.tableName, depositOwnersItem.writtenKey()), (marker) => marker !== null, WITHIN_MS);
}, 60_000);

afterAll(async () => {
  db?.destroy();
  await runtime?.stop();
  rmSync(workDir, { recursive: true, force: true });
});

describe('npm start with Solana open', () => {
  it('a deposit paid from the customer wallet with npm run sandbox:pay is seen confirming, then completed at finalized by the runtime\'s poller, credited the exact amount', async () => {
    const deposit = await newDeposit('sol-e2e-pay', '25');
    expect(deposit).toMatchObject({ requiredConfirmations: 32 });
    expect((await chain().tokenAccounts(mint(), [deposit.address])).get(deposit.address)).toMatchObject({ exists: false });

    const paid = await sandboxPay('--network', 'solana', '--address', deposit.address, '--amount', '25', '--json');
    expect(paid.stderr).toBe('');
    expect(paid.status).toBe(0);
    const { txHash } = JSON.parse(paid.stdout) as { txHash: string };
    expect(txHash).toMatch(SIGNATURE);

    // Seen, not credited, until its slot is final.
    const statuses = new Set<string>();
    const done = await waitFor(
      async () => {
        const now = await depositOf(deposit.id);
        statuses.add(now.status);
        return now;
      },
      (now) => now.status === 'completed',
      WITHIN_MS,
    );
    expect(statuses).toContain('confirming');
    expect(done).toMatchObject({ status: 'completed', network: 'solana', receivedAmount: '25.000000', creditedAmount: '25.000000', amountStatus: 'exact' });
    expect(done.transactions).toEqual([expect.objectContaining({ txHash, amount: '25.000000', status: 'confirmed' })]);
    expect(await chain().finalReceipt(txHash)).toMatchObject({ result: 'SUCCESS' });
    const balance = await company.call('GET', '/company/balance');
    expect(balance.body.data.balances[0]).toEqual({ currency: 'USDT', available: '25.000000', pending: '0.000000', locked: '0.000000' });
  }, 60_000);

  it("a withdrawal to a wallet with no USDT account is sent by the runtime's sender: the account is created, its balance grows by exactly the amount, completed with the transaction's signature", async () => {
    // The deposit above swept first, so the hot wallet's USDT moves by the payout alone.
    await sweptAndSettled();
    const payee = (await generateKeyPairSigner()).address;
    expect((await chain().tokenAccounts(mint(), [payee])).get(payee)).toMatchObject({ exists: false, amount: 0n });
    const hotBefore = await chain().tokenBalance(mint(), LOCAL_SOLANA_HOT_WALLET);

    const created = await company.call('POST', '/withdrawals', { body: { method: 'usdt', network: 'solana', address: payee, amount: '10', reference: 'sol-e2e-payout' } });
    expect(created.status).toBe(201);
    const sent = await finished(created.body.data.id);
    expect(sent).toMatchObject({ status: 'completed', network: 'solana', address: payee, amount: '10.000000', txHash: expect.stringMatching(SIGNATURE) });
    expect((await chain().tokenAccounts(mint(), [payee])).get(payee)).toMatchObject({ exists: true, amount: usdt('10'), frozen: false });
    expect(hotBefore - (await chain().tokenBalance(mint(), LOCAL_SOLANA_HOT_WALLET))).toBe(usdt('10'));
    expect(await chain().finalReceipt(sent.txHash)).toMatchObject({ result: 'SUCCESS', tokenTransfers: [expect.objectContaining({ to: payee, amount: usdt('10') })] });
    // The amount and the stage's withdrawal fee (1 USDT locally) left the company.
    const balance = await company.call('GET', '/company/balance');
    expect(balance.body.data.balances[0]).toMatchObject({ available: '14.000000', locked: '0.000000' });
  }, 60_000);

  it('a withdrawal to a sanctioned Solana address (a stage entry on the screening list) is refused 422 ADDRESS_NOT_ALLOWED, reason sanctioned', async () => {
    const listed = (await generateKeyPairSigner()).address;
    const { networks } = await addStageEntry(new DynamoScreeningStore(db, runtime.tableName), { network: 'solana', address: listed, reason: 'e2e: a court order', actor: 'test' });
    expect(networks).toEqual(['solana']);

    const refused = await company.call('POST', '/withdrawals', { body: { method: 'usdt', network: 'solana', address: listed, amount: '2', reference: 'sol-e2e-sanctioned' } });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'ADDRESS_NOT_ALLOWED', details: { field: 'address', address: listed, reason: 'sanctioned' } });
    const balance = await company.call('GET', '/company/balance');
    expect(balance.body.data.balances[0]).toMatchObject({ available: '14.000000', locked: '0.000000' });
  });

  it("a withdrawal to the USDT token account of a sanctioned wallet is refused as the wallet is: the money would reach it", async () => {
    const listed = (await generateKeyPairSigner()).address;
    await customerPaysEach(solanaEndpointOf(network()), [{ to: listed, amount: usdt('1') }]);
    const account = (await chain().tokenAccounts(mint(), [listed])).get(listed)!.address;
    await addStageEntry(new DynamoScreeningStore(db, runtime.tableName), { network: 'solana', address: listed, reason: 'e2e: a court order', actor: 'test' });
    const before = await company.call('GET', '/company/balance');

    const refused = await company.call('POST', '/withdrawals', { body: { method: 'usdt', network: 'solana', address: account, amount: '2', reference: 'sol-e2e-sanctioned-account' } });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'ADDRESS_NOT_ALLOWED', details: { field: 'address', address: account, reason: 'sanctioned' } });
    expect((await company.call('GET', '/company/balance')).body.data).toEqual(before.body.data);
  });

  it("a withdrawal to a wallet's USDT associated token account is paid into that account as it is; a token account that is no one's associated one is refused 400, the hot wallet's own 422", async () => {
    const owner = (await generateKeyPairSigner()).address;
    await customerPaysEach(solanaEndpointOf(network()), [{ to: owner, amount: usdt('1') }]);
    const account = (await chain().tokenAccounts(mint(), [owner])).get(owner)!.address;
    const before = await company.call('GET', '/company/balance');

    const created = await company.call('POST', '/withdrawals', { body: { method: 'usdt', network: 'solana', address: account, amount: '3', reference: 'sol-e2e-to-account' } });
    expect(created.status).toBe(201);
    const sent = await finished(created.body.data.id);
    expect(sent).toMatchObject({ status: 'completed', address: account, amount: '3.000000', networkCost: expect.objectContaining({ tokenAccountCreated: false }) });
    // Into the account named, not into an account of the account's.
    expect((await chain().tokenAccounts(mint(), [owner])).get(owner)).toMatchObject({ address: account, amount: usdt('4') });
    expect(await chain().finalReceipt(sent.txHash)).toMatchObject({ result: 'SUCCESS', tokenTransfers: [expect.objectContaining({ to: owner, toAccount: account, amount: usdt('3') })] });

    const hotAccount = (await chain().tokenAccounts(mint(), [LOCAL_SOLANA_HOT_WALLET])).get(LOCAL_SOLANA_HOT_WALLET)!.address;
    const toHot = await company.call('POST', '/withdrawals', { body: { method: 'usdt', network: 'solana', address: hotAccount, amount: '2', reference: 'sol-e2e-to-hot-account' } });
    expect(toHot.status).toBe(422);
    expect(toHot.body.error).toMatchObject({ code: 'ADDRESS_NOT_ALLOWED', details: { field: 'address', reason: 'cambio_address' } });
    const [unmade] = await findAssociatedTokenPda({ owner: (await generateKeyPairSigner()).address, mint: mint() as Address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const toNothing = await company.call('POST', '/withdrawals', { body: { method: 'usdt', network: 'solana', address: unmade, amount: '2', reference: 'sol-e2e-to-nothing' } });
    expect(toNothing.status).toBe(400);
    expect(toNothing.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'address', message: expect.stringMatching(/off the Ed25519 curve/) }] });
    // The payout and its fee left the balance; the refusals wrote nothing.
    const after = await company.call('GET', '/company/balance');
    expect(usdt(before.body.data.balances[0].available) - usdt(after.body.data.balances[0].available)).toBe(usdt('4'));
  }, 60_000);

  it("ten deposits paid in one customer transaction are credited together, their accounts opened by the runtime's sweeper and swept in one transaction the hot wallet alone signs: every deposit token account emptied into the hot wallet and closed", async () => {
    const sweeps = sweepStore();
    await sweptAndSettled();
    const amounts = ['1.5', '2', '3.25', '4', '5', '6.75', '7', '8', '9.5', '12.000001'];
    const deposits = [];
    for (const [i, amount] of amounts.entries()) deposits.push(await newDeposit(`sol-e2e-sweep-${i}`, amount));
    const owners = deposits.map((deposit) => deposit.address);
    const total = amounts.reduce((sum, amount) => sum + usdt(amount), 0n);
    const hotBefore = await chain().tokenBalance(mint(), LOCAL_SOLANA_HOT_WALLET);

    const signature = await customerPaysEach(solanaEndpointOf(network()), owners.map((to, i) => ({ to, amount: usdt(amounts[i]!) })));
    for (const [i, deposit] of deposits.entries()) {
      expect(await completed(deposit.id)).toMatchObject({ status: 'completed', creditedAmount: formatAmount(usdt(amounts[i]!), 'USDT'), transactions: [expect.objectContaining({ txHash: signature })] });
    }

    // Swept once final: every one of the ten accounts closed.
    await waitFor(async () => [...(await chain().tokenAccounts(mint(), owners)).values()], (accounts) => accounts.every((account) => !account.exists), WITHIN_MS);
    const ours = async () => [...(await sweeps.openSweeps()), ...(await sweeps.finishedSweeps())].filter((sweep) => sweep.accounts.some((account) => owners.includes(account.owner)));
    const swept = await waitFor(ours, (found) => found.length > 0 && found.every((sweep) => sweep.status === 'done'), WITHIN_MS);
    // The sweeper opened each account (the hot wallet its delegate and close authority): ten in one sweep.
    expect(swept).toHaveLength(1);
    const landed = await createSolanaRpc(solanaEndpointOf(network()).url).getTransaction(signatureOf(swept[0]!.signature), { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
    expect(landed!.transaction.signatures).toHaveLength(1);
    expect(swept.flatMap((sweep) => sweep.accounts.map((account) => account.owner)).sort()).toEqual([...owners].sort());
    expect(swept.reduce((sum, sweep) => sum + sweep.amount, 0n)).toBe(total);
    const rent = await chain().rentExemptMinimum(TOKEN_ACCOUNT_BYTES);
    expect(swept.reduce((sum, sweep) => sum + sweep.rent, 0n)).toBe(10n * rent);
    for (const sweep of swept) expect(sweep).toMatchObject({ wallet: LOCAL_SOLANA_HOT_WALLET, createsHotWalletAccount: false, signature: expect.stringMatching(SIGNATURE) });
    expect((await chain().tokenBalance(mint(), LOCAL_SOLANA_HOT_WALLET)) - hotBefore).toBe(total);
    // The hot wallet paid every fee: the deposit addresses never held SOL.
    for (const owner of owners) expect(await chain().feeBalance(owner)).toBe(0n);
    await expectLedgerMatchesBalances(db, runtime.tableName, company.companyId);
  }, 90_000);

  it("npm run float:record records USDT sent to the Solana hot wallet by hand as a float, once, from what the final chain shows; a hash of another network's form is refused", async () => {
    const floatRecord = (...args: string[]) => runOpsCommand('ops/float-record.ts', args, {}, workDir);
    const hotWallet = await solanaSignerFrom({ SOLANA: network() }).address();
    const paid = await sandboxPay('--network', 'solana', '--address', hotWallet, '--amount', '40', '--json');
    expect(paid.stderr).toBe('');
    const { txHash } = JSON.parse(paid.stdout) as { txHash: string };
    await waitFor(() => chain().finalReceipt(txHash), (receipt) => receipt !== null, WITHIN_MS);

    const recorded = await floatRecord('--network', 'solana', '--tx', txHash);
    expect(recorded.stderr).toBe('');
    expect(recorded.stdout).toContain(`Recorded a float of 40.000000 USDT on solana's hot wallet ${hotWallet} (transaction ${txHash})`);
    const again = await floatRecord('--network', 'solana', '--tx', txHash);
    expect(again.stdout).toContain(`Already recorded: the float of 40.000000 USDT from ${txHash} on solana. Nothing written.`);
    // A TRON transaction id is never read as a Solana one (it was, on TRON's chain, before).
    const tronHash = await floatRecord('--network', 'solana', '--tx', 'ab'.repeat(32));
    expect(tronHash.status).toBe(2);
    expect(tronHash.stderr).toContain("--tx must be the funding transaction's signature");
  }, 60_000);

  it('npm run reconcile balances, in total and on solana: the float, the deposits, the payout and the sweeps move both sides alike', async () => {
    const reconciled = await runOpsCommand('local/reconcile.ts', [], {}, workDir);
    expect(reconciled.stderr).toBe('');
    expect(reconciled.stdout).toMatch(/^solana .* balanced {2}gas \d+$/m);
    expect(reconciled.stdout).toMatch(/^balanced$/m);
    expect(reconciled.status).toBe(0);
  }, 60_000);

  it("npm run sandbox:issuer freezes and unfreezes a wallet's USDT token account on the runtime's node, as the mint's freeze authority; a pause is refused (SPL Token has none)", async () => {
    const wallet = (await generateKeyPairSigner()).address;
    const chain = solanaChainOf({ SOLANA: network() });
    await customerPaysEach(solanaEndpointOf(network()), [{ to: wallet, amount: usdt('1') }]);
    const issuer = (...args: string[]) => runOpsCommand('ops/sandbox-issuer.ts', args, {}, workDir);
    const frozen = await issuer('freeze', '--network', 'solana', '--address', wallet);
    expect(frozen).toMatchObject({ status: 0, stdout: expect.stringContaining(`Froze ${wallet} on solana`) });
    expect(await chain.frozenAmong(network().usdtMint, [wallet])).toEqual(new Set([wallet]));
    expect((await issuer('unfreeze', '--network', 'solana', '--address', wallet)).status).toBe(0);
    expect(await chain.frozenAmong(network().usdtMint, [wallet])).toEqual(new Set());
    const paused = await issuer('pause', '--network', 'solana');
    expect(paused.status).toBe(2);
    expect(paused.stderr).toMatch(/has no pause/);
  }, 60_000);
});
