import { randomUUID } from 'node:crypto';
import { createTestClient, erc20Abi, http, type Address, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createCompany } from '#functions/companies/company';
import { getWithdrawal, requestWithdrawal, type Withdrawal } from '#functions/withdrawals/withdrawals';
import { hotWalletUsdtAtFinal, sendEvmWithdrawals, settleEvmWithdrawals, type EvmSendingDeps } from '#functions/networks/evm/withdrawal-sending';
import { EVM_NETWORK_NAMES, type EvmNetworkName } from '#functions/networks/names';
import { EVM_NETWORKS } from '#functions/networks/evm/networks';
import { evmChainOf, evmPayoutsOf } from '#functions/networks/evm/from-settings';
import type { SliceSettings } from '#functions/settings/functions';
import { parseAmount } from '#functions/shared/money';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { DynamoEvmSendingStore } from '#functions/networks/evm/sending-store';
import { localEvmSigner } from '#functions/networks/evm/signer';
import { startAnvilWithContracts } from '#local/anvil';
import { localPublicClient } from '#local/evm-contracts';
import { STAGES } from '../../config/stages.ts';
import { creditAvailable } from '../../test/support/ledger.ts';
import { anvilNetworkSettings } from '../../test/support/anvil.ts';
import type { Scenario, ScenarioResult } from '../scenario.ts';
import { dynamoRequestsSince, snapshotDynamoRequests } from '../harness.ts';
import { countRpcCalls, rpcCallCounts, rpcCallsSince } from '../rpc-calls.ts';
import { formatRate, operationName } from '../support.ts';
import { startOwnDynamo } from '../own-dynamo.ts';

const PAYOUTS = 100;
/** Sent and settled first, not timed: DynamoDB Local's JIT makes its first few hundred transactions
 * several times slower (payouts.ts), so the first network warms up with more; the others warm up
 * their own node and sender. */
const WARM_UP_PAYOUTS = { first: 100, next: 10 };
const AMOUNT = '2';
/** TRON's goal (payouts.ts), per network: a regression of the sender's per-payout cost shows here first. */
const GOAL_PER_MINUTE = 1000;
/** Final this deep, as on `npm start`'s nodes (local/evm-networks.ts). */
const CONFIRMATIONS = 3;
/** Sender runs (send, blocks pass, settle) before the scenario gives up on a network. */
const MAX_RUNS = 20;
const HOT_WALLET_KEY = STAGES.local.functionEnvironment.LOCAL_HOT_WALLET_KEY!;

/**
 * The EVM withdrawal sender's payouts a minute on each EVM network, with the local key: 100 equal
 * withdrawals (one company, one address) queued at once, sent and settled by the sender's own code
 * (sendEvmWithdrawals, then settleEvmWithdrawals, as the job runs them) against an anvil node with
 * the network's chain id and USDT decimals, mining each transaction as it arrives, on a DynamoDB
 * Local of its own. A payout counts once `completed`: its receipt in a block 3 deep.
 */
export const evmPayoutsScenario: Scenario = {
  name: 'evm-payouts',
  title: `The EVM withdrawal sender with ${PAYOUTS} equal payouts queued, per network: completed per minute, nonces, exact arrival`,
  async run({ log }) {
    log('  starting a DynamoDB Local of its own (in memory)');
    const dynamo = await startOwnDynamo(`bench-evm-payouts-${randomUUID()}`);
    countRpcCalls();
    try {
      const measured: NetworkPayouts[] = [];
      for (const network of EVM_NETWORK_NAMES) measured.push(await measureNetwork(dynamo.db, dynamo.tableName, network, measured.length ? WARM_UP_PAYOUTS.next : WARM_UP_PAYOUTS.first, log));
      return result(measured);
    } finally {
      await dynamo.stop();
    }
  },
};

interface NetworkPayouts {
  network: EvmNetworkName;
  runs: number;
  sent: number;
  completed: number;
  sendSeconds: number;
  settleSeconds: number;
  perMinute: number;
  dynamoRequests: Record<string, number>;
  rpcCalls: Record<string, number>;
  failures: string[];
}

