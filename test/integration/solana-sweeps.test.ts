import { address, createSolanaRpc, signature as toSignature } from '@solana/kit';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { createDeposit, type Deposit } from '#functions/deposits/deposits';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { getWithdrawal, requestWithdrawal } from '#functions/withdrawals/withdrawals';
import { sendSolanaWithdrawals, settleSolanaWithdrawals } from '#functions/networks/solana/withdrawal-sending';
import { PAYOUT_COMPUTE_UNITS } from '#functions/networks/solana/payouts';
import { SolanaBlockhashNotFound, type SolanaRpcChain } from '#functions/networks/solana/rpc-chain';
import { sweepCapacity, sweepSolanaDepositAddresses } from '#functions/networks/solana/sweeps';
import { openAndReclaim, solanaSweeperRun } from '#functions/networks/solana/jobs';
import { RECLAIM_MARGIN_MS } from '#functions/networks/solana/deposit-accounts';
import { DEPOSIT_TTL_MS } from '#functions/deposits/deposits';
import type { SolanaSweep } from '#functions/networks/solana/sweep-types';
import { DynamoSolanaSweepStore } from '#functions/networks/solana/sweep-store';
import { solanaSweepInFlight, solanaSweepItem } from '#functions/networks/solana/sweep-record';
import { SOLANA_TRANSACTION_BYTES, TOKEN_ACCOUNT_BYTES } from '#functions/networks/solana/chain';
import type { Log } from '#functions/shared/log';
import { readItem } from '#adapters/dynamo/queries';
import { toBigInt } from '#adapters/dynamo/client';
import { depositAddressItem } from '#adapters/dynamo/items/deposit-address';
import { useFreshTable } from '../support/dynamo.ts';
import { creditAvailable, expectLedgerMatchesBalances, usdt, WITHDRAWAL_RULES } from '../support/money.ts';
import { FINALITY_DEPTH, SOLANA_TEST_HOT_WALLET, nodeChainOf, useSolanaNode } from '../support/solana.ts';
import { customerPays, solanaDepositJobs, solanaDepositSettings, solanaSweeper } from '../support/solana-sweeps.ts';
import { newHotWallet, newSolanaWallet, solanaSenderDeps } from '../support/solana-payouts.ts';

/**
 * Solana's deposit sweeps on the real runtime (the local node: litesvm behind JSON-RPC) and
 * DynamoDB Local (functions/networks/solana/sweeps.ts): deposits created, paid by the customer wallet
 * and credited through the scanner, then swept many to a transaction, each deposit token account
 * emptied and closed to the hot wallet, which pays every fee; a frozen account held and swept once
 * thawed; a sweep whose blockhash expired unlanded signed again once; two sweepers at once.
 */
const env = useFreshTable();
const solana = useSolanaNode();
const deposits = new DynamoDepositStore(env.db, env.tableName);
const companies = new DynamoCompanyStore(env.db, env.tableName);
const store = new DynamoSolanaSweepStore(env.db, env.tableName);
const quiet: Log = { warn: () => {}, error: () => {} };
let companyId: string;
let chain: SolanaRpcChain;
let jobs: ReturnType<typeof solanaDepositJobs>;

const node = () => solana.node;
const rpc = () => createSolanaRpc(node().url);
const sweeper = (options: { chain?: SolanaRpcChain } = {}) => solanaSweeper(env, solana.settings(), options);
const sweep = (options: { chain?: SolanaRpcChain } = {}) => sweepSolanaDepositAddresses({ ...sweeper(options).deps, log: quiet });
const hotUsdt = () => chain.tokenBalance(node().mint, SOLANA_TEST_HOT_WALLET);
const hotSol = () => chain.feeBalance(SOLANA_TEST_HOT_WALLET);
const dueNow = async () => (await store.dueAddresses(1_000)).due;
const companyUsdt = async () => (await companies.getBalances(companyId)).find((row) => row.currency === 'USDT')!;
const sumOf = (amounts: string[]) => amounts.reduce((sum, amount) => sum + usdt(amount), 0n);
/** Makes what was sent final: `finalized` trails the newest slot by FINALITY_DEPTH. */
const finalise = () => node().advanceSlots(FINALITY_DEPTH + 1);

/** Deposits paid these amounts by the customer wallet, scanned and credited at `finalized`: due for a sweep. */
async function creditedDeposits(amounts: string[]): Promise<Deposit[]> {
  const made: Deposit[] = [];
  for (const amount of amounts) {
    const deposit = await createDeposit(deposits, solanaDepositSettings(env, solana.settings()), companyId, { network: 'solana', reference: `sw-${Math.random()}` }, new Date());
    await customerPays(node(), deposit.address, usdt(amount));
    made.push(deposit);
  }
  await jobs.scan();
  expect(await jobs.settle()).toMatchObject({ confirmed: amounts.length });
  return made;
}

