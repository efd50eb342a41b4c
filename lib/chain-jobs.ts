import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import type { Key } from 'aws-cdk-lib/aws-kms';
import { refusedToAllBut } from './key-policy.ts';
import { JOBS } from '../functions/routes.ts';
import type { StageConfig } from '../config/stages.ts';
import type { Binder, CambioFunction } from './api-function.ts';
import { deletesUnder, putsUnder, TABLE_READ, TABLE_WRITE, tableActions } from './binders.ts';
import { depositAddressItem } from '../functions/adapters/dynamo/items/deposit-address.ts';
import { reconcileAddressTurnItem } from '../functions/adapters/dynamo/items/reconcile-address-turn.ts';
import type { NetworkName } from '../functions/networks/names.ts';
import type { OpenNetwork } from './networks/network-stack.ts';
import { familiesOnStage } from './networks/registry.ts';
import type { StageScope } from './stage-scope.ts';

/**
 * The stage's chain side: the hot wallets' keys, the scheduled jobs that read the chains (the
 * deposit poller), sign on them (the withdrawal sender and the deposit sweeper) and compare them
 * with the ledger (reconcile). Made in the stack's own scope, so their logical ids are the stack's.
 * What each family of networks makes and binds is its own (./networks/, one file a family).
 */

export interface ChainJobs {
  sender: CambioFunction;
  sweeper: CambioFunction;
  reconcile: CambioFunction;
  /** The networks the stage opens, the first network first, as their alarms describe them. */
  networks: OpenNetwork[];
}

/**
 * The chain jobs on one EventBridge schedule: the deposit poller (scan, confirm, expire), which
 * reads the chain and writes deposits, ledger entries and events but holds no key and cannot sign
 * anything; the withdrawal sender and the deposit sweeper, the only signers; and the hourly
 * reconcile.
 */
export function chainJobs(stack: StageScope, config: StageConfig): ChainJobs {
  const families = familiesOnStage(stack, config);
  const networks = families.flatMap((family) => family.open);
  const [first, ...others] = networks;
  if (!first) throw new Error(`Stage ${config.stage} opens no network`);
  // Every chain job reaches each family's nodes; none but the sender and the sweeper signs.
  const nodes = families.flatMap((family) => family.nodes);
  // One address filter for every network a container polls, ~290 B an address listed (~300 MB at
  // a million, read over the first runs of a cold start, 15 s of each): 512 MB would not hold it,
  // and the CPU that comes with 1,024 reads it twice as fast (docs/capacity.md, What grows).
  const poller = stack.stageFunction(JOBS.depositPoller.handler, {
    bind: [tableActions(stack.table, ...TABLE_READ, ...TABLE_WRITE), ...nodes],
    timeout: Duration.seconds(55),
    memorySize: 1024,
  });
  // Each other network's poller at its own rate, its input naming it; the first network's runs on
  // the chain jobs' schedule below, with no input.
  for (const everyMinutes of [...new Set(others.map((network) => network.pollEveryMinutes))].sort((a, b) => a - b)) {
    const polled = others.filter((network) => network.pollEveryMinutes === everyMinutes).map((network) => network.name);
    scheduleByNetwork(stack, `DepositPollerEvery${everyMinutes}MinSchedule`, 'deposit poller', poller, everyMinutes, polled);
  }
  // Only the withdrawal sender and the sweeper (TRX top-ups) may sign with a hot wallet; no API,
  // authorizer or scanner function (test/infra). One run at a time per network: two runs of one
  // network must never pick the same work or race its hot wallet, so each run holds its network's
  // lease in the table (functions/networks/run-lease.ts); the open networks' runs go side by side,
  // each function with one execution reserved per network (docs/capacity.md). Each network signs
  // with a key of its own; the keys of the deposit addresses are the sweeper's alone.
  const signing = families.flatMap((family) => family.signing);
  const signingJob = (handler: typeof JOBS.withdrawalSender.handler | typeof JOBS.depositSweeper.handler, ...depositAddressKeys: Binder[]) =>
    stack.stageFunction(handler, {
      bind: [tableActions(stack.table, ...TABLE_READ, ...TABLE_WRITE), ...signing, ...nodes, ...depositAddressKeys],
      timeout: Duration.seconds(55),
      reservedConcurrentExecutions: networks.length,
    });
  const sender = signingJob(JOBS.withdrawalSender.handler);
  // The sweeper deletes what a finished sweep leaves open, and the cursor of its review of the
  // addresses below the minimum once a pass ends: nothing else (test/infra/function-grants.test.ts).
  const sweepRecords = [...families.flatMap((family) => family.sweepRecordPartitions), ...networks.map((network) => depositAddressItem.belowMinimumReviewKey(network.name as NetworkName).PK)];
  const sweeper = signingJob(JOBS.depositSweeper.handler, ...families.flatMap((family) => family.depositAddressKeys), deletesUnder(stack.table, sweepRecords));
  onlySignersSign(families.flatMap((family) => family.hotWalletKeys), [sender, sweeper]);
  const named = others.map((network) => network.name);
  scheduleByNetwork(stack, 'WithdrawalSenderSchedule', 'withdrawal sender', sender, config.pollerScheduleMinutes, named);
  scheduleByNetwork(stack, 'DepositSweeperSchedule', 'deposit sweeper', sweeper, config.pollerScheduleMinutes, named);
  new Rule(stack, 'ChainPollerSchedule', {
    description: `Runs the ${first.title} deposit poller, the withdrawal sender and the deposit sweeper`,
    schedule: Schedule.rate(Duration.minutes(config.pollerScheduleMinutes)),
    targets: [poller, sender, sweeper].map((fn) => stack.failedInvocations.scheduledTarget(fn, Duration.minutes(config.pollerScheduleMinutes))),
  });
  // Reconcile reads each open network's hot wallet address from its own key, and cannot sign.
  const reconcile = reconcileJob(stack, ...families.flatMap((family) => family.hotWalletAddresses), ...nodes);
  return { sender, sweeper, reconcile, networks };
}

