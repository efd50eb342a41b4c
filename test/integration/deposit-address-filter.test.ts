import { TRON_DEPOSIT_SETTINGS } from '../support/deposit-settings.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeEveryDynamoRequest } from '../support/dynamo-request-observer.ts';
import { createCompany } from '#functions/companies/company';
import { createDeposit, getDeposit, type Deposit } from '#functions/deposits/deposits';
import { scanDeposits } from '#functions/deposits/deposit-scan';
import { DepositAddressFilter } from '#functions/deposits/deposit-address-filter';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { DynamoDepositChainStore, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { depositAddressListedItem } from '#adapters/dynamo/items/deposit-address';
import type { LocalRuntime } from '#local/runtime';
import { countDynamoRequests, dynamoRequestCounts } from '../../bench/dynamo-requests.ts';
import { useFreshTable } from '../support/dynamo.ts';
import { apiClient, startTestApi } from '../support/local-api.ts';
import { usdt } from '../support/money.ts';
import { ChainClock, sandboxChainOver, USDT } from '../support/sandbox-chain-jobs.ts';

countDynamoRequests();

/** The reads of the deposit address listing this process sent, each as a refresh of the filter
 * makes it: of what was listed since a time (`since`), or of the whole listing, from its start or
 * on from where an earlier page stopped (`resumed`). */
const listingReads: { since: boolean; resumed: boolean }[] = [];
const readsFromTheStart = () => listingReads.filter((read) => !read.since && !read.resumed).length;
// As bench/dynamo-requests.ts counts: the poller makes its client at module scope, out of reach.
observeEveryDynamoRequest('listingReadRecorder', (commandName, request) => {
  const input = request as { ExpressionAttributeValues?: Record<string, unknown>; KeyConditionExpression?: string; ExclusiveStartKey?: unknown };
  const partition = input.ExpressionAttributeValues?.[':pk'] as { S?: string } | string | undefined;
  const read = typeof partition === 'string' ? partition : partition?.S;
  if (commandName === 'QueryCommand' && read === depositAddressListedItem.partition) {
    listingReads.push({ since: input.KeyConditionExpression?.includes('SK') ?? false, resumed: input.ExclusiveStartKey !== undefined });
  }
});

const env = useFreshTable();
const clock = new ChainClock('2026-11-22T00:00:00.000Z', 3000);
const chain = sandboxChainOver(env, clock);
const store = new DynamoDepositChainStore(env.db, env.tableName, 'tron');
const deposits = new DynamoDepositStore(env.db, env.tableName);
const PAYER = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 888_888);
/** One filter for every scan of this file, as the poller keeps one across warm invocations. */
const addresses = new DepositAddressFilter(store, clock.now);
const scan = () => scanDeposits({ network: 'tron', chain, store, usdtContract: USDT, now: clock.now, cursor: new DynamoScanCursor(env.db, env.tableName, 'tron-usdt'), owner: 'scanner', addresses });
let companyId: string;

const newDeposit = (createdAt = clock.now()): Promise<Deposit> =>
  createDeposit(deposits, TRON_DEPOSIT_SETTINGS, companyId, { network: 'tron', reference: `ref-${Math.random()}` }, createdAt);
const pay = (to: string, amount: string) => chain.submitTransfer({ contract: USDT, from: PAYER, to, amount: usdt(amount) });
const read = (deposit: Deposit) => getDeposit(deposits, companyId, deposit.id);

beforeAll(async () => {
  ({ company: { id: companyId } } = await createCompany(new DynamoCompanyStore(env.db, env.tableName), { name: 'Filter Co', environment: 'sandbox' }, clock.now()));
  // The first deposit ever asked is refused after taking its address index (0): a network the
  // stage does not open. The listing is complete all the same (the counter says every address was
  // listed), so strangers are never looked up (below); the first scan loads the one address.
  await expect(createDeposit(deposits, TRON_DEPOSIT_SETTINGS, companyId, { network: 'ethereum', reference: 'refused-first' }, clock.now())).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  const first = await newDeposit();
  expect(first.addressIndex).toBe(1);
  await pay(first.address, '1');
  clock.advanceBlocks(1);
  await scan();
  expect(addresses.size).toBe(1);
});

