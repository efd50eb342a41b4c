import { beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { requestWithdrawal } from '#functions/withdrawals/withdrawals';
import { SEND_BATCH } from '#functions/withdrawals/withdrawal-sending';
import { sendWithdrawals } from '#functions/networks/tron/withdrawal-sending';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { countDynamoRequests, dynamoRequestCounts } from '../../bench/dynamo-requests.ts';
import { creditAvailable, usdt, WITHDRAWAL_RULES } from '../support/money.ts';
import { sandboxChainWithHotWallet, sandboxSending, USDT } from '../support/sandbox-chain-jobs.ts';

countDynamoRequests();

const { env, clock, hotWallet, chain } = sandboxChainWithHotWallet('2026-11-22T00:00:00.000Z');
const PAYOUTS = SEND_BATCH + 5;
const PAGES = Math.ceil(PAYOUTS / SEND_BATCH);
const to = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 3_000_001);

/** Each BatchGetItem that read the screening list (keys under `SCREENING`), as the keys it read:
 * bench/dynamo-requests.ts counts requests by operation only, and the chain's duplicate checks are
 * BatchGetItems too. */
const screeningReads: string[][] = [];
env.db.middlewareStack.add(
  (next, context) => async (args) => {
    if (context.commandName === 'BatchGetItemCommand') {
      const { RequestItems = {} } = args.input as { RequestItems?: Record<string, { Keys?: Record<string, unknown>[] }> };
      const keys = Object.values(RequestItems).flatMap(({ Keys = [] }) => Keys.map(({ PK, SK }) => `${PK}/${SK}`));
      if (keys.some((key) => key.startsWith('SCREENING'))) screeningReads.push(keys.sort());
    }
    return next(args);
  },
  { step: 'initialize', name: 'screeningReads' },
);

/**
 * What one payout costs the sender in DynamoDB requests, counted rather than timed (the bench's
 * payouts scenario times it): the claim's transaction, the sandbox chain's duplicate check and
 * transaction, the broadcast mark, and a page read per SEND_BATCH with its screening lookup. A read
 * or write added per payout,
 * or a retry, shows here as a count on any machine, loaded or not.
 */
describe('the withdrawal sender’s requests per payout', () => {
  beforeAll(async () => {
    const { company } = await createCompany(new DynamoCompanyStore(env.db, env.tableName), { name: 'Payout Requests', environment: 'sandbox' }, clock.now());
    await creditAvailable(env.db, env.tableName, company.id, 'USDT', '1000');
    await chain.submitTransfer({ contract: USDT, from: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 3_000_000), to: await hotWallet.address(), amount: usdt('1000') });
    const withdrawals = new DynamoWithdrawalStore(env.db, env.tableName);
    for (let i = 0; i < PAYOUTS; i++) {
      await requestWithdrawal(withdrawals, WITHDRAWAL_RULES, company.id, { reference: `payout-${i}`, address: to, amount: usdt('2') }, clock.now());
    }
    clock.advanceBlocks(1);
  });

  it(`sends ${PAYOUTS} equal withdrawals in one run for 4 requests each, plus two reads per page (the page, its destinations on the screening list)`, async () => {
    const deps = sandboxSending(env, chain, hotWallet, clock);
    deps.hotWalletUsdt = async () => chain.tokenBalance(USDT, await hotWallet.address());
    const before = new Map(dynamoRequestCounts);
    const screeningReadsBefore = screeningReads.length;
    const result = await sendWithdrawals(deps);
    const sent = (operation: string) => (dynamoRequestCounts.get(operation) ?? 0) - (before.get(operation) ?? 0);

    expect(result.sent).toBe(PAYOUTS);
    // Per payout: the claim's transaction, the chain's transaction, the broadcast mark; once, the
    // sandbox treasury's TRX grant.
    expect(sent('TransactWriteItemsCommand')).toBe(3 * PAYOUTS + 1);
    // Per payout: the sandbox chain's duplicate check (on TRON, the node's); the hot wallet's balance once a run.
    expect(sent('GetItemCommand')).toBeLessThanOrEqual(PAYOUTS + 2);
    // Two pages of pending withdrawals, the processing ones for the float (none yet), the
    // treasury's one-time grant: nothing per payout.
    expect(sent('QueryCommand')).toBeLessThanOrEqual(4);
    // Per payout, the sandbox chain's duplicate check with its token's rules (one BatchGetItem); and
    // each page's destinations looked up again on the screening list, fresh: one read a page, of the
    // list's version and the page's one destination.
    expect(screeningReads.slice(screeningReadsBefore)).toEqual(Array.from({ length: PAGES }, () => [`SCREENING#tron/ADDRESS#${to}`, 'SCREENING/LIST']));
    expect(sent('BatchGetItemCommand')).toBe(PAYOUTS + PAGES);
    const total = [...dynamoRequestCounts].reduce((sum, [operation, n]) => sum + n - (before.get(operation) ?? 0), 0);
    expect(total).toBeLessThanOrEqual(4 * PAYOUTS + 8);
  });
});