async function measureNetwork(db: ReturnType<typeof createDocumentClient>, tableName: string, network: EvmNetworkName, warmUp: number, log: (line: string) => void): Promise<NetworkPayouts> {
  const decimals = EVM_NETWORKS[network].tokenDecimals;
  const node = await startAnvilWithContracts({ chainId: EVM_NETWORKS[network].chainId, usdtDecimals: decimals, hotWallet: privateKeyToAccount(`0x${HOT_WALLET_KEY}`) });
  try {
    const settings = { EVM_NETWORKS: { [network]: anvilNetworkSettings(node, { chainId: node.chainId, confirmations: CONFIRMATIONS }) } } as SliceSettings<'chain'>;
    const chain = evmChainOf(network, settings);
    const unit = 10n ** BigInt(decimals - 6);
    // As the withdrawal-sender job builds its EVM sending (functions/handlers/jobs/withdrawal-sender.ts).
    const deps: EvmSendingDeps = {
      chain,
      payouts: evmPayoutsOf(network, settings, localEvmSigner(HOT_WALLET_KEY), chain),
      store: new DynamoEvmSendingStore(db, tableName, network),
      hotWalletUsdt: hotWalletUsdtAtFinal(chain, node.usdt, async () => node.hotWallet.address, unit),
    };
    const { company } = await createCompany(new DynamoCompanyStore(db, tableName), { name: `Bench EVM Payouts ${network}`, environment: 'sandbox' });
    await creditAvailable(db, tableName, company.id, 'USDT', '1000', network);
    const withdrawals = new DynamoWithdrawalStore(db, tableName);
    const rules = { fee: parseAmount('1', 'USDT'), minimum: parseAmount('1', 'USDT'), networks: { [network]: {} }, contracts: () => [] };
    const queue = async (count: number, address: Address, prefix: string): Promise<Withdrawal[]> => {
      const queued: Withdrawal[] = [];
      for (let i = 0; i < count; i++) queued.push(await requestWithdrawal(withdrawals, rules, company.id, { reference: `${prefix}-${i}`, network, address, amount: parseAmount(AMOUNT, 'USDT') }));
      return queued;
    };
    const anvil = createTestClient({ chain: node.chain, mode: 'anvil', transport: http(node.url) });
    const client = localPublicClient(node.chain);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    // The hot wallet's funding final, as a deployed stage's long since is: the sender spends what the
    // final block shows (hotWalletUsdtAtFinal).
    await anvil.mine({ blocks: CONFIRMATIONS });

    await queue(warmUp, node.customer.address, 'warm-up');
    await sendEvmWithdrawals(deps);
    await anvil.mine({ blocks: CONFIRMATIONS });
    const warmedUp = (await settleEvmWithdrawals(deps)).completed;
    const queued = await queue(PAYOUTS, to, 'payout');

    const dynamoBefore = snapshotDynamoRequests();
    const rpcBefore = new Map(rpcCallCounts);
    let runs = 0;
    let sent = 0;
    let completed = 0;
    let sendMs = 0;
    let settleMs = 0;
    while (completed < PAYOUTS && runs < MAX_RUNS) {
      const sending = performance.now();
      sent += (await sendEvmWithdrawals(deps)).sent;
      // Blocks pass (anvil mines one per transaction as it arrives): the last ones become final.
      await anvil.mine({ blocks: CONFIRMATIONS });
      const settling = performance.now();
      completed += (await settleEvmWithdrawals(deps)).completed;
      sendMs += settling - sending;
      settleMs += performance.now() - settling;
      runs++;
    }
    const dynamoRequests = dynamoRequestsSince(dynamoBefore);
    const rpcCalls = rpcCallsSince(rpcBefore);
    const perMinute = Math.round((completed / ((sendMs + settleMs) / 1000)) * 60);
    log(`  ${network}: ${completed} completed in ${((sendMs + settleMs) / 1000).toFixed(1)} s over ${runs} runs (warm-up: ${warmedUp})`);

    const failures: string[] = [];
    const received = (await client.readContract({ address: node.usdt, abi: erc20Abi, functionName: 'balanceOf', args: [to] })) / unit;
    const expected = parseAmount(AMOUNT, 'USDT') * BigInt(PAYOUTS);
    const final = await Promise.all(queued.map((withdrawal) => getWithdrawal(withdrawals, company.id, withdrawal.id)));
    const hashes = final.map((withdrawal) => withdrawal.txHash);
    const nonces = (await Promise.all(hashes.map(async (hash) => (hash ? (await client.getTransaction({ hash: hash as Hash })).nonce : -1)))).sort((a, b) => a - b);
    if (warmedUp !== warmUp) failures.push(`${network}: ${warmedUp} of ${warmUp} warm-up payouts completed`);
    if (completed !== PAYOUTS || final.some((withdrawal) => withdrawal.status !== 'completed')) failures.push(`${network}: ${completed} of ${PAYOUTS} completed`);
    if (new Set(hashes).size !== PAYOUTS) failures.push(`${network}: ${new Set(hashes).size} distinct transactions, not ${PAYOUTS}`);
    if (nonces.some((nonce, i) => nonce !== nonces[0]! + i)) failures.push(`${network}: nonces not consecutive: ${nonces.join(',')}`);
    if (received !== expected) failures.push(`${network}: the address received ${received}, not ${expected}`);
    if (perMinute < GOAL_PER_MINUTE) failures.push(`${network}: ${perMinute} payouts a minute, below the goal of ${GOAL_PER_MINUTE}`);
    return { network, runs, sent, completed, sendSeconds: sendMs / 1000, settleSeconds: settleMs / 1000, perMinute, dynamoRequests, rpcCalls, failures };
  } finally {
    await node.stop();
  }
}

