import { randomUUID } from 'node:crypto';
import { createSolanaRpc, generateKeyPairSigner, signature as toSignature, type Address } from '@solana/kit';
import { createCompany } from '#functions/companies/company';
import { getWithdrawal, requestWithdrawal, type Withdrawal } from '#functions/withdrawals/withdrawals';
import { SEND_BATCH } from '#functions/withdrawals/withdrawal-sending';
import { SEND_IN_FLIGHT, sendSolanaWithdrawals, settleSolanaWithdrawals, solanaSendingDepsFrom, type SolanaSendingDeps } from '#functions/networks/solana/withdrawal-sending';
import type { SolanaRpcChain } from '#functions/networks/solana/rpc-chain';
import { TOKEN_ACCOUNT_BYTES } from '#functions/networks/solana/chain';
import { functionSettings } from '#functions/settings/functions';
import type { Log } from '#functions/shared/log';
import { parseAmount } from '#functions/shared/money';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { FINALITY_DEPTH, SLOT_INTERVAL_MS } from '#local/solana-node';
import { STAGES } from '../../config/stages.ts';
import { creditAvailable } from '../../test/support/ledger.ts';
import { ledgerMismatches } from '../checks.ts';
import type { Scenario, ScenarioResult } from '../scenario.ts';
import { cpuMicrosOfPid, dynamoRequestsSince, snapshotDynamoRequests } from '../harness.ts';
import { countRpcCalls, rpcCallCounts, rpcCallsSince } from '../rpc-calls.ts';
import { formatRate, operationName } from '../support.ts';
import { SolanaNodeProcess, type StartedSolanaNode } from '../solana-node.ts';
import { startOwnDynamo } from '../own-dynamo.ts';

/** Ten times the EVM scenario's 100: a Solana payout is cheap enough that 100 take a few seconds,
 * where the shared machine's noise (another job's burst) would move the figure most. */
const PAYOUTS = 1000;
/** Sent and settled first, not timed: DynamoDB Local's JIT makes its first few hundred transactions
 * several times slower (payouts.ts), and the node's first transactions load its programs. */
const WARM_UP_PAYOUTS = 200;
const AMOUNT = '2';
const FEE = '1';
/** The EVM and TRON scenarios' goal, for Solana (issue #46): a regression of the sender's
 * per-payout cost (an extra read or write per payout, a read per payout that should be per page)
 * shows here first. */
const GOAL_PER_MINUTE = 1000;
/** Sender runs (send, slots pass, settle) before the scenario gives up. */
const MAX_RUNS = 20;
/** litesvm's fee: 5,000 lamports a signature; a payout has one, and offers no priority fee on the
 * local node, which answers no getRecentPrioritizationFees (docs/solana-local.md). */
const LAMPORTS_PER_SIGNATURE = 5000n;

/**
 * The Solana withdrawal sender's payouts a minute, end to end to `finalized`, with the local key:
 * 1,000 equal withdrawals (one company, one payee wallet without a USDT account) queued at once,
 * sent and settled by the sender's own code (sendSolanaWithdrawals, then
 * settleSolanaWithdrawals, as the withdrawal-sender job runs them, built as the job builds them:
 * solanaSendingDepsFrom over the stage's SOLANA) against the local node (the real runtime, litesvm,
 * behind JSON-RPC over HTTP, as `npm start` opens it: local/solana-runtime.ts) in a child process
 * of its own (../solana-node.ts), on a DynamoDB Local of its own. A payout counts
 * once `completed`: its transaction in a `finalized` slot, read back, and the withdrawal completed
 * from what the payee's token account received: the EVM scenario's definition.
 *
 * Slots: the node's timer makes one every 400 ms as mainnet does, so a run's pages get their
 * blockhashes from moving slots and its payouts land over several slots, as they would there. Between
 * sending and settling the scenario produces the 32 slots that make the last payouts final at once
 * (advanceSlots), as the EVM scenario mines its confirmations: waiting 12.8 s for them would measure
 * Solana's finality, not the sender (the job's schedule, a run a minute, hides it anyway).
 */
export const solanaPayoutsScenario: Scenario = {
  name: 'solana-payouts',
  title: `The Solana withdrawal sender with ${PAYOUTS.toLocaleString('en')} equal payouts queued: completed (finalized) per minute, distinct transactions, exact balances`,
  async run({ log }) {
    log('  starting a DynamoDB Local of its own (in memory) and the local Solana node (a slot every 400 ms)');
    const dynamo = await startOwnDynamo(`bench-solana-payouts-${randomUUID()}`);
    countRpcCalls();
    const node = new SolanaNodeProcess();
    try {
      // As `npm start` opens Solana: its hot wallet given SOL and a 1,000,000 USDT float.
      const started = await node.start(SLOT_INTERVAL_MS, true);
      return await measurePayouts(dynamo.db, dynamo.tableName, node, started, log);
    } finally {
      await node.close();
      await dynamo.stop();
    }
  },
};

