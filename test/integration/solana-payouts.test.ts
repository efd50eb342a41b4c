import { createSolanaRpc, signature as toSignature, type Address } from '@solana/kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { getWithdrawal, requestWithdrawal, withdrawalView, type Withdrawal } from '#functions/withdrawals/withdrawals';
import { formatCoinAmount } from '#functions/shared/money';
import { EXPIRY_SETTLE_MARGIN_BLOCKS, REBROADCAST_AFTER_MS, SEND_IN_FLIGHT, sendSolanaWithdrawals, settleSolanaWithdrawals, solanaSendingDepsFrom, type SolanaSendingDeps } from '#functions/networks/solana/withdrawal-sending';
import { SolanaBlockhashNotFound, transactionErrorCode } from '#functions/networks/solana/rpc-chain';
import { ESCALATED_PRIORITY_FEE_FLOOR, PAYOUT_COMPUTE_UNITS, priorityFeeOf } from '#functions/networks/solana/payouts';
import { TOKEN_ACCOUNT_BYTES } from '#functions/networks/solana/chain';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoTransactionClaims } from '#adapters/dynamo/transaction-claims';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { freshTable, type TestTable } from '../support/dynamo.ts';
import { destinationChecksOf } from '#functions/networks/destination-registry';
import { addStageEntry } from '#functions/screening/screening-import';
import { DynamoScreeningStore } from '#adapters/dynamo/screening-store';
import { creditAvailable, expectLedgerMatchesBalances, usdt, WITHDRAWAL_RULES } from '../support/money.ts';
import { FINALITY_DEPTH, fundSolana, nodeChainOf, SOLANA_TEST_HOT_WALLET, useSolanaNode } from '../support/solana.ts';
import { droppingBroadcaster, killedBroadcaster, laggingBackendChain, LAMPORTS_PER_SOL, newHotWallet, newSolanaWallet, quiet, senderFunctionSettings, skipPreflightBroadcaster, solanaSenderDeps } from '../support/solana-payouts.ts';

/**
 * USDT payouts on Solana against the real runtime (the local node: litesvm behind JSON-RPC, slots
 * moved by the test) and DynamoDB Local: the payee's token account created by the payout, equal
 * payouts each their own transaction, a blockhash that expired before its transaction landed, a
 * backend trailing the node by a few slots, a sender killed between its write and its broadcast, a
 * frozen payee, a frozen hot wallet, and the float
 * (functions/networks/solana/withdrawal-sending.ts). Each test has a table and a hot wallet of its
 * own, so one's leftovers are no other's float or queue.
 */
const solana = useSolanaNode();
/** Blocks a blockhash stays valid for after the block it was read at (Agave's MAX_PROCESSING_AGE). */
const BLOCKHASH_WINDOW = 150;
const CREDIT = '10000';
/** The Token program's 0x11 (AccountFrozen) on the payout's transfer: its second instruction, after
 * the compute limit (no priority fee on the local node, and the payee's account exists). */
const FROZEN_ACCOUNT_ERROR = 'InstructionError:1:Custom:17';
/** Blocks past a payout's lastValidBlockHeight before one no view knows is signed again or failed. */
const MARGIN = Number(EXPIRY_SETTLE_MARGIN_BLOCKS);

let env: TestTable;
let companyId: string;

beforeEach(async () => {
  env = await freshTable();
  const companies = new DynamoCompanyStore(env.db, env.tableName);
  ({ company: { id: companyId } } = await createCompany(companies, { name: 'Solana Sender Co', environment: 'sandbox' }, new Date()));
  await creditAvailable(env.db, env.tableName, companyId, 'USDT', CREDIT, 'solana');
});
afterEach(() => env.db.destroy());

const rpc = () => createSolanaRpc(solana.node.url);
const withdrawals = () => new DynamoWithdrawalStore(env.db, env.tableName);
const withdraw = (to: string, amount: string): Promise<Withdrawal> =>
  requestWithdrawal(withdrawals(), { ...WITHDRAWAL_RULES, networks: { solana: {} } }, companyId, { reference: `w-${Math.random()}`, network: 'solana', address: to, amount: usdt(amount) }, new Date());
const read = (withdrawal: Withdrawal) => getWithdrawal(withdrawals(), companyId, withdrawal.id);
/** A withdrawal to a USDT token account, accepted as the API accepts it: read on the node, its owner named. */
const withdrawToTokenAccount = (account: string, amount: string): Promise<Withdrawal> =>
  requestWithdrawal(
    withdrawals(),
    { ...WITHDRAWAL_RULES, networks: { solana: {} }, destinations: destinationChecksOf({ SOLANA: solana.settings() } as never) },
    companyId,
    { reference: `w-${Math.random()}`, network: 'solana', address: account, amount: usdt(amount) },
    new Date(),
  );
