import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { address, generateKeyPairSigner } from '@solana/kit';
import { base58 } from '@scure/base';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { createDeposit, getDeposit } from '#functions/deposits/deposits';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { addressIndexCounterItem } from '#adapters/dynamo/items/deposit-address';
import { readItem } from '#adapters/dynamo/queries';
import { solana as solanaNetwork } from '#functions/networks/solana/network';
import { DepositOwnersNotReady, depositOwnersItem, OWNERS_PER_BLOCK } from '#functions/networks/solana/deposit-owner-record';
import { depositOwnerPath, depositSeedOf, deriveDepositOwners, deriveEd25519, writeDepositOwnersAhead } from '#functions/networks/solana/deposit-owners';
import { DynamoSolanaSweepStore } from '#functions/networks/solana/sweep-store';
import type { SolanaRpcChain } from '#functions/networks/solana/rpc-chain';
import { freshTable, useFreshTable, type TestTable } from '../support/dynamo.ts';
import { expectLedgerMatchesBalances, usdt } from '../support/money.ts';
import { FINALITY_DEPTH, SOLANA_TEST_DEPOSIT_SEED, nodeChainOf, sendSolanaTransaction, usdtPaymentInstructions, useSolanaNode } from '../support/solana.ts';
import { DynamoScreeningStore } from '#adapters/dynamo/screening-store';
import { addStageEntry } from '#functions/screening/screening-import';
import { customerPays, solanaDepositJobs, solanaDepositSettings, solanaSweeper } from '../support/solana-sweeps.ts';

/**
 * Deposits on Solana end to end on the local runtime and DynamoDB Local: a deposit's address is an
 * owner wallet the sweeper derived ahead from the deposit seed (functions/networks/solana/
 * deposit-owners.ts), read by deposit creation from the table; the customer wallet pays it as any
 * wallet does (creating its USDT token account); the deposit poller's scanner sees the payment and
 * credits it at `finalized` alone; a payment whose token account the issuer froze is held until it
 * is thawed.
 */
const env = useFreshTable();
const solana = useSolanaNode();
const deposits = new DynamoDepositStore(env.db, env.tableName);
const companies = new DynamoCompanyStore(env.db, env.tableName);
const seed = depositSeedOf(SOLANA_TEST_DEPOSIT_SEED);
let companyId: string;
let chain: SolanaRpcChain;
let jobs: ReturnType<typeof solanaDepositJobs>;

const node = () => solana.node;
const newDeposit = (table: TestTable = env, store = deposits, company = companyId) =>
  createDeposit(store, solanaDepositSettings(table, solana.settings()), company, { network: 'solana', reference: `sol-${Math.random()}` }, new Date());
const companyUsdt = async () => (await companies.getBalances(companyId)).find((row) => row.currency === 'USDT') ?? { available: 0n, held: 0n };
/** The owner SLIP-0010 gives at Solana's wallet path for the index, in base58. */
const ownerAt = (index: number) => base58.encode(deriveEd25519(seed, depositOwnerPath(index)).publicKey);
/** The items of these types in a table (a test table is small: one scan). */
const itemsOfType = async (table: TestTable, types: string[]) =>
  ((await table.db.send(new ScanCommand({ TableName: table.tableName }))).Items ?? []).filter((item) => types.includes(item.type as string));

beforeAll(async () => {
  chain = nodeChainOf(node());
  jobs = solanaDepositJobs(env, node(), chain);
  ({ company: { id: companyId } } = await createCompany(companies, { name: 'Solana Deposit Co', environment: 'sandbox' }, new Date()));
  await solanaSweeper(env, solana.settings()).writeOwnersAhead();
  // The scanner's first run starts at the newest slot: every payment after it is seen.
  await jobs.scan();
});