/** The sender's log: warnings counted by message (each payout to a wallet without a token account
 * says so), errors kept for the failures. */
function countingLog() {
  const warnings = new Map<string, number>();
  const errors: string[] = [];
  const log: Log = {
    warn: (message) => void warnings.set(message, (warnings.get(message) ?? 0) + 1),
    error: (message, fields) => void errors.push(`${message} ${JSON.stringify(fields ?? {})}`),
  };
  return { log, warnings, errors };
}

async function measurePayouts(db: ReturnType<typeof createDocumentClient>, tableName: string, node: SolanaNodeProcess, started: StartedSolanaNode, log: (line: string) => void): Promise<ScenarioResult> {
  const hotWallet = started.hotWallet!;
  const mint = started.mint;
  const settings = functionSettings('jobs/withdrawal-sender', { ...STAGES.local.functionEnvironment, STAGE: 'local', TABLE_NAME: tableName, SOLANA: JSON.stringify(started.settings) });
  const sending = solanaSendingDepsFrom(settings, { db, tableName });
  const senderLog = countingLog();
  const deps: SolanaSendingDeps & { chain: SolanaRpcChain } = { ...sending, log: senderLog.log };
  const { chain } = deps;
  const rpc = createSolanaRpc(started.url);
  const lamportsOf = async (owner: string) => (await rpc.getBalance(owner as Address, { commitment: 'confirmed' }).send()).value;

  const amount = parseAmount(AMOUNT, 'USDT');
  const fee = parseAmount(FEE, 'USDT');
  const credit = (amount + fee) * BigInt(PAYOUTS + WARM_UP_PAYOUTS);
  const { company } = await createCompany(new DynamoCompanyStore(db, tableName), { name: 'Bench Solana Payouts', environment: 'sandbox' });
  await creditAvailable(db, tableName, company.id, 'USDT', (Number(credit) / 1e6).toFixed(6), 'solana');
  const withdrawals = new DynamoWithdrawalStore(db, tableName);
  const rules = { fee, minimum: parseAmount('1', 'USDT'), networks: { solana: {} }, contracts: () => [] };
  const queue = async (count: number, to: string, prefix: string): Promise<Withdrawal[]> => {
    const queued: Withdrawal[] = [];
    for (let i = 0; i < count; i++) queued.push(await requestWithdrawal(withdrawals, rules, company.id, { reference: `${prefix}-${i}`, network: 'solana', address: to, amount }));
    return queued;
  };
  // A payee wallet of no one, without a USDT account: the first payouts create it (idempotently).
  const payee = (await generateKeyPairSigner()).address;

  // Warm-up: to the customer wallet, whose token account exists.
  await queue(WARM_UP_PAYOUTS, started.customer, 'warm-up');
  await sendSolanaWithdrawals(deps);
  await node.advance(FINALITY_DEPTH);
  const warmedUp = (await settleSolanaWithdrawals(deps)).completed;
  log(`  warm-up: ${warmedUp} payouts completed, not timed`);

  const queueStarted = performance.now();
  const queued = await queue(PAYOUTS, payee, 'payout');
  const queueSeconds = (performance.now() - queueStarted) / 1000;
  const [hotUsdtBefore, hotLamportsBefore] = await Promise.all([chain.tokenBalance(mint, hotWallet), lamportsOf(hotWallet)]);

  const dynamoBefore = snapshotDynamoRequests();
  const rpcBefore = new Map(rpcCallCounts);
  const cpuBefore = process.cpuUsage();
  const nodeCpuBefore = await cpuMicrosOfPid(node.pid);
  const tally = { runs: 0, sent: 0, completed: 0, rebroadcast: 0, replaced: 0, failed: 0, sendMs: 0, settleMs: 0, slotsWhileSending: 0 };
  while (tally.completed + tally.failed < PAYOUTS && tally.runs < MAX_RUNS) {
    const sending = performance.now();
    const slotAtSend = await node.slot();
    const sentNow = await sendSolanaWithdrawals(deps);
    tally.slotsWhileSending += (await node.slot()) - slotAtSend;
    tally.sent += sentNow.sent;
    // Slots pass (the timer makes them as the payouts land): the last ones become final.
    await node.advance(FINALITY_DEPTH);
    const settling = performance.now();
    const settled = await settleSolanaWithdrawals(deps);
    tally.completed += settled.completed;
    tally.failed += settled.failed;
    tally.rebroadcast += settled.rebroadcast;
    tally.replaced += settled.replaced;
    tally.sendMs += settling - sending;
    tally.settleMs += performance.now() - settling;
    tally.runs++;
  }
  const cpu = process.cpuUsage(cpuBefore);
  const nodeCpuAfter = await cpuMicrosOfPid(node.pid);
  const nodeCpu = nodeCpuBefore === null || nodeCpuAfter === null ? 'n/a' : ((nodeCpuAfter - nodeCpuBefore) / 1e6).toFixed(1);
  const dynamoRequests = dynamoRequestsSince(dynamoBefore);
  const rpcCalls = rpcCallsSince(rpcBefore);
  const { runs, sent, completed, rebroadcast, replaced, failed, sendMs, settleMs, slotsWhileSending } = tally;
  const seconds = (sendMs + settleMs) / 1000;
  const perMinute = Math.round((completed / seconds) * 60);
  log(`  ${completed} completed in ${seconds.toFixed(1)} s over ${runs} runs (send ${(sendMs / 1000).toFixed(1)} s, settle ${(settleMs / 1000).toFixed(1)} s)`);

  // The checks: each payout its own transaction, final and successful, and every balance exact.
  const failures: string[] = [];
  const final = await Promise.all(queued.map((withdrawal) => getWithdrawal(withdrawals, company.id, withdrawal.id)));
  const hashes = final.map((withdrawal) => withdrawal.txHash).filter((hash): hash is string => typeof hash === 'string');
  const statuses: { confirmationStatus: string | null; err: unknown }[] = [];
  for (let i = 0; i < hashes.length; i += 256) {
    const page = hashes.slice(i, i + 256).map((hash) => toSignature(hash));
    statuses.push(...(await rpc.getSignatureStatuses(page, { searchTransactionHistory: true }).send()).value.map((status) => (status ? { confirmationStatus: status.confirmationStatus, err: status.err } : { confirmationStatus: null, err: 'unknown' })));
  }
  const rent = await rpc.getMinimumBalanceForRentExemption(BigInt(TOKEN_ACCOUNT_BYTES)).send();
  const [received, hotUsdtAfter, hotLamportsAfter] = await Promise.all([chain.tokenBalance(mint, payee), chain.tokenBalance(mint, hotWallet), lamportsOf(hotWallet)]);
  const balances = (await new DynamoCompanyStore(db, tableName).getBalances(company.id)).find((row) => row.currency === 'USDT');
  const expected = amount * BigInt(PAYOUTS);
  // Each payout's fee (one signature), and the payee's token account's rent once (the first payout
  // to land created it; the others' CreateIdempotent found it made).
  const expectedLamports = LAMPORTS_PER_SIGNATURE * BigInt(PAYOUTS) + rent;
  if (warmedUp !== WARM_UP_PAYOUTS) failures.push(`${warmedUp} of ${WARM_UP_PAYOUTS} warm-up payouts completed`);
  if (completed !== PAYOUTS || final.some((withdrawal) => withdrawal.status !== 'completed')) failures.push(`${completed} of ${PAYOUTS} completed (${failed} failed)`);
  if (final.some((withdrawal) => withdrawal.status === 'completed' && withdrawal.deliveredAmount !== amount)) failures.push('a completed payout delivered another amount than its own');
  if (new Set(hashes).size !== PAYOUTS) failures.push(`${new Set(hashes).size} distinct transactions, not ${PAYOUTS}`);
  if (statuses.some((status) => status.confirmationStatus !== 'finalized' || status.err !== null)) failures.push(`${statuses.filter((status) => status.confirmationStatus !== 'finalized' || status.err !== null).length} transactions not finalized or failed`);
  if (received !== expected) failures.push(`the payee received ${received}, not ${expected}`);
  if (hotUsdtBefore - hotUsdtAfter !== expected) failures.push(`the hot wallet sent ${hotUsdtBefore - hotUsdtAfter} USDT units, not ${expected}`);
  if (hotLamportsBefore - hotLamportsAfter !== expectedLamports) failures.push(`the hot wallet spent ${hotLamportsBefore - hotLamportsAfter} lamports, not ${expectedLamports} (${PAYOUTS} fees and one token account's rent)`);
  if (!balances || balances.available !== 0n || balances.locked !== 0n) failures.push(`the company holds ${balances?.available} available and ${balances?.locked} locked, not 0 and 0 (credited exactly the payouts and their fees)`);
  failures.push(...(await ledgerMismatches(db, tableName, company.id)));
  if (rebroadcast + replaced > 0) failures.push(`${rebroadcast} rebroadcast and ${replaced} signed again: on a node that drops nothing, each payout is broadcast once`);
  failures.push(...senderLog.errors.slice(0, 3).map((error) => `the sender logged an error: ${error}`));
  if (perMinute < GOAL_PER_MINUTE) failures.push(`${perMinute} payouts a minute, below the goal of ${GOAL_PER_MINUTE}`);
  const rpcTotal = Object.values(rpcCalls).reduce((sum, n) => sum + n, 0);
  const dynamoTotal = Object.values(dynamoRequests).reduce((sum, n) => sum + n, 0);

  const perPayout = (counts: Record<string, number>, name: (key: string) => string = (key) => key) =>
    Object.entries(counts)
      .map(([key, n]) => `${formatRate(n / (completed || 1))} ${name(key)}`)
      .join(', ');
  const checksPassed = failures.every((failure) => failure.includes('below the goal'));
  return {
    name: 'solana-payouts',
    title: solanaPayoutsScenario.title,
    summaries: [],
    tables: [
      {
        title: `${PAYOUTS.toLocaleString('en')} withdrawals of ${AMOUNT} USDT to one new wallet, queued at once, on the local Solana node (a slot every ${SLOT_INTERVAL_MS} ms; ${FINALITY_DEPTH} slots produced before each settling)`,
        columns: ['sender runs', 'sent', 'completed', 'send s', 'settle s', 'completed per minute', 'slots while sending', 'sender CPU s', 'node CPU s', 'DynamoDB requests per payout', 'JSON-RPC calls per payout'],
        rows: [
          [
            runs,
            sent,
            completed,
            (sendMs / 1000).toFixed(1),
            (settleMs / 1000).toFixed(1),
            perMinute,
            slotsWhileSending,
            ((cpu.user + cpu.system) / 1e6).toFixed(1),
            nodeCpu,
            `${formatRate(dynamoTotal / (completed || 1))}: ${perPayout(dynamoRequests, operationName)}`,
            `${formatRate(rpcTotal / (completed || 1))}: ${perPayout(rpcCalls)}`,
          ],
        ],
      },
    ],
    goals: [
      { goal: `≥ ${GOAL_PER_MINUTE} payouts completed (finalized) a minute on Solana (locally)`, met: perMinute >= GOAL_PER_MINUTE, detail: `${perMinute} a minute` },
      {
        goal: `${PAYOUTS} distinct transactions, each finalized and successful, each completed once; ${PAYOUTS} × ${AMOUNT} USDT received and sent, ${PAYOUTS} fees and one rent in SOL, the company's balance and ledger exact`,
        met: checksPassed,
        detail: failures.filter((failure) => !failure.includes('below the goal')).join('; ') || 'as expected',
      },
    ],
    failures,
    notes: [
      `A sender run is what the withdrawal-sender job does for Solana: sendSolanaWithdrawals (per page of ${SEND_BATCH}: the blockhash, the payees' token accounts, the token account rent and the recent priority fee, read once; per payout, ${SEND_IN_FLIGHT} at a time: building and signing with the local key, one DynamoDB transaction that claims the withdrawal and its signature, then sendTransaction with the node's preflight), then settleSolanaWithdrawals (per page: getSignatureStatuses; per payout: the finalized transaction, getTransaction, and the completing DynamoDB transaction). Between them the scenario produces the ${FINALITY_DEPTH} slots that make the last payouts final. The figure is completed payouts over the time of both; queueing them (requestWithdrawal, ${queueSeconds.toFixed(1)} s for ${PAYOUTS}) is the API's, not counted, as in the EVM scenario.`,
      `The node (bench/solana-node-child.ts: \`npm start\`'s, local/solana-runtime.ts) runs in a child process, a machine of its own as a provider is: litesvm executes each transaction twice (preflight, then landing) and encodes every answer, in column "node CPU s", not the sender's. It answers in well under a millisecond; a provider takes a round trip per call (tens of ms) and its own time to land a transaction: deployed, the sender's ${SEND_IN_FLIGHT} payouts in flight and KMS signing bound the rate rather than this machine's CPU. No priority fee is offered locally (the node answers no getRecentPrioritizationFees; the call is made and counted).`,
      `Checks: ${PAYOUTS} distinct signatures, all finalized without error (getSignatureStatuses); the payee's USDT and the hot wallet's exact; the hot wallet's SOL down by exactly ${PAYOUTS} × ${LAMPORTS_PER_SIGNATURE} lamports and one token account's rent; the company's USDT back to 0 available and 0 locked, its ledger matching its balances.`,
      ...[...senderLog.warnings].map(([message, n]) => `The sender warned ${n} time(s) during the run: "${message}" (the payee's token account: every payout built before it existed carries its CreateIdempotent; one pays the rent).`),
    ],
  };
}
