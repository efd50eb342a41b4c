import { randomUUID } from 'node:crypto';
import { createCompany } from '#domain/company';
import { requestWithdrawal } from '#domain/withdrawals';
import { SEND_BATCH, SETTLE_RESERVE_MS, sendWithdrawals, settleWithdrawals, type SendingDeps } from '#domain/withdrawal-sending';
import { reconcileHoldings, reconciliationReport } from '#domain/reconciliation';
import { parseAmount } from '#domain/money';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#domain/tron-address';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { DynamoWithdrawalSendingStore } from '#adapters/dynamo/withdrawal-sending-store';
import { DynamoTransactionClaims } from '#adapters/dynamo/transaction-claims';
import { ledgerSide } from '#adapters/dynamo/reconciliation-store';
import { SandboxChain } from '#adapters/chain/sandbox-chain';
import { TronTransferBuilder } from '#adapters/chain/tron-transfer-builder';
import { LocalKeySigner } from '#adapters/signer/local-key-signer';
import { ensureTable } from '#local/dynamodb-local';
import { STAGES } from '../../lib/stages.ts';
import { creditAvailable } from '../../test/support/ledger.ts';
import type { Scenario } from '../scenario.ts';

const PAYOUTS = 100;
const AMOUNT = '2';
const USDT = STAGES.local.functionEnvironment.USDT_CONTRACT;
const BLOCK_MS = 3000;

/**
 * Issue #12's attack as a measurement: 100 equal withdrawals (same address, same amount) queued at
 * once, sent by the withdrawal sender's own code (sendWithdrawals, which reads SEND_BATCH a page
 * and goes on page after page while its run has time) to the sandbox chain on DynamoDB Local, each signed,
 * claimed and broadcast; then settled and reconciled. A table of its own on the run's DynamoDB
 * Local, and a chain whose clock the scenario moves, so solidifying takes no wall time.
 */
export const payoutsScenario: Scenario = {
  name: 'payouts',
  title: `The withdrawal sender with ${PAYOUTS} equal payouts queued: sent per minute, distinct transfers, reconcile after`,
  async run({ runtime, log }) {
    const tableName = `bench-payouts-${randomUUID()}`;
    await ensureTable(runtime.dynamoEndpoint, tableName);
    const db = createDocumentClient(runtime.dynamoEndpoint);
    let clock = Date.now();
    const signer = new LocalKeySigner(STAGES.local.functionEnvironment.LOCAL_HOT_WALLET_KEY!);
    const hotWallet = await signer.address();
    const chain = new SandboxChain(db, tableName, { blockIntervalMs: BLOCK_MS, solidifyAfter: 19, now: () => clock, treasury: () => signer.address() });
    const deps: SendingDeps = {
      chain,
      builder: new TronTransferBuilder(chain, { usdtContract: USDT, feeLimitSun: 30_000_000 }),
      broadcaster: chain,
      signer,
      store: new DynamoWithdrawalSendingStore(db, tableName),
      claims: new DynamoTransactionClaims(db, tableName),
      hotWalletUsdt: () => chain.tokenBalance(USDT, hotWallet),
      now: () => new Date(clock),
    };
    const companies = new DynamoCompanyStore(db, tableName);
    const { company } = await createCompany(companies, { name: 'Bench Payouts', environment: 'sandbox' });
    const funding = '1000';
    await creditAvailable(db, tableName, company.id, 'USDT', funding);
    await chain.submitTransfer({ contract: USDT, from: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 3_000_000), to: hotWallet, amount: parseAmount(funding, 'USDT') });
    const to = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 3_000_001);
    const withdrawals = new DynamoWithdrawalStore(db, tableName);
    const rules = { fee: parseAmount('1', 'USDT'), minimum: parseAmount('1', 'USDT') };
    for (let i = 0; i < PAYOUTS; i++) {
      await requestWithdrawal(withdrawals, rules, company.id, { reference: `payout-${i}`, address: to, amount: parseAmount(AMOUNT, 'USDT') });
    }
    clock += BLOCK_MS;

    const started = performance.now();
    let runs = 0;
    let sent = 0;
    while (sent < PAYOUTS && runs < 50) {
      sent += (await sendWithdrawals(deps)).sent;
      runs++;
    }
    const seconds = (performance.now() - started) / 1000;
    log(`sent ${sent} in ${seconds.toFixed(1)} s over ${runs} runs`);
    clock += 20 * BLOCK_MS;
    const settled = await settleWithdrawals(deps);

    const received = await chain.tokenBalance(USDT, to);
    const reconciliation = await reconcileHoldings({
      ledger: () => ledgerSide(db, tableName, 'every'),
      usdtBalances: (addresses) => chain.tokenBalances(USDT, addresses),
      minedSuccessfully: async (txHash) => (await chain.receipt(txHash))?.result === 'SUCCESS',
      hotWalletAddress: async () => hotWallet,
    });
    const expected = parseAmount(AMOUNT, 'USDT') * BigInt(PAYOUTS);
    const failures: string[] = [];
    if (sent !== PAYOUTS) failures.push(`sent ${sent} of ${PAYOUTS}`);
    if (settled.completed !== PAYOUTS) failures.push(`settled ${settled.completed} completed of ${PAYOUTS}`);
    if (received !== expected) failures.push(`the address received ${received}, not ${expected}`);
    if (!reconciliation.balanced) failures.push(`reconcile: ${reconciliationReport(reconciliation)}`);
    db.destroy();
    return {
      name: 'payouts',
      title: this.title,
      summaries: [],
      tables: [
        {
          title: `${PAYOUTS} withdrawals of ${AMOUNT} USDT to one address, queued at once`,
          columns: ['sender runs', 'sent', 'seconds', 'sent per minute', 'completed', 'USDT received by the address', 'reconcile'],
          rows: [[runs, sent, seconds.toFixed(1), Math.round((sent / seconds) * 60), settled.completed, (Number(received) / 1e6).toFixed(6), reconciliation.balanced ? 'balanced to the unit' : `${reconciliation.mismatch ?? 'dust'} ${reconciliation.difference}`]],
        },
      ],
      goals: [
        { goal: `${PAYOUTS} distinct transfers, ${PAYOUTS} × ${AMOUNT} USDT received`, met: received === expected && settled.completed === PAYOUTS, detail: `${(Number(received) / 1e6).toFixed(6)} USDT received` },
        { goal: 'reconcile balanced after the run', met: reconciliation.balanced, detail: reconciliationReport(reconciliation).split('\n').at(-1) ?? '' },
      ],
      failures,
      notes: [
        `A sender run reads SEND_BATCH (${SEND_BATCH}) pending withdrawals a page and takes page after page until ${SETTLE_RESERVE_MS / 1000} s of its Lambda time are left for settling: in AWS (one run a minute, 55 s) the deployed rate is what one run does in about 35 s, so this figure, per minute, is roughly the deployed ceiling, bounded by KMS signing and TronGrid's broadcast latency in AWS rather than by the schedule.`,
        'Per payout: a transfer built offline (tronweb), signed with the local hot wallet key, stored with its TransactionClaim in one DynamoDB transaction, then broadcast to the sandbox chain (which checks the signature and executes it against balances).',
      ],
    };
  },
};