describe('Solana deposits on the local runtime', () => {
  it("a deposit gets the owner derived at its index; the customer wallet pays it, creating its token account; the scanner sees it and credits it only at finalized, with the exact amount", async () => {
    const deposit = await newDeposit();
    expect(deposit.address).toBe(ownerAt(deposit.addressIndex));
    expect(solanaNetwork.address.is(deposit.address)).toBe(true);
    expect(deposit).toMatchObject({ network: 'solana', status: 'awaiting_payment', requiredConfirmations: FINALITY_DEPTH });
    expect((await chain.tokenAccounts(node().mint, [deposit.address])).get(deposit.address)).toMatchObject({ exists: false });
    const before = await companyUsdt();

    const paid = usdt('12.345678');
    const signature = await customerPays(node(), deposit.address, paid);
    expect((await chain.tokenAccounts(node().mint, [deposit.address])).get(deposit.address)).toMatchObject({ exists: true, amount: paid, frozen: false });
    // The next slot: the scanner reads the payment's slot once it is past (the local node's current
    // slot still takes transactions; the scan's overlap would read it again anyway).
    node().advanceSlots(1);
    expect(await jobs.scan()).toMatchObject({ recorded: 1 });
    expect(await getDeposit(deposits, companyId, deposit.id)).toMatchObject({ status: 'confirming', receivedAmount: paid, transactions: [expect.objectContaining({ txHash: signature, amount: paid, status: 'confirming' })] });

    // One slot short of `finalized` (the payment's slot FINALITY_DEPTH behind the newest): not credited.
    node().advanceSlots(FINALITY_DEPTH - 2);
    expect(await jobs.confirm()).toMatchObject({ confirmed: 0, waiting: 1 });
    expect((await getDeposit(deposits, companyId, deposit.id)).status).toBe('confirming');
    expect((await companyUsdt()).available).toBe(before.available);

    node().advanceSlots(1);
    expect(await jobs.confirm()).toMatchObject({ confirmed: 1, waiting: 0 });
    expect(await getDeposit(deposits, companyId, deposit.id)).toMatchObject({ status: 'completed', receivedAmount: paid, creditedAmount: paid, amountStatus: null });
    expect((await companyUsdt()).available - before.available).toBe(paid);
    // Credited: due for a sweep.
    expect((await new DynamoSolanaSweepStore(env.db, env.tableName).dueAddresses(100)).due.map((due) => due.address)).toContain(deposit.address);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  }, 60_000);

  it('a payment whose token account the issuer froze before it was final is held, and credited once the account is thawed', async () => {
    const deposit = await newDeposit();
    const paid = usdt('7');
    await customerPays(node(), deposit.address, paid);
    await jobs.scan();
    const account = (await chain.tokenAccounts(node().mint, [deposit.address])).get(deposit.address)!.address;
    await node().issuer.freeze(address(account));
    // A frozen account receives nothing more: the token program refuses a payment into it.
    await expect(customerPays(node(), deposit.address, usdt('1'))).rejects.toThrow();
    const before = await companyUsdt();

    expect(await jobs.settle()).toMatchObject({ held: 1, confirmed: 0 });
    expect(await getDeposit(deposits, companyId, deposit.id)).toMatchObject({ status: 'held', creditedAmount: 0n, transactions: [expect.objectContaining({ status: 'held', holdReason: 'address_frozen' })] });
    expect((await companyUsdt()).available).toBe(before.available);
    // Still frozen: still held.
    expect(await jobs.release()).toBe(0);

    await node().issuer.thaw(address(account));
    expect(await jobs.release()).toBe(1);
    expect(await getDeposit(deposits, companyId, deposit.id)).toMatchObject({ status: 'completed', creditedAmount: paid });
    expect((await companyUsdt()).available - before.available).toBe(paid);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  }, 60_000);

  it("one transaction paying a deposit from two wallets, the larger payer clean and the other on the screening list, is held as sender_sanctioned: every payer is screened, not only the one that paid most", async () => {
    const deposit = await newDeposit();
    const listed = await generateKeyPairSigner();
    await addStageEntry(new DynamoScreeningStore(env.db, env.tableName), { network: 'solana', address: listed.address, reason: 'test: a court order', actor: 'test' });
    await node().issuer.mintTo(listed.address, usdt('5'));
    // The customer pays the fee and the larger part; the listed wallet signs its own smaller transfer.
    const [customerPart, listedPart] = await Promise.all([
      usdtPaymentInstructions(node(), node().customer.signer, deposit.address, usdt('8')),
      usdtPaymentInstructions(node(), listed, deposit.address, usdt('3')),
    ]);
    await sendSolanaTransaction(node(), node().customer.signer, [...customerPart, ...listedPart]);
    const before = await companyUsdt();

    expect(await jobs.settle()).toMatchObject({ held: 1, confirmed: 0 });
    expect(await getDeposit(deposits, companyId, deposit.id)).toMatchObject({
      status: 'held',
      creditedAmount: 0n,
      transactions: [expect.objectContaining({ amount: usdt('11'), from: node().customer.address, status: 'held', holdReason: 'sender_sanctioned' })],
    });
    expect(await companyUsdt()).toMatchObject({ available: before.available, held: before.held + usdt('11') });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  }, 60_000);

  it('deposit creation before the owners are written is refused with DepositOwnersNotReady and writes nothing; once the sweeper writes them, the next deposit gets its owner', async () => {
    const table = await freshTable();
    try {
      const store = new DynamoDepositStore(table.db, table.tableName);
      const tableCompanies = new DynamoCompanyStore(table.db, table.tableName);
      const { company } = await createCompany(tableCompanies, { name: 'Solana Early Co', environment: 'sandbox' }, new Date());
      const depositTypes = ['Deposit', 'DepositReference', 'DepositAddress', 'DepositAddressListed'];

      await expect(newDeposit(table, store, company.id)).rejects.toBeInstanceOf(DepositOwnersNotReady);
      expect(await itemsOfType(table, depositTypes)).toEqual([]);

      // The process took indexes 0..99 from the counter: the sweeper writes from the first block, not
      // from the counter's, so the indexes it holds get owners too.
      expect(await solanaSweeper(table, solana.settings()).writeOwnersAhead()).toBe(depositOwnersItem.blockOf(100 + solana.settings().depositOwnersAhead - 1) + 1);
      const deposit = await newDeposit(table, store, company.id);
      expect(deposit.addressIndex).toBe(1);
      expect(deposit.address).toBe(ownerAt(1));
      expect(await itemsOfType(table, ['Deposit'])).toHaveLength(1);
    } finally {
      table.db.destroy();
    }
  }, 60_000);

  it('two sweepers writing ahead at once write each block once, and a run with nothing due writes none', async () => {
    const table = await freshTable();
    try {
      const seedOnce = async () => seed;
      const [atA, atB] = [new Date('2030-01-01T00:00:00Z'), new Date('2030-01-01T00:00:01Z')];
      const [a, b] = await Promise.all([writeDepositOwnersAhead(table.db, table.tableName, seedOnce, 0, 1_000, atA), writeDepositOwnersAhead(table.db, table.tableName, seedOnce, 0, 1_000, atB)]);
      expect(a + b).toBe(10);
      for (let block = 0; block < 10; block++) {
        const item = (await readItem(table.db, table.tableName, depositOwnersItem.key(String(block))))!;
        expect([atA.toISOString(), atB.toISOString()]).toContain(item.createdAt);
        expect(depositOwnersItem.ownersOf(item)).toEqual(deriveDepositOwners(seed, block * OWNERS_PER_BLOCK, OWNERS_PER_BLOCK));
      }
      expect(await readItem(table.db, table.tableName, depositOwnersItem.key('10'))).toBeNull();
      expect(await writeDepositOwnersAhead(table.db, table.tableName, seedOnce, 0, 1_000)).toBe(0);

      // The counter moves on: only the block now within reach is written.
      await table.db.send(new PutCommand({ TableName: table.tableName, Item: { ...addressIndexCounterItem.key(), type: addressIndexCounterItem.type, nextIndex: 950 } }));
      expect(await solanaSweeper(table, solana.settings({ depositOwnersAhead: 100 })).writeOwnersAhead()).toBe(1);
      expect(await readItem(table.db, table.tableName, depositOwnersItem.key('10'))).not.toBeNull();
      expect(await readItem(table.db, table.tableName, depositOwnersItem.key('11'))).toBeNull();
    } finally {
      table.db.destroy();
    }
  }, 60_000);
});