/** EventBridge takes at most five targets on one rule. */
/**
 * Each hot wallet key's own policy refuses kms:Sign to every principal but the signing jobs' roles.
 * The key policy CDK writes lets the account's IAM decide, so without this any role or user whose
 * IAM allows kms:Sign on `*` (an administrator, a power user, a CI role, CloudFormation's execution
 * role) could sign a transfer of the hot wallet's whole balance, past screening, limits and the
 * ledger. A Deny no IAM Allow overrides; key administration stays the account's (a change to this
 * policy is itself a CloudTrail event), and reading the public key (reconcile) is not refused.
 */
function onlySignersSign(keys: Key[], signers: CambioFunction[]): void {
  const roles = signers.map((signer) => signer.role!.roleArn);
  for (const key of keys) key.addToResourcePolicy(refusedToAllBut('OnlyTheSigningJobsSign', 'kms:Sign', roles));
}

const TARGETS_PER_RULE = 5;

/**
 * Runs `job` every `everyMinutes` once per network, each run's input naming its network: one rule
 * for up to five networks, each a target of its own (EventBridge retries and dead-letters each
 * apart), rather than a rule per network. A rule and its permission to invoke the function are two
 * of the 500 resources CloudFormation allows a stack, and a stage opening every network would
 * spend 30 of them on the chain jobs' schedules alone (docs/capacity.md, "The stack's size").
 */
function scheduleByNetwork(stack: StageScope, id: string, job: string, fn: CambioFunction, everyMinutes: number, networks: readonly string[]): void {
  for (let start = 0; start < networks.length; start += TARGETS_PER_RULE) {
    const group = networks.slice(start, start + TARGETS_PER_RULE);
    new Rule(stack, start === 0 ? id : `${id}${start / TARGETS_PER_RULE + 1}`, {
      description: `Runs the ${job} on ${group.join(', ')}`,
      schedule: Schedule.rate(Duration.minutes(everyMinutes)),
      targets: group.map((network) => stack.failedInvocations.scheduledTarget(fn, Duration.minutes(everyMinutes), { network })),
    });
  }
}

/**
 * The scheduled reconcile (functions/handlers/jobs/reconcile.ts), hourly: a parallel Scan of the
 * table (8 segments, filtered on the kinds it sums: no index lists every balance, and Cambio's fee
 * and desk accounts exist only as ledger postings), GSI1 queries for the deposit addresses that may
 * still hold USDT, a page of 5,000 of every deposit address in turn, and the chain balances of those
 * and the hot wallet, on each open network, 500 addresses a call at a time (on TronGrid one call per
 * address, 4 at a time). Its one write is where its turn through every address stands. It reads
 * each hot wallet's public key to know its address and cannot sign.
 */
function reconcileJob(stack: StageScope, ...bind: Binder[]): CambioFunction {
  const job = stack.stageFunction(JOBS.reconcile.handler, {
    bind: [tableActions(stack.table, ...TABLE_READ, 'dynamodb:Scan'), putsUnder(stack.table, [reconcileAddressTurnItem.key().PK]), ...bind],
    timeout: Duration.minutes(5),
  });
  new Rule(stack, 'ReconcileSchedule', {
    description: 'Compares the wallets with the ledger',
    schedule: Schedule.rate(Duration.hours(1)),
    targets: [stack.failedInvocations.scheduledTarget(job, Duration.hours(1))],
  });
  return job;
}