/** The stage lists `wallet` (npm run screening:add), as OFAC's daily import would. */
const listLater = (wallet: string) => addStageEntry(new DynamoScreeningStore(env.db, env.tableName), { network: 'solana', address: wallet, reason: 'listed while its payout waited', actor: 'test' }, new Date());
const balance = async () => (await new DynamoCompanyStore(env.db, env.tableName).getBalances(companyId)).find((row) => row.currency === 'USDT')!;
const usdtOf = (owner: string) => nodeChainOf(solana.node).tokenBalance(solana.node.mint, owner);
const lamportsOf = async (owner: string) => (await rpc().getBalance(owner as Address, { commitment: 'confirmed' }).send()).value;
const heightAt = async (commitment: 'confirmed' | 'finalized') => rpc().getBlockHeight({ commitment }).send();
/** The hot wallet's USDT token account (to freeze it). */
const usdtAccount = async (deps: SolanaSendingDeps, owner: string) => (await deps.chain.tokenAccounts(solana.node.mint, [owner])).get(owner)!.address as Address;
const storedOf = (withdrawal: Withdrawal) => JSON.parse(withdrawal.transaction!.signed) as { wire: string; lastValidBlockHeight: string; refusal?: string };
/** The transaction as the node's final view has it. */
const landed = (txHash: string) => rpc().getTransaction(toSignature(txHash), { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 0 }).send();

/** What was landed becomes final; then the settling job runs. */
async function settleFinal(deps: SolanaSendingDeps) {
  solana.node.advanceSlots(FINALITY_DEPTH);
  return settleSolanaWithdrawals(deps);
}

/** A payout of `amount` from a new hot wallet holding 100 USDT, whose first broadcast was lost. */
async function payoutWhoseBroadcastIsLost(amount: string) {
  const hot = await newHotWallet(solana.node, { usdt: usdt('100') });
  const deps = solanaSenderDeps(env, solana.node, hot.signer);
  const payee = newSolanaWallet();
  const withdrawal = await withdraw(payee, amount);
  expect(await sendSolanaWithdrawals({ ...deps, broadcaster: droppingBroadcaster })).toMatchObject({ sent: 1 });
  return { hot, deps, payee, withdrawal, first: await read(withdrawal) };
}

/** A withdrawal of 7 USDT, from a new hot wallet holding 100, to a new owner's USDT token account. */
async function payoutToAnOwnersTokenAccount() {
  const hot = await newHotWallet(solana.node, { usdt: usdt('100') });
  const deps = solanaSenderDeps(env, solana.node, hot.signer);
  const owner = newSolanaWallet();
  await fundSolana(solana.node, owner, { usdt: 1n });
  const withdrawal = await withdrawToTokenAccount(await usdtAccount(deps, owner), '7');
  return { hot, deps, owner, withdrawal };
}

async function expectSettledBooks(spent: bigint) {
  expect(await balance()).toMatchObject({ available: usdt(CREDIT) - spent, locked: 0n });
  await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
}