beforeAll(async () => {
  chain = nodeChainOf(node());
  jobs = solanaDepositJobs(env, node(), chain);
  ({ company: { id: companyId } } = await createCompany(companies, { name: 'Solana Sweep Co', environment: 'sandbox' }, new Date()));
  // The hot wallet pays every sweep's fees; the deposit addresses never get SOL.
  await node().airdrop(SOLANA_TEST_HOT_WALLET, 10_000_000_000n);
  await sweeper().writeOwnersAhead();
  // The scanner's first run starts at the newest slot: every payment after it is seen.
  await jobs.scan();
});

beforeEach(async () => {
  // Each test starts with nothing due and nothing open: what an earlier test left is swept and settled.
  for (let run = 0; run < 10 && ((await dueNow()).length > 0 || (await store.openSweeps()).length > 0); run++) {
    await sweep();
    finalise();
  }
  expect(await dueNow()).toEqual([]);
});

describe('Solana deposit sweeps on the local runtime', () => {
  it("ten paid deposit addresses are swept in ceil(10 / capacity) transactions within 1,232 bytes each: the hot wallet's USDT grows by exactly their sum, every deposit token account is closed and its rent the hot wallet's; the deposit owners never hold SOL", async () => {
    const amounts = ['1.5', '2', '3.25', '4', '5', '6.75', '7', '8', '9.5', '12.000001'];
    const made = await creditedDeposits(amounts);
    const owners = made.map((deposit) => deposit.address);
    expect((await dueNow()).map((due) => due.address).sort()).toEqual([...owners].sort());
    const before = await chain.tokenAccounts(node().mint, owners);
    const rent = owners.reduce((sum, owner) => sum + before.get(owner)!.lamports, 0n);
    expect(rent).toBe(BigInt(owners.length) * (await chain.rentExemptMinimum(TOKEN_ACCOUNT_BYTES)));
    const hotAccountBefore = (await chain.tokenAccounts(node().mint, [SOLANA_TEST_HOT_WALLET])).get(SOLANA_TEST_HOT_WALLET)!;
    const [usdtBefore, solBefore, companyBefore] = await Promise.all([hotUsdt(), hotSol(), companyUsdt()]);
    // The capacity is the encoded size's: with the hot wallet's token account made in the sweep when it has none.
    const capacity = await sweepCapacity({ createsHotWalletAccount: !hotAccountBefore.exists });
    expect(capacity).toBeGreaterThanOrEqual(5);
    const transactions = Math.ceil(owners.length / capacity);

    expect(await sweep()).toMatchObject({ sent: transactions, swept: owners.length, frozen: 0 });
    const open = await store.openSweeps();
    expect(open).toHaveLength(transactions);
    for (const one of open) {
      expect(Buffer.from(one.wire, 'base64').length).toBeLessThanOrEqual(SOLANA_TRANSACTION_BYTES);
      expect(one.accounts.length).toBeLessThanOrEqual(capacity);
      expect(one).toMatchObject({ status: 'sending', wallet: SOLANA_TEST_HOT_WALLET, earlierSignatures: [] });
      // Reconcile sees it in flight, with what it moves.
      expect(solanaSweepInFlight((await readItem(env.db, env.tableName, solanaSweepItem.open(one.id)))!)).toEqual({ network: 'solana', txHashes: [one.signature], amount: one.amount });
    }
    expect(Math.max(...open.map((one) => one.accounts.length))).toBe(Math.min(capacity, owners.length));
    expect(open.flatMap((one) => one.accounts.map((account) => account.owner)).sort()).toEqual([...owners].sort());
    expect(open.reduce((sum, one) => sum + one.amount, 0n)).toBe(sumOf(amounts));

    // Landed, not final: still open, nothing swept twice.
    expect(await sweep()).toMatchObject({ sent: 0, landing: transactions, done: 0 });
    finalise();
    expect(await sweep()).toMatchObject({ done: transactions, cleared: owners.length, sent: 0 });
    expect(await dueNow()).toEqual([]);
    expect(await store.openSweeps()).toEqual([]);
    const finished = (await store.finishedSweeps()).filter((one) => open.some((sent) => sent.id === one.id));
    expect(finished.map((one) => one.status)).toEqual(open.map(() => 'done'));

    // USDT: exactly the sum, once.
    expect((await hotUsdt()) - usdtBefore).toBe(sumOf(amounts));
    // Every deposit token account closed: no USDT, no lamports left there.
    const after = await chain.tokenAccounts(node().mint, owners);
    for (const owner of owners) expect(after.get(owner)).toMatchObject({ exists: false, amount: 0n, lamports: 0n });
    // SOL: the hot wallet paid each transaction's fee (and its own token account's rent, once) and got every closed account's rent.
    let fees = 0n;
    for (const one of open) {
      const landed = await rpc().getTransaction(toSignature(one.signature), { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
      expect(landed?.meta?.err).toBeNull();
      const keys = landed!.transaction.message.accountKeys;
      // The fee payer is the hot wallet; the deposit owners hold no lamports before or after.
      expect(keys[0]).toBe(SOLANA_TEST_HOT_WALLET);
      for (const account of one.accounts) {
        const index = keys.indexOf(address(account.owner));
        expect(index).toBeGreaterThan(0);
        expect([landed!.meta!.preBalances[index], landed!.meta!.postBalances[index]]).toEqual([0n, 0n]);
      }
      fees += landed!.meta!.fee;
    }
    const hotAccountRent = hotAccountBefore.exists ? 0n : (await chain.tokenAccounts(node().mint, [SOLANA_TEST_HOT_WALLET])).get(SOLANA_TEST_HOT_WALLET)!.lamports;
    expect((await hotSol()) - solBefore).toBe(rent - fees - hotAccountRent);
    for (const owner of owners) expect(await chain.feeBalance(owner)).toBe(0n);
    // Treasury moving between Cambio's own wallets: no company balance moves.
    expect(await companyUsdt()).toEqual(companyBefore);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  }, 60_000);

  it("ten deposit addresses whose accounts Cambio opened (the hot wallet their delegate and close authority) are swept in one transaction the hot wallet alone signs, whether the payer or Cambio created the account; the owners' keys sign only the opening", async () => {
    const amounts = ['1', '2.5', '3', '4', '5', '6', '7.25', '8', '9', '10.000001'];
    const made: Deposit[] = [];
    for (const [i] of amounts.entries()) made.push(await createDeposit(deposits, solanaDepositSettings(env, solana.settings()), companyId, { network: 'solana', reference: `open-${i}-${Math.random()}` }, new Date()));
    const owners = made.map((deposit) => deposit.address);
    // Half paid before Cambio opens their accounts (the payer's wallet creates them), half after.
    for (const [i, owner] of owners.slice(0, 5).entries()) await customerPays(node(), owner, usdt(amounts[i]!));
    const solBeforeOpening = await hotSol();
    const { opened } = await openAndReclaim(sweeper(), quiet);
    expect([...opened].sort()).toEqual([...owners].sort());
    const states = await chain.tokenAccounts(node().mint, owners);
    for (const owner of owners) {
      expect(states.get(owner)).toMatchObject({ exists: true, delegate: SOLANA_TEST_HOT_WALLET, delegatedAmount: 2n ** 64n - 1n, closeAuthority: SOLANA_TEST_HOT_WALLET });
    }
    // Opened once: a second run in the window sends nothing.
    expect((await openAndReclaim(sweeper(), quiet)).opened).toEqual([]);
    const rent = await chain.rentExemptMinimum(TOKEN_ACCOUNT_BYTES);
    // The hot wallet paid the rent of the five accounts it created, and the fees.
    expect(solBeforeOpening - (await hotSol())).toBeGreaterThan(5n * rent);
    for (const [i, owner] of owners.slice(5).entries()) await customerPays(node(), owner, usdt(amounts[i + 5]!));
    node().advanceSlots(1);
    await jobs.scan();
    expect(await jobs.settle()).toMatchObject({ confirmed: amounts.length });

    const [usdtBefore, solBefore] = await Promise.all([hotUsdt(), hotSol()]);
    expect(await sweepCapacity({ createsHotWalletAccount: false, opened: true })).toBeGreaterThanOrEqual(10);
    expect(await sweep()).toMatchObject({ sent: 1, swept: 10, unknownOwners: 0 });
    const [one] = await store.openSweeps();
    expect(one!.accounts.map((account) => account.owner).sort()).toEqual([...owners].sort());
    expect(Buffer.from(one!.wire, 'base64').length).toBeLessThanOrEqual(SOLANA_TRANSACTION_BYTES);
    finalise();
    expect(await sweep()).toMatchObject({ done: 1, cleared: 10 });
    const landed = await rpc().getTransaction(toSignature(one!.signature), { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
    expect(landed?.meta?.err).toBeNull();
    // One signature, the hot wallet's; no owner among the signers.
    expect(landed!.transaction.signatures).toHaveLength(1);
    expect(landed!.transaction.message.header.numRequiredSignatures).toBe(1);
    expect(landed!.transaction.message.accountKeys[0]).toBe(SOLANA_TEST_HOT_WALLET);
    expect((await hotUsdt()) - usdtBefore).toBe(sumOf(amounts));
    // Every account closed, its rent back with the hot wallet, which paid the one fee.
    for (const owner of owners) expect((await chain.tokenAccounts(node().mint, [owner])).get(owner)).toMatchObject({ exists: false, lamports: 0n });
    expect((await hotSol()) - solBefore).toBe(10n * rent - landed!.meta!.fee);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  }, 60_000);

  it('an address in a sweep its owner signed is not opened under it: the sweep lands and closes the account', async () => {
    const [deposit] = await creditedDeposits(['3']);
    // Signed by the owner's key (a run that could not open it) and stored, its broadcast lost: in flight.
    const lost = Object.assign(Object.create(chain) as SolanaRpcChain, {
      broadcast: async () => {
        throw new Error('connection reset');
      },
    });
    expect(await sweep({ chain: lost })).toMatchObject({ sent: 1, swept: 1 });
    expect((await chain.tokenAccounts(node().mint, [deposit!.address])).get(deposit!.address)).toMatchObject({ exists: true, amount: usdt('3') });
    expect((await openAndReclaim(sweeper(), quiet)).opened).toEqual([]);
    // Sent again while its blockhash may land, it lands and closes the account, as it could not had the account been opened under it.
    expect(await sweep()).toMatchObject({ rebroadcast: 1 });
    finalise();
    expect(await sweep()).toMatchObject({ done: 1, failed: 0 });
    expect((await chain.tokenAccounts(node().mint, [deposit!.address])).get(deposit!.address)).toMatchObject({ exists: false });
  }, 60_000);

  it("a deposit that expires unpaid has its opened account closed once it is older than a deposit lives and the margin, by a later run when the closing sent was dropped: the rent comes back, counted reclaimed once the account reads closed; a paid one's account is not closed, and a swept one is not opened again", async () => {
    // Made as long ago as the reclaim waits, and a little more: out of the opening window of the runs that follow.
    const createdAt = new Date(Date.now() - DEPOSIT_TTL_MS - RECLAIM_MARGIN_MS - 10 * 60_000);
    const later = (ms: number) => new Date(createdAt.getTime() + ms);
    const [unpaid, paid] = [
      await createDeposit(deposits, solanaDepositSettings(env, solana.settings()), companyId, { network: 'solana', reference: `unpaid-${Math.random()}` }, createdAt),
      await createDeposit(deposits, solanaDepositSettings(env, solana.settings()), companyId, { network: 'solana', reference: `paid-${Math.random()}` }, createdAt),
    ];
    expect((await openAndReclaim(sweeper(), quiet, later(1_000))).opened.sort()).toEqual([unpaid!.address, paid!.address].sort());
    await customerPays(node(), paid!.address, usdt('0.5'));
    const rent = await chain.rentExemptMinimum(TOKEN_ACCOUNT_BYTES);

    // Not before the margin: the unpaid one may yet be paid.
    const early = await openAndReclaim(sweeper(), quiet, later(DEPOSIT_TTL_MS + RECLAIM_MARGIN_MS - 60_000));
    expect(early).toEqual({ opened: [], reclaimed: 0 });
    const solBefore = await hotSol();
    // Its closing accepted by a node that never sends it on (dropped in congestion; one that reverts
    // lands no better): the account is still open, and nothing is counted reclaimed.
    const dropped = Object.assign(Object.create(chain) as SolanaRpcChain, { broadcast: async () => 'accepted' as const });
    const lost = await openAndReclaim(sweeper({ chain: dropped }), quiet, later(DEPOSIT_TTL_MS + RECLAIM_MARGIN_MS + 60_000));
    expect((await chain.tokenAccounts(node().mint, [unpaid!.address])).get(unpaid!.address)).toMatchObject({ exists: true, amount: 0n, lamports: rent });
    expect(lost).toEqual({ opened: [], reclaimed: 0 });
    // The next run reads the account again and closes it; the one after reads it closed and counts it.
    expect(await openAndReclaim(sweeper(), quiet, later(DEPOSIT_TTL_MS + RECLAIM_MARGIN_MS + 120_000))).toEqual({ opened: [], reclaimed: 0 });
    const after = await chain.tokenAccounts(node().mint, [unpaid!.address, paid!.address]);
    expect(after.get(unpaid!.address)).toMatchObject({ exists: false, lamports: 0n });
    expect(after.get(paid!.address)).toMatchObject({ exists: true, amount: usdt('0.5') });
    expect((await hotSol()) - solBefore).toBe(rent - 5_000n);
    expect(await openAndReclaim(sweeper(), quiet, later(DEPOSIT_TTL_MS + RECLAIM_MARGIN_MS + 180_000))).toEqual({ opened: [], reclaimed: 1 });
    // Counted once: the runs after find nothing more to close or count.
    expect(await openAndReclaim(sweeper(), quiet, later(DEPOSIT_TTL_MS + RECLAIM_MARGIN_MS + 240_000))).toEqual({ opened: [], reclaimed: 0 });
    // The late payment is credited as any.
    expect(await jobs.settle()).toMatchObject({ confirmed: 1 });
  }, 60_000);

  it("opens no deposit account that would take the hot wallet's SOL below what the payouts waiting need: one company's unpaid deposits do not take every opening, and a payout to a new wallet still lands", async () => {
    // A payout waiting, from another company, to a wallet with no token account: it pays the account's rent too.
    const other = (await createCompany(companies, { name: 'Solana Payout Co', environment: 'sandbox' }, new Date())).company.id;
    await creditAvailable(env.db, env.tableName, other, 'USDT', '100', 'solana');
    const withdrawals = new DynamoWithdrawalStore(env.db, env.tableName);
    const payout = await requestWithdrawal(withdrawals, { ...WITHDRAWAL_RULES, networks: { solana: {} } }, other, { reference: `payout-${Math.random()}`, network: 'solana', address: newSolanaWallet(), amount: usdt('5') }, new Date());
    // The floor: the stage's minimum, and the payout's fee at most (its signature, its compute at the
    // priority fee cap) and the rent of the token account it creates.
    const minimum = 10_000_000n;
    const rent = await chain.rentExemptMinimum(TOKEN_ACCOUNT_BYTES);
    const priorityFeeCap = BigInt(solana.settings().priorityFeeCapMicroLamports);
    const floor = minimum + 5_000n + (priorityFeeCap * BigInt(PAYOUT_COMPUTE_UNITS)) / 1_000_000n + rent;
    // A hot wallet of the test's own, just above the floor: two token accounts' rent and their fees more.
    const hot = await newHotWallet(node(), { usdt: usdt('100'), lamports: floor + 2n * rent + 100_000n });
    const own = solanaSweeper(env, solana.settings({ localHotWalletKey: hot.keypairHex, hotWalletSolMinimum: Number(minimum) }));
    // Eight unpaid deposits of one company, then one of another's, made an hour ago (out of the
    // opening window of the other tests' runs, which go by the time now).
    const madeAt = new Date(Date.now() - 60 * 60_000);
    const settings = solanaDepositSettings(env, solana.settings());
    const many: Deposit[] = [];
    for (let i = 0; i < 8; i++) many.push(await createDeposit(deposits, settings, companyId, { network: 'solana', reference: `unpaid-many-${i}-${Math.random()}` }, madeAt));
    const theOther = await createDeposit(deposits, settings, other, { network: 'solana', reference: `unpaid-other-${Math.random()}` }, new Date(madeAt.getTime() + 1_000));

    const opened: string[] = [];
    for (let run = 1; run <= 3; run++) {
      opened.push(...(await openAndReclaim(own, quiet, new Date(madeAt.getTime() + run * 60_000))).opened);
      expect(await chain.feeBalance(hot.address)).toBeGreaterThanOrEqual(floor);
    }
    expect(opened.length).toBeGreaterThan(0);
    expect(opened.length).toBeLessThan(many.length + 1);
    expect(opened).toContain(theOther.address);
    const states = await chain.tokenAccounts(node().mint, opened);
    for (const owner of opened) expect(states.get(owner)).toMatchObject({ exists: true, delegate: hot.address, closeAuthority: hot.address });

    // The payout to a new wallet lands: its fee and the rent of the payee's token account were kept.
    const sender = solanaSenderDeps(env, node(), hot.signer);
    expect(await sendSolanaWithdrawals(sender)).toMatchObject({ sent: 1 });
    finalise();
    expect(await settleSolanaWithdrawals(sender)).toMatchObject({ completed: 1, failed: 0 });
    expect(await getWithdrawal(withdrawals, other, payout.id)).toMatchObject({ status: 'completed', deliveredAmount: usdt('5') });
  }, 60_000);

  it('a frozen deposit token account is held and left out of the sweep; once thawed it goes back to the due list and is swept', async () => {
    const [frozen, other] = await creditedDeposits(['3', '4']);
    const frozenAccount = (await chain.tokenAccounts(node().mint, [frozen!.address])).get(frozen!.address)!.address;
    await node().issuer.freeze(address(frozenAccount));
    const usdtBefore = await hotUsdt();
    const availableBefore = (await companyUsdt()).available;

    // The run opens the two accounts (the frozen one cannot be: Approve refuses a frozen account),
    // and sweeps none it opened in the same run.
    const opening = await solanaSweeperRun(sweeper(), quiet);
    expect(opening.outcome.outcome).toMatchObject({ frozen: 1, sent: 0 });
    expect(opening.counts).toMatchObject({ DepositAccountsOpened: 1, DepositAddressesFrozen: 1 });
    const first = await solanaSweeperRun(sweeper(), quiet);
    expect(first.outcome.outcome).toMatchObject({ sent: 1, swept: 1 });
    expect(first.counts).toMatchObject({ DepositAccountsOpened: 0, SweptDepositAccounts: 1 });
    const [open] = await store.openSweeps();
    expect(open!.accounts.map((account) => account.owner)).toEqual([other!.address]);
    expect(await store.setAsideAddresses()).toEqual([frozen!.address]);
    // Frozen after its credit: the 3 USDT that cannot move are taken back into held.
    expect(await companyUsdt()).toMatchObject({ available: availableBefore - usdt('3'), held: usdt('3') });
    expect(await deposits.getDeposit(companyId, frozen!.id)).toMatchObject({ status: 'held', creditedAmount: 0n, frozenCredit: usdt('3') });
    finalise();
    // Still frozen: still set aside, never put in a sweep.
    const second = await solanaSweeperRun(sweeper(), quiet);
    expect(second.outcome.outcome).toMatchObject({ done: 1, sent: 0 });
    expect(second.counts).toMatchObject({ DepositAddressesFrozen: 1 });
    expect((await hotUsdt()) - usdtBefore).toBe(usdt('4'));

    await node().issuer.thaw(address(frozenAccount));
    // Thawed: back on the due list, opened now, and swept by the next run.
    const third = await solanaSweeperRun(sweeper(), quiet);
    expect(third.outcome.outcome).toMatchObject({ sent: 0, frozen: 0 });
    expect(third.counts).toMatchObject({ DepositAddressesFrozen: 0, DepositAccountsOpened: 1 });
    expect(await store.setAsideAddresses()).toEqual([]);
    expect(await companyUsdt()).toMatchObject({ available: availableBefore, held: 0n });
    expect(await deposits.getDeposit(companyId, frozen!.id)).toMatchObject({ status: 'completed', creditedAmount: usdt('3') });
    expect((await solanaSweeperRun(sweeper(), quiet)).outcome.outcome).toMatchObject({ sent: 1, swept: 1 });
    finalise();
    expect((await solanaSweeperRun(sweeper(), quiet)).outcome.outcome).toMatchObject({ done: 1, cleared: 1 });
    expect((await hotUsdt()) - usdtBefore).toBe(usdt('7'));
    expect((await chain.tokenAccounts(node().mint, [frozen!.address])).get(frozen!.address)).toMatchObject({ exists: false });
  }, 60_000);

  it('an address below the minimum is left with its USDT, marked below the minimum for reconciliation, and swept along once a payment brings it over', async () => {
    const [small] = await creditedDeposits(['0.5']);
    const usdtBefore = await hotUsdt();
    expect(await sweep()).toMatchObject({ sent: 0, cleared: 1, belowMinimum: 1 });
    expect(await dueNow()).toEqual([]);
    const item = (await readItem(env.db, env.tableName, depositAddressItem.key(small!.address)))!;
    expect(item.GSI1PK).toBe(depositAddressItem.belowMinimumPartition('solana'));
    expect(toBigInt(item.unsweptUsdt)).toBe(usdt('0.5'));
    expect((await chain.tokenAccounts(node().mint, [small!.address])).get(small!.address)).toMatchObject({ exists: true, amount: usdt('0.5') });

    // A second payment to the same address, credited: due again, and its whole balance swept.
    await customerPays(node(), small!.address, usdt('2'));
    node().advanceSlots(1);
    await jobs.scan();
    expect(await jobs.settle()).toMatchObject({ confirmed: 1 });
    expect(await sweep()).toMatchObject({ sent: 1, swept: 1 });
    finalise();
    expect(await sweep()).toMatchObject({ done: 1, cleared: 1 });
    expect((await hotUsdt()) - usdtBefore).toBe(usdt('2.5'));
  }, 60_000);

  it('a payment the scanner has not recorded keeps its address, still due, out of the sweep until it is credited; one landing after a sweep landed is not taken for what was swept', async () => {
    const [deposit] = await creditedDeposits(['5']);
    const owner = deposit!.address;
    const usdtBefore = await hotUsdt();
    // Lands; the scanner has not read it yet.
    await customerPays(node(), owner, usdt('50'));
    expect(await sweep()).toMatchObject({ sent: 0, waiting: 1 });
    expect((await dueNow()).map((due) => due.address)).toEqual([owner]);
    expect((await chain.tokenAccounts(node().mint, [owner])).get(owner)).toMatchObject({ exists: true, amount: usdt('55') });

    // Recorded and credited: due again, every unit of it recorded, swept whole.
    node().advanceSlots(1);
    await jobs.scan();
    expect(await jobs.settle()).toMatchObject({ confirmed: 1 });
    expect(await sweep()).toMatchObject({ sent: 1, swept: 1 });
    expect((await chain.tokenAccounts(node().mint, [owner])).get(owner)).toMatchObject({ exists: false });

    // Another payment opens the account again after the sweep landed, before it is final: settling
    // takes the 55 off the address's counts, so the 7 waits for the scanner.
    await customerPays(node(), owner, usdt('7'));
    finalise();
    expect(await sweep()).toMatchObject({ done: 1, sent: 0 });
    expect((await chain.tokenAccounts(node().mint, [owner])).get(owner)).toMatchObject({ exists: true, amount: usdt('7') });
    node().advanceSlots(1);
    await jobs.scan();
    expect(await jobs.settle()).toMatchObject({ confirmed: 1 });
    expect(await sweep()).toMatchObject({ sent: 1, swept: 1 });
    finalise();
    expect(await sweep()).toMatchObject({ done: 1 });
    expect((await hotUsdt()) - usdtBefore).toBe(usdt('62'));
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  }, 60_000);

  it('a sweep that must be signed again after a payment the scanner has not recorded landed fails rather than take it; the address waits, still due, until it is credited', async () => {
    const [deposit] = await creditedDeposits(['5']);
    const owner = deposit!.address;
    const lost = Object.assign(Object.create(chain) as SolanaRpcChain, {
      broadcast: async () => {
        throw new Error('process killed');
      },
    });
    expect(await sweep({ chain: lost })).toMatchObject({ sent: 1 });
    const [stored] = await store.openSweeps();
    await customerPays(node(), owner, usdt('3'));
    node().advanceSlots(200);
    expect(await chain.blockHeight('finalized')).toBeGreaterThan(stored!.lastValidBlockHeight);

    expect(await sweep()).toMatchObject({ failed: 1, resigned: 0, sent: 0, waiting: 1 });
    expect((await store.finishedSweeps()).find((one: SolanaSweep) => one.id === stored!.id)).toMatchObject({ status: 'failed', failureReason: 'UNRECORDED_PAYMENT' });
    expect((await chain.tokenAccounts(node().mint, [owner])).get(owner)).toMatchObject({ exists: true, amount: usdt('8') });

    await jobs.scan();
    expect(await jobs.settle()).toMatchObject({ confirmed: 1 });
    expect(await sweep()).toMatchObject({ sent: 1, swept: 1 });
    finalise();
    expect(await sweep()).toMatchObject({ done: 1 });
    expect((await chain.tokenAccounts(node().mint, [owner])).get(owner)).toMatchObject({ exists: false });
  }, 60_000);

  it('a sweep whose blockhash expired unlanded is sent again while it may land, signed again once it cannot, and lands once', async () => {
    const [deposit] = await creditedDeposits(['5']);
    const usdtBefore = await hotUsdt();
    // A sweeper whose broadcasts are lost: stored, never sent (a process killed after its write).
    const lost = Object.assign(Object.create(chain) as SolanaRpcChain, {
      broadcast: async () => {
        throw new Error('process killed');
      },
    });

    expect(await sweep({ chain: lost })).toMatchObject({ sent: 1, swept: 1 });
    const [stored] = await store.openSweeps();
    const first = stored!.signature;
    const statusOf = async (signature: string) => (await chain.signatureStatuses([signature]))[0];
    expect(await statusOf(first)).toBeNull();

    // Within its blockhash's window: sent again (lost again), never signed anew.
    node().advanceSlots(100);
    expect(await chain.blockHeight('finalized')).toBeLessThanOrEqual(stored!.lastValidBlockHeight);
    expect(await sweep({ chain: lost })).toMatchObject({ resigned: 0, rebroadcast: 0, sent: 0 });
    expect((await store.openSweeps()).map((one) => one.signature)).toEqual([first]);

    // Past it at the finalized height, and no node knows it: it can never land, so it is signed anew.
    node().advanceSlots(100);
    expect(await chain.blockHeight('finalized')).toBeGreaterThan(stored!.lastValidBlockHeight);
    expect(await sweep()).toMatchObject({ resigned: 1, sent: 0, swept: 0 });
    const [again] = await store.openSweeps();
    expect(again).toMatchObject({ id: stored!.id, status: 'sending', earlierSignatures: [first], amount: usdt('5') });
    expect(again!.signature).not.toBe(first);
    expect(again!.lastValidBlockHeight).toBeGreaterThan(stored!.lastValidBlockHeight);
    expect(solanaSweepInFlight((await readItem(env.db, env.tableName, solanaSweepItem.open(again!.id)))!)?.txHashes).toEqual([again!.signature, first]);
    // The old version can no longer land anywhere: the node refuses its blockhash.
    await expect(chain.broadcast({ wire: stored!.wire })).rejects.toBeInstanceOf(SolanaBlockhashNotFound);

    // Not signed a third time while the new one lands.
    expect(await sweep()).toMatchObject({ resigned: 0, landing: 1 });
    finalise();
    expect(await sweep()).toMatchObject({ done: 1, resigned: 0 });
    const [done] = (await store.finishedSweeps()).filter((one: SolanaSweep) => one.id === stored!.id);
    expect(done).toMatchObject({ status: 'done', signature: again!.signature, earlierSignatures: [first] });
    expect(await statusOf(first)).toBeNull();
    expect(await statusOf(again!.signature)).toMatchObject({ err: null, confirmationStatus: 'finalized' });
    expect((await hotUsdt()) - usdtBefore).toBe(usdt('5'));
    expect((await chain.tokenAccounts(node().mint, [deposit!.address])).get(deposit!.address)).toMatchObject({ exists: false });
  }, 60_000);

  it('a sweep whose earlier version landed is done, even when a newer version signed on a lagging view shows failed', async () => {
    const [deposit] = await creditedDeposits(['5']);
    expect(await sweep()).toMatchObject({ sent: 1 });
    const [landed] = await store.openSweeps();
    // As after a provider that showed neither the landing nor the closed account: a newer version
    // signed, which then failed on chain (its accounts were closed by the first).
    const newer = [...landed!.signature].reverse().join(''); // a signature no node knows
    const resigned: SolanaSweep = { ...landed!, signature: newer, earlierSignatures: [landed!.signature], updatedAt: new Date().toISOString() };
    expect(await store.saveSweep(landed!, resigned)).toBe(true);
    finalise();
    const lagging = Object.assign(Object.create(chain) as SolanaRpcChain, {
      signatureStatuses: async (signatures: string[]) => {
        const others = signatures.filter((signature) => signature !== newer);
        const real = new Map((await chain.signatureStatuses(others)).map((status, i) => [others[i]!, status]));
        return signatures.map((signature) => (signature === newer ? { slot: 1, err: { InstructionError: [1, { Custom: 1 }] }, confirmationStatus: 'finalized' as const } : (real.get(signature) ?? null)));
      },
    });
    expect(await sweep({ chain: lagging })).toMatchObject({ done: 1, failed: 0 });
    expect((await store.finishedSweeps()).find((one: SolanaSweep) => one.id === landed!.id)).toMatchObject({ status: 'done', signature: landed!.signature, earlierSignatures: [newer] });
    expect((await chain.tokenAccounts(node().mint, [deposit!.address])).get(deposit!.address)).toMatchObject({ exists: false });
  }, 60_000);

  it('two sweepers at once never sweep an address twice', async () => {
    const amounts = ['1', '2', '3', '4', '5', '6', '7', '8'];
    const made = await creditedDeposits(amounts);
    const usdtBefore = await hotUsdt();
    // Two sweepers that read the same due addresses and sign different transactions (one on an
    // older blockhash: a node behind the other's), each storing only once both have signed.
    const older = Object.assign(Object.create(chain) as SolanaRpcChain, {
      latestBlockhash: async () => {
        const { value } = await rpc().getLatestBlockhash({ commitment: 'finalized' }).send();
        return { blockhash: value.blockhash, lastValidBlockHeight: value.lastValidBlockHeight };
      },
    });
    let signedBoth!: () => void;
    const bothSigned = new Promise<void>((resolve) => (signedBoth = resolve));
    let waiting = 0;
    const racing = (options: { chain?: SolanaRpcChain }) => {
      const { deps } = sweeper(options);
      const own = deps.store;
      let first = true;
      const store = Object.assign(Object.create(own) as typeof own, {
        storeSweep: async (one: SolanaSweep) => {
          if (first) {
            first = false;
            if (++waiting === 2) signedBoth();
            await bothSigned;
          }
          return own.storeSweep(one);
        },
      });
      return sweepSolanaDepositAddresses({ ...deps, store, log: quiet });
    };

    const [a, b] = await Promise.all([racing({}), racing({ chain: older })]);
    // Each batch was signed by both; each address went into one stored sweep.
    expect(a.sent + b.sent).toBe(a.contended + b.contended);
    expect(a.contended + b.contended).toBeGreaterThan(0);
    expect(a.swept + b.swept).toBe(made.length);
    const open = await store.openSweeps();
    const swept = open.flatMap((one) => one.accounts.map((account) => account.owner));
    expect(swept.sort()).toEqual(made.map((deposit) => deposit.address).sort());
    expect(new Set(swept).size).toBe(swept.length);
    // And again, while those are open: nothing more is sent.
    const [c, d] = await Promise.all([sweep(), sweep()]);
    expect(c.sent + d.sent).toBe(0);

    finalise();
    const [e, f] = await Promise.all([sweep(), sweep()]);
    expect(e.done + f.done).toBe(open.length);
    expect(e.sent + f.sent).toBe(0);
    expect((await hotUsdt()) - usdtBefore).toBe(sumOf(amounts));
    expect(await dueNow()).toEqual([]);
  }, 60_000);
});
