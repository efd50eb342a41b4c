import { TRON_DEPOSIT_SETTINGS } from '../support/deposit-settings.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { createDeposit, getDeposit, type Deposit } from '#functions/deposits/deposits';
import { scanDeposits } from '#functions/deposits/deposit-scan';
import { DepositAddressFilter } from '#functions/deposits/deposit-address-filter';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { DynamoDepositChainStore, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { countDynamoRequests, dynamoRequestCounts } from '../../bench/dynamo-requests.ts';
import { useFreshTable } from '../support/dynamo.ts';
import { usdt } from '../support/money.ts';
import { ChainClock, sandboxChainOver, USDT } from '../support/sandbox-chain-jobs.ts';

countDynamoRequests();

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