describe('Solana payouts on the local node', () => {
  it("pays a wallet without a token account: the payout creates it, the payee receives exactly the amount, completed once final with what was delivered and what it cost in SOL (the sender as the job builds it)", async () => {
    // The stage's hot wallet (the tests' key), the one test that signs with it.
    const hot = { address: SOLANA_TEST_HOT_WALLET };
    await fundSolana(solana.node, hot.address, { lamports: 10n * LAMPORTS_PER_SOL, usdt: usdt('100') });
    const deps = { ...solanaSendingDepsFrom(senderFunctionSettings(solana.node), env), log: quiet };
    const withdrawal = await withdraw(newSolanaWallet(), '12.5');
    const lamportsBefore = await lamportsOf(hot.address);

    expect(await sendSolanaWithdrawals(deps)).toMatchObject({ sent: 1, awaitingFloat: 0 });
    const processing = await read(withdrawal);
    expect(processing).toMatchObject({ status: 'processing', txHash: expect.any(String) });
    expect(processing.transaction).toMatchObject({ expiresAt: null, broadcastAt: expect.any(String) });
    expect(await usdtOf(withdrawal.address)).toBe(usdt('12.5'));
    expect(await usdtOf(hot.address)).toBe(usdt('87.5'));
    // The hot wallet paid the fee (one signature) and the new token account's rent.
    const rent = await rpc().getMinimumBalanceForRentExemption(BigInt(TOKEN_ACCOUNT_BYTES)).send();
    const lamportsAfter = await lamportsOf(hot.address);
    expect(lamportsBefore - lamportsAfter).toBe(5_000n + rent);

    // Landed but not final: still processing.
    expect(await settleSolanaWithdrawals(deps)).toMatchObject({ completed: 0, rebroadcast: 0, replaced: 0 });
    expect((await read(withdrawal)).status).toBe('processing');
    expect(await settleFinal(deps)).toMatchObject({ completed: 1 });
    expect(await read(withdrawal)).toMatchObject({ status: 'completed', txHash: processing.txHash, deliveredAmount: usdt('12.5'), completedAt: expect.any(String) });
    const transaction = await landed(processing.txHash!);
    expect(transaction!.meta!.err).toBeNull();
    expect(transaction!.transaction.message.accountKeys[0]).toBe(hot.address);
    // What it cost Cambio is exactly what the hot wallet's lamports fell by: the fee and the rent.
    const completed = await read(withdrawal);
    expect(completed.networkCost).toEqual({ asset: 'SOL', decimals: 9, amount: lamportsBefore - lamportsAfter, tokenAccountCreated: true });
    expect(withdrawalView(completed).networkCost).toEqual({ asset: 'SOL', amount: formatCoinAmount({ amount: 5_000n + rent, decimals: 9 }), tokenAccountCreated: true });
    expect(withdrawalView(completed).networkCost!.amount).toMatch(/^0\.00\d{7}$/);

    // Paid again, the payee's token account is there: the fee alone.
    const again = await withdraw(withdrawal.address, '1');
    expect(await sendSolanaWithdrawals(deps)).toMatchObject({ sent: 1 });
    expect(await settleFinal(deps)).toMatchObject({ completed: 1 });
    expect(await read(again)).toMatchObject({ status: 'completed', deliveredAmount: usdt('1'), networkCost: { asset: 'SOL', amount: lamportsAfter - (await lamportsOf(hot.address)), tokenAccountCreated: false } });
    expect(lamportsAfter - (await lamportsOf(hot.address))).toBe(5_000n);
    await expectSettledBooks(usdt('13.5') + 2n * WITHDRAWAL_RULES.fee);
  });

  it('100 equal payouts to one wallet at once: 100 transactions with distinct signatures, each landed once, exactly 100 × the amount received', async () => {
    const hot = await newHotWallet(solana.node, { usdt: usdt('1000') });
    const deps = solanaSenderDeps(env, solana.node, hot.signer);
    const payee = newSolanaWallet();
    const queued: Withdrawal[] = [];
    for (let i = 0; i < 100; i += 20) queued.push(...(await Promise.all(Array.from({ length: 20 }, () => withdraw(payee, '5')))));
    const lamportsBefore = await lamportsOf(hot.address);

    // One blockhash for each page of 25: only the memo (the withdrawal's id) tells the payouts apart.
    expect(await sendSolanaWithdrawals(deps)).toMatchObject({ sent: 100, awaitingFloat: 0 });
    const hashes = await Promise.all(queued.map(async (withdrawal) => (await read(withdrawal)).txHash!));
    expect(new Set(hashes).size).toBe(100);
    expect(await usdtOf(payee)).toBe(usdt('500'));
    expect(await usdtOf(hot.address)).toBe(usdt('500'));

    // Run again before they are final: nothing is sent twice.
    expect(await sendSolanaWithdrawals(deps)).toMatchObject({ sent: 0 });
    expect(await settleSolanaWithdrawals(deps)).toMatchObject({ completed: 0, rebroadcast: 0, replaced: 0 });
    expect(await settleFinal(deps)).toMatchObject({ completed: 100, failed: 0 });
    const statuses = (await rpc().getSignatureStatuses(hashes.map((hash) => toSignature(hash)), { searchTransactionHistory: true }).send()).value;
    expect(statuses.every((status) => status?.confirmationStatus === 'finalized' && status.err === null)).toBe(true);
    // Each claimed by its own withdrawal.
    const claims = new DynamoTransactionClaims(env.db, env.tableName);
    expect(await Promise.all(queued.map((withdrawal, i) => claims.ownerOf(hashes[i]!)))).toEqual(queued.map((withdrawal) => `withdrawal:${withdrawal.id}`));
    expect(await usdtOf(payee)).toBe(usdt('500'));
    // Each payout of the first page carries the payee's token account's (idempotent) creation; the
    // first to land created it and paid its rent, the others their fee alone: together, what the
    // hot wallet's lamports fell by.
    const costs = (await Promise.all(queued.map(read))).map((withdrawal) => withdrawal.networkCost!);
    expect(costs.filter((cost) => cost.tokenAccountCreated)).toHaveLength(1);
    expect(costs.filter((cost) => !cost.tokenAccountCreated).every((cost) => cost.amount === 5_000n)).toBe(true);
    expect(costs.reduce((sum, cost) => sum + cost.amount, 0n)).toBe(lamportsBefore - (await lamportsOf(hot.address)));
    await expectSettledBooks(100n * (usdt('5') + WITHDRAWAL_RULES.fee));
  }, 60_000);

  it('two senders at once over one queue: each withdrawal is sent by one of them, once', async () => {
    const hot = await newHotWallet(solana.node, { usdt: usdt('100') });
    const deps = solanaSenderDeps(env, solana.node, hot.signer);
    const queued = await Promise.all(Array.from({ length: 10 }, () => withdraw(newSolanaWallet(), '2')));
    // On one blockhash the two build the very same transaction for a withdrawal (Ed25519 signs
    // alike): one write claims the withdrawal and the signature, the other's is refused, and it moves on.
    const [one, other] = await Promise.all([sendSolanaWithdrawals(deps), sendSolanaWithdrawals(solanaSenderDeps(env, solana.node, hot.signer))]);
    expect(one.sent + other.sent).toBe(10);
    expect(await Promise.all(queued.map((withdrawal) => usdtOf(withdrawal.address)))).toEqual(queued.map(() => usdt('2')));
    expect(await settleFinal(deps)).toMatchObject({ completed: 10 });
    expect(await usdtOf(hot.address)).toBe(usdt('80'));
    await expectSettledBooks(10n * (usdt('2') + WITHDRAWAL_RULES.fee));
  });

  it('a payout whose transaction was dropped is broadcast again while it can land, signed again only once its blockhash can never land and the margin for lagging backends has passed, and lands once', async () => {
    const hot = await newHotWallet(solana.node, { usdt: usdt('100') });
    const deps = solanaSenderDeps(env, solana.node, hot.signer);
    const dropped = { ...deps, broadcaster: droppingBroadcaster };
    const withdrawal = await withdraw(newSolanaWallet(), '7');
    expect(await sendSolanaWithdrawals(dropped)).toMatchObject({ sent: 1 });
    const first = await read(withdrawal);
    const lastValid = BigInt(storedOf(first).lastValidBlockHeight);
    expect(lastValid).toBe((await heightAt('confirmed')) + BigInt(BLOCKHASH_WINDOW));
    expect(await usdtOf(withdrawal.address)).toBe(0n);

    // The latest block is past its window, but not every block it could have landed in is final
    // yet: it is broadcast again (dropped again), never signed again.
    solana.node.advanceSlots(BLOCKHASH_WINDOW + 1);
    expect(await settleSolanaWithdrawals({ ...dropped, now: () => new Date(Date.now() + 60_000) })).toMatchObject({ rebroadcast: 1, replaced: 0, failed: 0 });
    solana.node.advanceSlots(FINALITY_DEPTH - 1);
    expect(await heightAt('finalized')).toBe(lastValid);
    expect(await settleSolanaWithdrawals({ ...dropped, now: () => new Date(Date.now() + 120_000) })).toMatchObject({ rebroadcast: 1, replaced: 0, failed: 0 });
    expect((await read(withdrawal)).txHash).toBe(first.txHash);

    // The finalized block is past its window and no node knows it: it can never land. But a backend
    // trailing the one that gave the height might not know it yet: it waits out the margin, neither
    // broadcast (its blockhash has expired) nor signed again, up to the margin's last block.
    solana.node.advanceSlots(1);
    expect(await heightAt('finalized')).toBe(lastValid + 1n);
    expect(await settleSolanaWithdrawals({ ...deps, now: () => new Date(Date.now() + 180_000) })).toMatchObject({ replaced: 0, rebroadcast: 0, failed: 0 });
    solana.node.advanceSlots(MARGIN - 1);
    expect(await heightAt('finalized')).toBe(lastValid + EXPIRY_SETTLE_MARGIN_BLOCKS);
    expect(await settleSolanaWithdrawals({ ...deps, now: () => new Date(Date.now() + 240_000) })).toMatchObject({ replaced: 0, rebroadcast: 0, failed: 0 });
    expect(await read(withdrawal)).toMatchObject({ status: 'processing', txHash: first.txHash });

    // Past the margin, no view knows it: it is signed again.
    solana.node.advanceSlots(1);
    expect(await settleSolanaWithdrawals(deps)).toMatchObject({ replaced: 1, rebroadcast: 0, failed: 0 });
    const second = await read(withdrawal);
    expect(second).toMatchObject({ status: 'processing', updatedAt: first.updatedAt });
    expect(second.txHash).not.toBe(first.txHash);
    expect(BigInt(storedOf(second).lastValidBlockHeight)).toBeGreaterThan(lastValid);
    expect(await usdtOf(withdrawal.address)).toBe(usdt('7'));
    // Both signatures are this withdrawal's; the old one's bytes are refused for good.
    const claims = new DynamoTransactionClaims(env.db, env.tableName);
    expect(await claims.ownerOf(first.txHash!)).toBe(`withdrawal:${withdrawal.id}`);
    expect(await claims.ownerOf(second.txHash!)).toBe(`withdrawal:${withdrawal.id}`);
    await expect(deps.chain.broadcast({ wire: storedOf(first).wire })).rejects.toBeInstanceOf(SolanaBlockhashNotFound);

    expect(await settleFinal(deps)).toMatchObject({ completed: 1, replaced: 0 });
    expect(await read(withdrawal)).toMatchObject({ status: 'completed', txHash: second.txHash, deliveredAmount: usdt('7') });
    expect((await rpc().getSignatureStatuses([toSignature(first.txHash!)], { searchTransactionHistory: true }).send()).value).toEqual([null]);
    expect(await usdtOf(withdrawal.address)).toBe(usdt('7'));
    expect(await usdtOf(hot.address)).toBe(usdt('93'));
    await expectSettledBooks(usdt('7') + WITHDRAWAL_RULES.fee);
  });

  it('a payout that expired unlanded is signed again offering more per compute unit each time, up to the cap, and the one that lands pays that fee', async () => {
    const hot = await newHotWallet(solana.node, { usdt: usdt('100') });
    const priorityFeeCap = 25_000n;
    const deps = solanaSenderDeps(env, solana.node, hot.signer, { priorityFeeCap, log: quiet });
    const dropped = { ...deps, broadcaster: droppingBroadcaster };
    const withdrawal = await withdraw(newSolanaWallet(), '7');
    expect(await sendSolanaWithdrawals(dropped)).toMatchObject({ sent: 1 });
    const offered = async () => priorityFeeOf(storedOf(await read(withdrawal)).wire);
    const expire = () => solana.node.advanceSlots(BLOCKHASH_WINDOW + FINALITY_DEPTH + MARGIN + 2);
    // The local node's recent fee is nothing, as a quiet mainnet account's can be.
    const offers = [await offered()];
    for (let i = 0; i < 3; i++) {
      expire();
      expect(await settleSolanaWithdrawals(dropped)).toMatchObject({ replaced: 1, failed: 0 });
      offers.push(await offered());
    }
    // The floor, then half as much again each time: the same offer might not land either.
    expect(offers).toEqual([0n, ESCALATED_PRIORITY_FEE_FLOOR, (ESCALATED_PRIORITY_FEE_FLOOR * 3n) / 2n, (ESCALATED_PRIORITY_FEE_FLOOR * 9n) / 4n]);
    expire();
    expect(await settleSolanaWithdrawals(deps)).toMatchObject({ replaced: 1, failed: 0 });
    expect(await offered()).toBe(priorityFeeCap);
    expect(await settleFinal(deps)).toMatchObject({ completed: 1 });
    const paid = await read(withdrawal);
    expect(paid).toMatchObject({ status: 'completed', deliveredAmount: usdt('7') });
    // Its signature's 5,000 lamports and the cap over its compute limit, as the node charged it.
    expect((await landed(paid.txHash!))!.meta!.fee).toBe(5_000n + (priorityFeeCap * BigInt(PAYOUT_COMPUTE_UNITS)) / 1_000_000n);
    await expectSettledBooks(usdt('7') + WITHDRAWAL_RULES.fee);
  });

  it('a backend trailing by a few slots never makes a payout be signed twice', async () => {
    // Its first broadcast is lost (a node dropped it).
    const { hot, deps, payee, withdrawal, first } = await payoutWhoseBroadcastIsLost('7');
    const lastValid = BigInt(storedOf(first).lastValidBlockHeight);

    // Near the end of its window settling broadcasts it again, and it lands in one of its last blocks.
    solana.node.advanceSlots(BLOCKHASH_WINDOW - 2);
    expect(await settleSolanaWithdrawals({ ...deps, now: () => new Date(Date.now() + 60_000) })).toMatchObject({ rebroadcast: 1, replaced: 0 });
    expect(await usdtOf(payee)).toBe(usdt('7'));

    // The finalized height passes its lastValidBlockHeight; the backend answering statuses and
    // transactions trails the one that answered the height by 4 slots (1.6 s), and knows nothing of it.
    const lagging = { ...deps, chain: laggingBackendChain(solana.node, deps.chain, 4n) };
    while ((await heightAt('finalized')) <= lastValid) solana.node.advanceSlots(1);
    const [status] = (await rpc().getSignatureStatuses([toSignature(first.txHash!)], { searchTransactionHistory: true }).send()).value;
    expect(status?.confirmationStatus).toBe('finalized');
    expect(await lagging.chain.signatureStatuses([first.txHash!])).toEqual([null]);
    expect(await lagging.chain.finalReceipt(first.txHash!)).toBeNull();
    expect(await settleSolanaWithdrawals({ ...lagging, now: () => new Date(Date.now() + 120_000) })).toMatchObject({ replaced: 0, failed: 0, completed: 0, rebroadcast: 0 });
    expect(await read(withdrawal)).toMatchObject({ status: 'processing', txHash: first.txHash });

    // By the end of the margin the trailing backend has long caught up: the one transaction that
    // landed completes it.
    solana.node.advanceSlots(Number(lastValid + EXPIRY_SETTLE_MARGIN_BLOCKS + 1n - (await heightAt('finalized'))));
    expect(await heightAt('finalized')).toBe(lastValid + EXPIRY_SETTLE_MARGIN_BLOCKS + 1n);
    expect(await settleSolanaWithdrawals({ ...lagging, now: () => new Date(Date.now() + 180_000) })).toMatchObject({ completed: 1, replaced: 0, failed: 0 });
    expect(await read(withdrawal)).toMatchObject({ status: 'completed', txHash: first.txHash, deliveredAmount: usdt('7') });
    const claims = new DynamoTransactionClaims(env.db, env.tableName);
    expect(await claims.ownerOf(first.txHash!)).toBe(`withdrawal:${withdrawal.id}`);
    // Paid exactly once.
    expect(await usdtOf(payee)).toBe(usdt('7'));
    expect(await usdtOf(hot.address)).toBe(usdt('93'));
    await expectSettledBooks(usdt('7') + WITHDRAWAL_RULES.fee);
  });

  it("a hot wallet whose USDT the issuer froze: an expired payout is neither broadcast nor signed again, nor failed, while it is frozen; it goes out once unfrozen, once", async () => {
    const { hot, deps, payee, withdrawal, first } = await payoutWhoseBroadcastIsLost('7');
    const hotAccount = await usdtAccount(deps, hot.address);
    await solana.node.issuer.freeze(hotAccount);
    expect(await deps.standing()).toEqual({ paused: false, hotWalletFrozen: true });

    // While it could land it is not broadcast again from the frozen wallet (the node would refuse it
    // for the frozen account, Custom:17, and that refusal would fail it).
    expect(await settleSolanaWithdrawals({ ...deps, now: () => new Date(Date.now() + 60_000) })).toMatchObject({ rebroadcast: 0, replaced: 0, failed: 0 });
    // Its blockhash expired and the margin passed: it waits, processing, counted as stuck once old.
    solana.node.advanceSlots(BLOCKHASH_WINDOW + FINALITY_DEPTH + MARGIN + 1);
    expect(await heightAt('finalized')).toBeGreaterThan(BigInt(storedOf(first).lastValidBlockHeight) + EXPIRY_SETTLE_MARGIN_BLOCKS);
    const waiting = await settleSolanaWithdrawals({ ...deps, now: () => new Date(Date.now() + 20 * 60_000) });
    expect(waiting).toMatchObject({ rebroadcast: 0, replaced: 0, failed: 0, completed: 0, stuck: { count: 1 } });
    const held = await read(withdrawal);
    expect(held).toMatchObject({ status: 'processing', txHash: first.txHash, updatedAt: first.updatedAt });
    expect(storedOf(held).refusal).toBeUndefined();
    expect(await usdtOf(payee)).toBe(0n);
    expect(await usdtOf(hot.address)).toBe(usdt('100'));

    // Unfrozen: signed again on a new blockhash, and it lands, once.
    await solana.node.issuer.thaw(hotAccount);
    expect(await settleSolanaWithdrawals(deps)).toMatchObject({ replaced: 1, failed: 0 });
    const second = await read(withdrawal);
    expect(second.txHash).not.toBe(first.txHash);
    expect(await settleFinal(deps)).toMatchObject({ completed: 1, replaced: 0 });
    expect(await read(withdrawal)).toMatchObject({ status: 'completed', txHash: second.txHash, deliveredAmount: usdt('7') });
    expect(await usdtOf(payee)).toBe(usdt('7'));
    expect(await usdtOf(hot.address)).toBe(usdt('93'));
    await expectSettledBooks(usdt('7') + WITHDRAWAL_RULES.fee);
  });

  it("a freeze of the hot wallet's account after the run read its standing: the node's refusal (AccountFrozen, as a frozen payee's) does not fail the payout, and the run sends nothing more; once thawed each lands once", async () => {
    const hot = await newHotWallet(solana.node, { usdt: usdt('100') });
    const deps = solanaSenderDeps(env, solana.node, hot.signer);
    const payee = newSolanaWallet();
    const withdrawal = await withdraw(payee, '6');
    // Those already in flight beside it are sent as it is; the two after them wait.
    const beside = [];
    for (let i = 1; i < SEND_IN_FLIGHT; i++) beside.push(await withdraw(newSolanaWallet(), '1'));
    const later = [await withdraw(newSolanaWallet(), '1'), await withdraw(newSolanaWallet(), '1')];
    const hotAccount = await usdtAccount(deps, hot.address);
    // The run read its standing (withdrawalSenderRun) before this.
    await solana.node.issuer.freeze(hotAccount);
    expect(await sendSolanaWithdrawals({ ...deps, log: quiet })).toMatchObject({ sent: SEND_IN_FLIGHT });
    const refused = await read(withdrawal);
    expect(storedOf(refused).refusal).toBeUndefined();
    for (const each of later) expect((await read(each)).status).toBe('pending');

    await solana.node.issuer.thaw(hotAccount);
    solana.node.advanceSlots(BLOCKHASH_WINDOW + FINALITY_DEPTH + MARGIN + 1);
    expect(await settleSolanaWithdrawals({ ...deps, log: quiet })).toMatchObject({ failed: 0, replaced: SEND_IN_FLIGHT });
    expect(await sendSolanaWithdrawals(deps)).toMatchObject({ sent: 2 });
    expect(await settleFinal(deps)).toMatchObject({ completed: SEND_IN_FLIGHT + 2 });
    expect(await read(withdrawal)).toMatchObject({ status: 'completed', deliveredAmount: usdt('6') });
    for (const each of [...beside, ...later]) expect(await read(each)).toMatchObject({ status: 'completed', deliveredAmount: usdt('1') });
    expect(await usdtOf(payee)).toBe(usdt('6'));
    await expectSettledBooks(usdt('6') + BigInt(SEND_IN_FLIGHT + 1) * usdt('1') + BigInt(SEND_IN_FLIGHT + 2) * WITHDRAWAL_RULES.fee);
  });

  it('a sender killed between its write and its broadcast: the next run broadcasts the stored bytes, which land once', async () => {
    const hot = await newHotWallet(solana.node, { usdt: usdt('100') });
    const deps = solanaSenderDeps(env, solana.node, hot.signer);
    const queued = [await withdraw(newSolanaWallet(), '5'), await withdraw(newSolanaWallet(), '6')];
    expect(await sendSolanaWithdrawals({ ...deps, broadcaster: killedBroadcaster })).toMatchObject({ sent: 2 });
    const stored = await Promise.all(queued.map(read));
    // Stored as broadcast at the claim: the broadcast follows that one write.
    expect(stored.map((withdrawal) => withdrawal.status)).toEqual(['processing', 'processing']);
    for (const withdrawal of stored) expect(withdrawal.transaction!.broadcastAt).toBe(withdrawal.updatedAt);
    expect(await Promise.all(queued.map((withdrawal) => usdtOf(withdrawal.address)))).toEqual([0n, 0n]);

    // The run's own settling right after takes them for in flight; the next run, a minute later, broadcasts them.
    expect(await settleSolanaWithdrawals(deps)).toMatchObject({ rebroadcast: 0, replaced: 0 });
    expect(await settleSolanaWithdrawals({ ...deps, now: () => new Date(Date.now() + 60_000) })).toMatchObject({ rebroadcast: 2, replaced: 0 });
    expect(await Promise.all(queued.map((withdrawal) => usdtOf(withdrawal.address)))).toEqual([usdt('5'), usdt('6')]);
    // The same bytes broadcast again (a run that did not see them land): the node has them already.
    for (const withdrawal of stored) expect(await deps.chain.broadcast({ wire: storedOf(withdrawal).wire })).toBe('duplicate');
    expect(await settleFinal(deps)).toMatchObject({ completed: 2, replaced: 0 });
    expect((await Promise.all(queued.map(read))).map((withdrawal) => withdrawal.txHash)).toEqual(stored.map((withdrawal) => withdrawal.txHash));
    expect(await Promise.all(queued.map((withdrawal) => usdtOf(withdrawal.address)))).toEqual([usdt('5'), usdt('6')]);
    expect(await usdtOf(hot.address)).toBe(usdt('89'));
    await expectSettledBooks(usdt('11') + 2n * WITHDRAWAL_RULES.fee);
  });

  it("a payout to a frozen token account the node's preflight refuses: failed with the Token program's error once its blockhash can never land, the money back", async () => {
    const hot = await newHotWallet(solana.node, { usdt: usdt('100') });
    const deps = solanaSenderDeps(env, solana.node, hot.signer);
    const payee = newSolanaWallet();
    await solana.node.issuer.mintTo(payee, 1n);
    await solana.node.issuer.freeze((await deps.chain.tokenAccounts(solana.node.mint, [payee])).get(payee)!.address as Address);
    const withdrawal = await withdraw(payee, '9');

    expect(await sendSolanaWithdrawals(deps)).toMatchObject({ sent: 1 });
    const refused = await read(withdrawal);
    // 0x11: the Token program's AccountFrozen, from the transfer (instruction 0: the account exists).
    expect(refused).toMatchObject({ status: 'processing', transaction: { broadcastAt: refused.updatedAt } });
    expect(storedOf(refused).refusal).toBe(FROZEN_ACCOUNT_ERROR);
    // While it could still land it is only broadcast again (refused again).
    expect(await settleSolanaWithdrawals({ ...deps, now: () => new Date(Date.now() + REBROADCAST_AFTER_MS) })).toMatchObject({ rebroadcast: 1, failed: 0, replaced: 0 });

    // Its blockhash can no longer land, but it fails only once the margin for lagging backends has passed.
    solana.node.advanceSlots(BLOCKHASH_WINDOW + FINALITY_DEPTH + 1);
    expect(await settleSolanaWithdrawals(deps)).toMatchObject({ failed: 0, replaced: 0 });
    expect((await read(withdrawal)).status).toBe('processing');
    solana.node.advanceSlots(MARGIN);
    expect(await settleSolanaWithdrawals(deps)).toMatchObject({ failed: 1, replaced: 0 });
    // It never landed: it cost nothing on the network.
    expect(await read(withdrawal)).toMatchObject({ status: 'failed', failureReason: FROZEN_ACCOUNT_ERROR, txHash: refused.txHash, networkCost: null });
    expect(await usdtOf(payee)).toBe(1n);
    expect(await usdtOf(hot.address)).toBe(usdt('100'));
    await expectSettledBooks(0n);
  });

  it("a payout the node refuses for the hot wallet's own lack of SOL (a new payee's token account rent) is not failed: signed again once expired, it lands when SOL is topped up", async () => {
    // Enough SOL for fees and to stay rent-exempt, not for a new token account's ~0.00204 SOL rent.
    const hot = await newHotWallet(solana.node, { usdt: usdt('100'), lamports: 2_000_000n });
    const deps = solanaSenderDeps(env, solana.node, hot.signer);
    const payee = newSolanaWallet();
    const withdrawal = await withdraw(payee, '9');

    expect(await sendSolanaWithdrawals(deps)).toMatchObject({ sent: 1 });
    // The System program's 0x1 on the account's creation (instruction 1, after the compute limit).
    expect(storedOf(await read(withdrawal)).refusal).toBe('InstructionError:1:Custom:1');

    // HotWalletGasLow has told the operator, who tops the wallet up; the blockhash expired meanwhile.
    solana.node.advanceSlots(BLOCKHASH_WINDOW + FINALITY_DEPTH + 1 + MARGIN);
    await fundSolana(solana.node, hot.address, { lamports: 10n * LAMPORTS_PER_SOL });
    expect(await settleSolanaWithdrawals({ ...deps, log: quiet })).toMatchObject({ failed: 0, replaced: 1 });
    const settled = await settleFinal(deps);

    expect(settled).toMatchObject({ completed: 1, failed: 0 });
    expect(await read(withdrawal)).toMatchObject({ status: 'completed' });
    expect(await usdtOf(payee)).toBe(usdt('9'));
  });

  it("a payout that lands with the Token program's error (a node that forwards without preflight): failed once final, with that error, the money back", async () => {
    const hot = await newHotWallet(solana.node, { usdt: usdt('100') });
    const deps = solanaSenderDeps(env, solana.node, hot.signer, { broadcaster: skipPreflightBroadcaster(solana.node) });
    const payee = newSolanaWallet();
    await solana.node.issuer.mintTo(payee, 1n);
    await solana.node.issuer.freeze((await deps.chain.tokenAccounts(solana.node.mint, [payee])).get(payee)!.address as Address);
    const withdrawal = await withdraw(payee, '9');
    const lamportsBefore = await lamportsOf(hot.address);

    expect(await sendSolanaWithdrawals(deps)).toMatchObject({ sent: 1 });
    const processing = await read(withdrawal);
    expect(await settleSolanaWithdrawals(deps)).toMatchObject({ failed: 0, rebroadcast: 0 });
    expect(await settleFinal(deps)).toMatchObject({ failed: 1, completed: 0 });
    // Landed and failed, it still paid its fee: Cambio's cost, recorded as a completed payout's is.
    expect(await read(withdrawal)).toMatchObject({
      status: 'failed',
      failureReason: FROZEN_ACCOUNT_ERROR,
      txHash: processing.txHash,
      networkCost: { asset: 'SOL', amount: 5_000n, tokenAccountCreated: false },
    });
    expect(lamportsBefore - (await lamportsOf(hot.address))).toBe(5_000n);
    expect(transactionErrorCode((await landed(processing.txHash!))!.meta!.err)).toBe(FROZEN_ACCOUNT_ERROR);
    expect(await usdtOf(payee)).toBe(1n);
    await expectSettledBooks(0n);
  });

  it("a payout to a USDT token account whose owner is listed while it waits pending is not sent (the list names the wallet, not its token account): it fails DESTINATION_SANCTIONED, its funds back", async () => {
    const { hot, deps, owner, withdrawal } = await payoutToAnOwnersTokenAccount();
    await listLater(owner);

    expect(await sendSolanaWithdrawals(deps)).toMatchObject({ sent: 0, failed: 1 });
    expect(await read(withdrawal)).toMatchObject({ status: 'failed', failureReason: 'DESTINATION_SANCTIONED', txHash: null, transaction: null });
    expect(await usdtOf(owner)).toBe(1n);
    expect(await usdtOf(hot.address)).toBe(usdt('100'));
    await expectSettledBooks(0n);
  });

  it("a payout signed again once its blockhash expired unlanded is screened again first: its payee's owner listed since, it fails DESTINATION_SANCTIONED, its funds back, nothing paid", async () => {
    const { hot, deps, owner, withdrawal } = await payoutToAnOwnersTokenAccount();
    expect(await sendSolanaWithdrawals({ ...deps, broadcaster: droppingBroadcaster })).toMatchObject({ sent: 1 });
    const first = await read(withdrawal);
    await listLater(owner);

    // Its blockhash expired and the margin passed: where it would be signed again, it fails.
    solana.node.advanceSlots(BLOCKHASH_WINDOW + FINALITY_DEPTH + MARGIN + 1);
    expect(await heightAt('finalized')).toBeGreaterThan(BigInt(storedOf(first).lastValidBlockHeight) + EXPIRY_SETTLE_MARGIN_BLOCKS);
    expect(await settleSolanaWithdrawals(deps)).toMatchObject({ replaced: 0, failed: 1 });
    expect(await read(withdrawal)).toMatchObject({ status: 'failed', failureReason: 'DESTINATION_SANCTIONED', txHash: first.txHash });
    expect(await settleSolanaWithdrawals(deps)).toMatchObject({ replaced: 0, failed: 0 });
    expect(await usdtOf(owner)).toBe(1n);
    expect(await usdtOf(hot.address)).toBe(usdt('100'));
    await expectSettledBooks(0n);
  });

  it("holds back what the hot wallet's USDT cannot cover: a larger payout waits pending while a smaller one behind it goes, and goes once the float is topped up", async () => {
    const hot = await newHotWallet(solana.node, { usdt: usdt('50') });
    const deps = solanaSenderDeps(env, solana.node, hot.signer);
    const large = await withdraw(newSolanaWallet(), '40');
    const larger = await withdraw(newSolanaWallet(), '30');
    const small = await withdraw(newSolanaWallet(), '8');

    // 50 held: 40 goes, then 30 is more than the 10 left, 8 is not.
    expect(await sendSolanaWithdrawals(deps)).toMatchObject({ sent: 2, awaitingFloat: 1 });
    expect((await Promise.all([large, larger, small].map(read))).map((withdrawal) => withdrawal.status)).toEqual(['processing', 'pending', 'processing']);
    // What is processing counts as gone until it settles: still nothing for 30 with 2 held.
    expect(await sendSolanaWithdrawals(deps)).toMatchObject({ sent: 0, awaitingFloat: 1 });
    expect(await settleFinal(deps)).toMatchObject({ completed: 2 });

    await solana.node.issuer.mintTo(hot.address, usdt('28'));
    expect(await sendSolanaWithdrawals(deps)).toMatchObject({ sent: 1, awaitingFloat: 0 });
    expect(await settleFinal(deps)).toMatchObject({ completed: 1 });
    expect(await usdtOf(hot.address)).toBe(0n);
    await expectSettledBooks(usdt('78') + 3n * WITHDRAWAL_RULES.fee);
  });
});
