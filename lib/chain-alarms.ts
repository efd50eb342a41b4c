import { Duration } from 'aws-cdk-lib';
import { ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { METRIC_NAMESPACE, SERVICE } from '../functions/http/access-log.ts';
import { PERIOD, type AlarmFactory, type AppMetric } from './alarms.ts';
import { idSuffixOf, type OpenNetwork } from './networks/network-stack.ts';

export interface ChainAlarmsProps {
  stage: string;
  withdrawalSender: IFunction;
  depositSweeper: IFunction;
  /** The networks the stage opens (./networks/), the first network first: its metrics carry no
   * Network (functions/networks/names.ts FIRST_NETWORK), and its alarms are the stage's own; each
   * other network's carry its name, and so do its alarms'. */
  networks: readonly OpenNetwork[];
  /** The hourly reconcile: a run that throws or times out publishes no shortfall, so it is alarmed on itself. */
  reconcile: IFunction;
}

/**
 * The alarms of the money on the chains (./observability.ts makes them in its own scope, so their
 * ids are its): the scanners' lag, the sender's and sweeper's health, withdrawals stuck or waiting
 * for float, the hot wallets' gas, reconcile's verdict in total and per network, and the issuer's
 * controls on each network's USDT.
 */
export function chainAlarms(props: ChainAlarmsProps, alarms: { stage: AlarmFactory; nested: AlarmFactory }, app: AppMetric): void {
  // Stage-wide and the first network's alarms in the stage's template; those a stage has only
  // with other networks open, and every one added since the stage's template came near
  // CloudFormation's limit, in the nested stack (./observability.ts says why).
  const { stage: alarm, nested: nestedAlarm } = alarms;
  const [first, ...named] = props.networks;
  if (!first) throw new Error('a stage opens its first network at least');
  const tenMinutesOf = (network: OpenNetwork) => Math.round(600_000 / network.blockMs);
  alarm('ScannerLag', `The deposit scanner is more than ${tenMinutesOf(first)} blocks (~10 minutes of ${first.title}) behind the chain, or has stopped reporting.`, app('ScannerLagBlocks', 'Maximum'), {
    threshold: tenMinutesOf(first),
    comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 2,
    // No datapoint means no poller run finished: as bad as a lag.
    missing: TreatMissingData.BREACHING,
  });
  // An unpaid deposit past its expiry whose address holds USDT no scan recorded (expireDeposits):
  // three 5-minute periods in a row, as one run's may be a payment made since its last blocks read.
  const unrecordedUsdt = (title: string) =>
    `A ${title} deposit address holds USDT that no scan recorded, past its deposit's expiry: the deposit is kept from expiring. Find the "no scan recorded" lines in the deposit poller's log and read the chain again from before the payment (npm run deposits:rescan; docs/reconciliation.md).`;
  const unrecordedFor = { threshold: 1, evaluationPeriods: 3 };
  alarm('UnrecordedDepositUsdt', unrecordedUsdt(first.title), app('UnrecordedDepositUsdt', 'Maximum'), unrecordedFor);
  // Each network but the first reports with its name: its poller its lag (ten minutes of that
  // chain's blocks), its sender and sweeper what they held back. Where payouts are replaced at a
  // higher fee, the sender and sweeper also report those they could not replace under the cap.
  for (const network of named) {
    const { name, title } = network;
    const tenMinutes = tenMinutesOf(network);
    const ofNetwork = (metricName: string, statistic: string) => namedNetworkMetric(props, name, metricName, statistic);
    const suffix = idSuffixOf(name);
    nestedAlarm(`ScannerLag${suffix}`, `The ${title} deposit scanner is more than ${tenMinutes} blocks (~10 minutes) behind the chain, or has stopped reporting.`, ofNetwork('ScannerLagBlocks', 'Maximum'), {
      threshold: tenMinutes,
      comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
      missing: TreatMissingData.BREACHING,
    });
    nestedAlarm(`UnrecordedDepositUsdt${suffix}`, unrecordedUsdt(title), ofNetwork('UnrecordedDepositUsdt', 'Maximum'), unrecordedFor);
    if (network.feeCap) {
      nestedAlarm(
        `FeeCapReached${suffix}`,
        `A ${title} payout waits unmined and replacing it would take fees above the network's ${network.feeCap.figure}: raise the cap (${network.feeCap.setting}) or wait out the fee spike.`,
        ofNetwork('PayoutFeeCapReached', 'Maximum'),
        { threshold: 1 },
      );
    }
    // The stage-wide twins of these two watch the first network's sender, which publishes without a Network.
    nestedAlarm(
      `WithdrawalsStuckProcessing${suffix}`,
      `A ${title} withdrawal has been processing for over 15 minutes: ${network.stuckBecause} or its sender not settling. Read the sender's log for the network.`,
      ofNetwork('WithdrawalsStuckProcessing', 'Maximum'),
      { threshold: 1 },
    );
    nestedAlarm(
      `HotWalletShort${suffix}`,
      `${title} withdrawals waited in two of the last three 5-minute periods because its hot wallet's USDT (less what is already being sent) does not cover them: check its sweeper, or fund the hot wallet.`,
      ofNetwork('WithdrawalsAwaitingFloat', 'Maximum'),
      { threshold: 1, evaluationPeriods: 3, datapointsToAlarm: 2 },
    );
    // The sender and the sweeper read the hot wallet's fee asset each run.
    if (network.gasLow) {
      const { feeSymbol, minimumSetting } = network.gasLow;
      nestedAlarm(`HotWalletGasLow${suffix}`, `Hot wallet gas low: the ${title} hot wallet holds less ${feeSymbol} than ${minimumSetting} in two of the last three 5-minute periods. Fund it with ${feeSymbol} before withdrawals and sweeps on ${title} stop.`, ofNetwork('HotWalletGasLow', 'Maximum'), {
        threshold: 1,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
      });
    }
  }
  alarm('WithdrawalSenderFailing', 'The withdrawal sender threw in two of the last three 5-minute periods: withdrawals are not being sent or settled.', props.withdrawalSender.metricErrors({ period: PERIOD, statistic: 'Sum' }), {
    threshold: 1,
    evaluationPeriods: 3,
    datapointsToAlarm: 2,
  });
  alarm('DepositSweeperFailing', 'The deposit sweeper threw in two of the last three 5-minute periods: deposits stay on their addresses.', props.depositSweeper.metricErrors({ period: PERIOD, statistic: 'Sum' }), {
    threshold: 1,
    evaluationPeriods: 3,
    datapointsToAlarm: 2,
  });
  alarm('WithdrawalsStuckProcessing', `A ${first.title} withdrawal has been processing for over 15 minutes (a ${first.title} transaction settles or expires well within that).`, app('WithdrawalsStuckProcessing', 'Maximum'), {
    threshold: 1,
  });
  // Beyond dust (RECONCILE_DUST in functions/ledger/reconciliation.ts, 0.01 USDT), either way.
  alarm('ReconcileShortfall', 'Two reconcile runs in a row found the wallets holding less USDT than the ledger owes.', app('ReconcileShortfallUsdt', 'Maximum', Duration.hours(1)), {
    threshold: 0.01,
    comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 2,
  });
  alarm(
    'ReconcileSurplus',
    "Two reconcile runs in a row found the wallets holding more USDT than the ledger owes: money the ledger cannot account for (a payout marked sent that never left, a deposit not scanned, or a float sent by hand: npm run float:record). The network alarm beside it says which network; the job's log (Cambio-<stage>-JobsReconcile) gives each network's figures and addresses, and `aws lambda invoke --function-name Cambio-<stage>-JobsReconcile` runs it again now (npm run reconcile reads the local runtime only).",
    app('ReconcileSurplusUsdt', 'Maximum', Duration.hours(1)),
    { threshold: 0.01, comparison: ComparisonOperator.GREATER_THAN_THRESHOLD, evaluationPeriods: 2 },
  );
  // Owed to no one, so in neither of the two above (netted against what is held, it would cancel a
  // shortfall of its size): alarmed on its own, as it was while it read as a surplus.
  alarm(
    'ReconcileUnexplained',
    "Two reconcile runs in a row found USDT at deposit addresses the ledger lists nothing at: a payment made on another network than its deposit's (the same address exists on several networks; not credited, recovered on the network it landed on), or one not yet scanned. The job log names each address and network; it is not counted as held, so it hides no shortfall.",
    app('ReconcileUnexplainedUsdt', 'Maximum', Duration.hours(1)),
    { threshold: 0.01, comparison: ComparisonOperator.GREATER_THAN_THRESHOLD, evaluationPeriods: 2 },
  );
  // Each network reconciled alone, against its own flows (docs/reconciliation.md): which network
  // a total mismatch is on. USDT moved between networks by hand shows here as equal and opposite
  // differences on two networks while the total balances. With the first network alone the total is its.
  for (const { name, title } of named.length === 0 ? [] : props.networks) {
    const suffix = idSuffixOf(name);
    const perNetwork = (metricName: string) => namedNetworkMetric(props, name, metricName, 'Maximum', Duration.hours(1));
    const options = { threshold: 0.01, comparison: ComparisonOperator.GREATER_THAN_THRESHOLD, evaluationPeriods: 2 };
    nestedAlarm(`ReconcileShortfall${suffix}`, `Two reconcile runs in a row found ${title}'s wallets (hot wallet and unswept deposit addresses) holding less USDT than came in on ${title} and has not gone out: a shortfall there, or USDT moved from it to another network by hand (then the other shows the surplus).`, perNetwork('ReconcileShortfallUsdt'), options);
    nestedAlarm(`ReconcileSurplus${suffix}`, `Two reconcile runs in a row found ${title}'s wallets holding more USDT than came in on ${title} and has not gone out: a float or rebalance sent there by hand, a payout that never left, or a deposit not scanned.`, perNetwork('ReconcileSurplusUsdt'), options);
  }
  alarm(
    'HotWalletShort',
    `${first.title} withdrawals waited in two of the last three 5-minute periods because the hot wallet's USDT (less what is already being sent) does not cover them: check the sweeper, or fund the hot wallet.`,
    app('WithdrawalsAwaitingFloat', 'Maximum'),
    { threshold: 1, evaluationPeriods: 3, datapointsToAlarm: 2 },
  );
  // The first network's sender reads its hot wallet's fee asset each run and publishes without a Network.
  if (first.gasLow) {
    const { feeSymbol, minimumSetting } = first.gasLow;
    alarm('HotWalletGasLow', `Hot wallet gas low: the ${first.title} hot wallet holds less ${feeSymbol} than ${minimumSetting} in two of the last three 5-minute periods: its withdrawals wait pending until it is funded with ${feeSymbol}.`, app('HotWalletGasLow', 'Maximum'), {
      threshold: 1,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
    });
  }
  // The issuer's controls on each network's USDT (../shared/networks.md, "The token as it is on
  // mainnet"; docs/token-controls.md): the first network's sender and sweeper publish without a
  // Network, as its other metrics; each other network's with its name.
  // An alarm that cannot fire would read as a watch kept: each network has those its token's controls allow.
  const ofAnyNetwork = metricOf(props, app);
  for (const network of props.networks) {
    const { name, title, issuerControls } = network;
    const suffix = idSuffixOf(name);
    const issuerAlarm = name === first.name ? alarm : nestedAlarm;
    const metric = (metricName: string) => ofAnyNetwork(network, metricName, 'Maximum');
    if (issuerControls.freeze) {
      issuerAlarm(
        `HotWalletFrozen${suffix}`,
        `Tether froze the ${title} hot wallet: nothing is sent from it or swept into it, and ${title} withdrawals wait pending. Contact the issuer; to pay out meanwhile, move the network to a new hot wallet (docs/token-controls.md).`,
        metric('HotWalletFrozen'),
        { threshold: 1 },
      );
    }
    if (issuerControls.pause) {
      issuerAlarm(
        `TokenPaused${suffix}`,
        `The issuer paused USDT on ${title}: every transfer would revert, so nothing is sent or swept there and withdrawals wait pending; they go out once each when it is unpaused.`,
        metric('TokenPaused'),
        { threshold: 1 },
      );
    }
    if (issuerControls.freeze) {
      issuerAlarm(
        `DepositAddressesFrozen${suffix}`,
        `The issuer froze one or more ${title} deposit addresses: their deposits are held (not available) and the sweeper leaves them aside; the others are swept as before. Read the held deposits (status held, address_frozen) and contact the issuer.`,
        metric('DepositAddressesFrozen'),
        { threshold: 1 },
      );
    }
  }
  alarm(
    'SweepsHeld',
    'A deposit address failed to sweep 3 times in a row and is backing off (an hour, doubling): its USDT stays there. Read its sweep history (SWEEP#<address>) for the failure.',
    app('SweepsHeld', 'Maximum', Duration.hours(1)),
    { threshold: 1 },
  );
  alarm(
    'ReconcileFailing',
    'The reconcile job threw or timed out in two hourly runs in a row: the wallets are not being compared with the ledger (its shortfall alarm cannot fire).',
    props.reconcile.metricErrors({ period: Duration.hours(1), statistic: 'Sum' }),
    { threshold: 1, evaluationPeriods: 2 },
  );
  jobsRunningAlarms(props, nestedAlarm, app);
  depositAndSweepAlarms(props, nestedAlarm, app);
}

/** How long a signing job may go without a run finishing: thirty of its runs, a minute apart. */
const SIGNING_JOB_SILENCE = Duration.minutes(30);
/** And reconcile, hourly: two runs. */
const RECONCILE_SILENCE = Duration.hours(2);

/** A metric published with the network's name (every network's but the first's, and reconcile's for each). */
const namedNetworkMetric = (props: ChainAlarmsProps, network: string, metricName: string, statistic: string, period: Duration = PERIOD) =>
  new Metric({ namespace: METRIC_NAMESPACE, metricName, dimensionsMap: { service: SERVICE, stage: props.stage, Network: network }, statistic, period });

/** A network's own metric: the first network's carries no Network (functions/networks/names.ts FIRST_NETWORK). */
const metricOf = (props: ChainAlarmsProps, app: AppMetric) => (network: OpenNetwork, metricName: string, statistic: string, period = PERIOD) =>
  network.name === props.networks[0]!.name ? app(metricName, statistic, period) : namedNetworkMetric(props, network.name, metricName, statistic, period);

/**
 * A job that is no longer run at all (its schedule's rule disabled or its target removed, a deploy
 * that dropped it, Lambda throttling every invocation) throws nothing, so its error alarm stays
 * quiet. Each run publishes these counts, busy or idle (functions/networks/job-runs.ts: the
 * sender's WithdrawalsCompleted, the sweeper's DepositAddressesFrozen, paused token or not;
 * functions/handlers/jobs/job-metrics.ts: reconcile's ReconcileAddressesRead): no sample over the
 * window means no run finished. In the nested stack, the first network's too (./observability.ts).
 */
function jobsRunningAlarms(props: ChainAlarmsProps, alarm: AlarmFactory, app: AppMetric): void {
  const ofNetwork = metricOf(props, app);
  const noRun = { threshold: 1, comparison: ComparisonOperator.LESS_THAN_THRESHOLD, missing: TreatMissingData.BREACHING };
  const minutes = SIGNING_JOB_SILENCE.toMinutes();
  const everyMinutes = props.networks[0]!.pollEveryMinutes;
  const check = (job: string, title: string, failing: string) =>
    `Check the EventBridge rule that runs the ${job} on ${title} (its description names the ${job}; enabled, with a target for ${title}), the function's Throttles (FunctionsThrottled…) and Errors (${failing}), then its log for ${title}.`;
  for (const network of props.networks) {
    const { title } = network;
    const suffix = idSuffixOf(network.name);
    alarm(
      `WithdrawalSenderNotRunning${suffix}`,
      `No ${title} withdrawal sender run has finished in ${minutes} minutes (it runs every ${everyMinutes} minute(s)): ${title} withdrawals wait pending and none sent is settled. ${check('withdrawal sender', title, 'WithdrawalSenderFailing')}`,
      ofNetwork(network, 'WithdrawalsCompleted', 'SampleCount', SIGNING_JOB_SILENCE),
      noRun,
    );
    alarm(
      `DepositSweeperNotRunning${suffix}`,
      `No ${title} deposit sweeper run has finished in ${minutes} minutes (it runs every ${everyMinutes} minute(s)): deposits stay on their ${title} addresses and the hot wallet is not refilled from them. ${check('deposit sweeper', title, 'DepositSweeperFailing')}`,
      ofNetwork(network, 'DepositAddressesFrozen', 'SampleCount', SIGNING_JOB_SILENCE),
      noRun,
    );
  }
  alarm(
    'ReconcileNotRunning',
    `No reconcile run has finished in ${RECONCILE_SILENCE.toHours()} hours (it runs hourly): the wallets are not being compared with the ledger, and no shortfall can be reported. Check the EventBridge rule "Compares the wallets with the ledger" (enabled, with its target), the function's Throttles (FunctionsThrottled…) and Errors (ReconcileFailing), then the log of Cambio-<stage>-JobsReconcile.`,
    app('ReconcileAddressesRead', 'SampleCount', RECONCILE_SILENCE),
    noRun,
  );
}

/** Deposits that stop moving on a network: a transfer confirming long past its chain's finality, a
 * final one held from the company, sweeps failing where the sweeper does not back off and report
 * the address held (SweepsHeld). In the nested stack, the first network's too (./observability.ts). */
function depositAndSweepAlarms(props: ChainAlarmsProps, alarm: AlarmFactory, app: AppMetric): void {
  const ofNetwork = metricOf(props, app);
  for (const network of props.networks) {
    const { title } = network;
    const suffix = idSuffixOf(network.name);
    // Every network makes a block final within minutes (functions/networks/*/network.ts `finality`:
    // Arbitrum's, the slowest, waits on Ethereum's, some 20); an hour is the EVM payouts' stalled finality too.
    alarm(
      `DepositsStuckConfirming${suffix}`,
      `A ${title} deposit's transfer has been confirming for over an hour, long past the chain's finality: the deposit is neither credited nor dropped. The deposit poller's log for ${title} says why each run ("left confirming": the node's final view behind or on another fork, a receipt it cannot give); without such a line, the node's newest or final block has stopped moving. Fix the node or point the stage at another (its URL setting); the next run confirms it.`,
      ofNetwork(network, 'OldestConfirmingTransferAge', 'Maximum'),
      { threshold: 3600, comparison: ComparisonOperator.GREATER_THAN_THRESHOLD },
    );
    const frozenToo = network.issuerControls.freeze ? `, or the issuer froze its deposit address (address_frozen: DepositAddressesFrozen${suffix} fires too; docs/token-controls.md)` : '';
    alarm(
      `DepositTransfersHeld${suffix}`,
      `A final ${title} transfer to a deposit address was held rather than credited: its payer is on the screening list (holdReason sender_sanctioned)${frozenToo}. No Cambio person is told otherwise, and the company sees the deposit held. Find it (dashboard Activity, status Held; the deposit poller's log), have compliance decide on the payer, then credit it with npm run deposits:release -- --deposit <id> --reason "<why>" (--stage and --table on a deployed stage) or leave it held (docs/token-controls.md, "A held deposit").`,
      ofNetwork(network, 'DepositTransfersHeld', 'Sum'),
      { threshold: 1 },
    );
    if (!network.sweepsHeldAfterFailures) {
      alarm(
        `SweepsFailing${suffix}`,
        `${title} sweeps failed in three of the last six 5-minute periods: USDT stays on its deposit addresses (still counted by reconcile) and the hot wallet is not refilled from them. The deposit sweeper's ERROR lines for ${title} name each failed sweep and why (a batch that would revert, a transaction failed on chain, refused by the node, or its nonce taken); fix the cause (the node, the hot wallet's gas) and the addresses are swept again on their own.`,
        ofNetwork(network, 'SweepsFailed', 'Sum'),
        { threshold: 1, evaluationPeriods: 6, datapointsToAlarm: 3 },
      );
    }
  }
}