const perPayout = (counts: Record<string, number>, payouts: number, name: (key: string) => string = (key) => key) =>
  Object.entries(counts)
    .map(([key, n]) => `${formatRate(n / payouts)} ${name(key)}`)
    .join(', ');

function result(measured: NetworkPayouts[]): ScenarioResult {
  return {
    name: 'evm-payouts',
    title: evmPayoutsScenario.title,
    summaries: [],
    tables: [
      {
        title: `${PAYOUTS} withdrawals of ${AMOUNT} USDT to one address, queued at once, on each network's anvil (a block per transaction, final ${CONFIRMATIONS} deep)`,
        columns: ['network', 'sender runs', 'sent', 'completed', 'send s', 'settle s', 'completed per minute', 'DynamoDB requests per payout', 'JSON-RPC calls per payout'],
        rows: measured.map((m) => [
          m.network,
          m.runs,
          m.sent,
          m.completed,
          m.sendSeconds.toFixed(1),
          m.settleSeconds.toFixed(1),
          m.perMinute,
          perPayout(m.dynamoRequests, m.completed || 1, operationName),
          perPayout(m.rpcCalls, m.completed || 1),
        ]),
      },
    ],
    goals: measured.flatMap((m) => [
      { goal: `≥ ${GOAL_PER_MINUTE} payouts completed a minute on ${m.network} (locally)`, met: m.perMinute >= GOAL_PER_MINUTE, detail: `${m.perMinute} a minute` },
      {
        goal: `${m.network}: ${PAYOUTS} distinct transactions on consecutive nonces, ${PAYOUTS} × ${AMOUNT} USDT received, each completed once`,
        met: m.failures.every((failure) => failure.includes('below the goal')),
        detail: m.failures.filter((failure) => !failure.includes('below the goal')).join('; ') || 'as expected',
      },
    ]),
    failures: measured.flatMap((m) => m.failures),
    notes: [
      'A sender run is what the withdrawal-sender job does for a network: sendEvmWithdrawals (per payout: a gas estimate, signing with the local key and checking the signature, one DynamoDB transaction that takes the nonce and stores the signed transaction, then the broadcast), then settleEvmWithdrawals (per payout: the receipt, its block, and the completing transaction); between them the scenario mines 3 blocks, the time that makes the last ones final. The figure is completed payouts over the time of both.',
      'Deployed, KMS signing and the provider\'s latency bound it instead (and a chain\'s finality: minutes on Ethereum), so this figure is the sender\'s own cost per payout, on this machine.',
    ],
  };
}