describe('the scanner’s deposit address filter', () => {
  it('credits a deposit made after the filter loaded, paid in the next block', async () => {
    const late = await newDeposit();
    await pay(late.address, '4');
    clock.advanceBlocks(1);
    expect((await scan()).recorded).toBe(1);
    expect(await read(late)).toMatchObject({ status: 'confirming', receivedAmount: usdt('4') });
  });

  it('credits a deposit stamped before the last refresh but listed after it (a slow API call, a skewed clock)', async () => {
    clock.advanceBlocks(1);
    await scan();
    const stampedEarlier = await newDeposit(new Date(clock.now().getTime() - 2 * 60_000));
    await pay(stampedEarlier.address, '6');
    clock.advanceBlocks(1);
    expect((await scan()).recorded).toBe(1);
    expect((await read(stampedEarlier)).receivedAmount).toBe(usdt('6'));
  });

  it('reads nothing for transfers to addresses that are not deposit addresses', async () => {
    // Past the overlap re-scan of the deposits paid above.
    clock.advanceBlocks(25);
    await scan();
    for (let i = 0; i < 30; i++) await pay(deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 500_000 + i), '2');
    clock.advanceBlocks(1);
    const before = new Map(dynamoRequestCounts);
    const result = await scan();
    const sent = (operation: string) => (dynamoRequestCounts.get(operation) ?? 0) - (before.get(operation) ?? 0);
    expect(result).toMatchObject({ transfersSeen: 30, recorded: 0 });
    expect(addresses.size).toBe(3);
    expect(sent('BatchGetItemCommand')).toBe(0);
    // One a scan, whatever the transfers: the token's controls, to follow a deprecation (usdtContracts).
    expect(sent('GetItemCommand')).toBe(1);
    // The lease (take, advance, release), the chain's transfers and what was listed since.
    expect(sent('QueryCommand')).toBe(2);
  });
});

describe('the filter’s first read of a large listing, a page at a time within a time', () => {
  /** A filter as a cold start has it, reading two addresses a page; `readUntil` now: one page a scan. */
  const coldFilter = () => new DepositAddressFilter(store, clock.now, 2);
  const scanWith = (filter: DepositAddressFilter, listingReadUntil?: Date) =>
    scanDeposits({ network: 'tron', chain, store, usdtContract: USDT, now: clock.now, cursor: new DynamoScanCursor(env.db, env.tableName, 'tron-usdt'), owner: 'scanner', addresses: filter, listingReadUntil });

  it('stops after a page, finds a payment to an address of a later page all the same, and reads on from there at the next scan', async () => {
    const made = [await newDeposit(), await newDeposit(), await newDeposit(), await newDeposit()];
    const paid = made.at(-1)!;
    await pay(paid.address, '3');
    clock.advanceBlocks(1);
    const filter = coldFilter();
    listingReads.length = 0;
    expect((await scanWith(filter, clock.now())).recorded).toBe(1);
    // The listing's first page alone; the payment's address, listed after it, was read by itself.
    expect(filter.size).toBe(2);
    expect(listingReads).toEqual([{ since: false, resumed: false }]);
    expect(await read(paid)).toMatchObject({ status: 'confirming', receivedAmount: usdt('3') });

    clock.advanceBlocks(1);
    listingReads.length = 0;
    await scanWith(filter, clock.now());
    expect(listingReads).toEqual([{ since: false, resumed: true }]);
    expect(filter.size).toBe(4);
  });

  it('finds, from memory once the read is whole, an address listed under a place the read had passed', async () => {
    const filter = coldFilter();
    clock.advanceBlocks(1);
    await scanWith(filter, clock.now());
    expect(filter.size).toBe(2);
    // Stamped well before its commit (a slow API call, a skewed clock), within the margin: listed
    // first of all, under the place the read has passed.
    const stampedBefore = await newDeposit(new Date(clock.now().getTime() - 4.5 * 60_000));
    expect((await store.depositAddressesListedPage(null, 1)).listed[0]!.address).toBe(stampedBefore.address);
    await pay(stampedBefore.address, '8');
    clock.advanceBlocks(1);

    // This scan's refresh reads the listing to its end: the filter answers from memory from then on.
    listingReads.length = 0;
    expect((await scanWith(filter)).recorded).toBe(1);
    expect(await read(stampedBefore)).toMatchObject({ status: 'confirming', receivedAmount: usdt('8') });
    expect(readsFromTheStart()).toBe(0);
    expect(filter.size).toBe((await store.depositAddressesListed(null)).length);

    // And then reads only what was listed since.
    clock.advanceBlocks(1);
    listingReads.length = 0;
    await scanWith(filter, clock.now());
    expect(listingReads).toEqual([{ since: true, resumed: false }]);
  });
});

describe('the deposit poller (functions/handlers/jobs/deposit-poller.ts), polling two networks in one process', () => {
  let runtime: LocalRuntime;

  beforeAll(async () => {
    runtime = await startTestApi({ solana: true });
  });

  afterAll(() => runtime?.stop());

  it('reads the whole listing once, for both networks’ scans', async () => {
    const { pollDeposits } = await import('../../functions/handlers/jobs/deposit-poller.ts');
    const made = await apiClient(runtime)('POST', '/deposits', { body: { method: 'usdt', network: 'tron', reference: 'listed-once' } });
    expect(made.status).toBe(201);
    listingReads.length = 0;
    await pollDeposits('tron');
    await pollDeposits('solana');
    expect(readsFromTheStart()).toBe(1);
    // The second network's scan read what was listed since the first's.
    expect(listingReads.at(-1)).toEqual({ since: true, resumed: false });
  });
});
