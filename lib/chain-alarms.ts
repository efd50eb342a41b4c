import { Duration } from 'aws-cdk-lib';
import { ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { EVM_NETWORKS } from '../functions/networks/evm/networks.ts';
import type { EvmNetworkName, TokenControlsKind } from '../functions/networks/evm/settings.ts';
import { solana } from '../functions/networks/solana/network.ts';
import { METRIC_NAMESPACE, SERVICE } from '../functions/http/access-log.ts';
import { PERIOD, type AlarmFactory, type AppMetric } from './alarms.ts';

export interface ChainAlarmsProps {
  stage: string;
  withdrawalSender: IFunction;
  depositSweeper: IFunction;
  /** The EVM networks the stage opens: each has its own alarms, its metrics carrying its name, and
   * its USDT's issuer controls (none on BSC's BEP20USDT), which say which of the issuer's alarms it has. */
  evmNetworks: readonly { name: EvmNetworkName; tokenControls: TokenControlsKind }[];
  /** Whether the stage opens Solana: its alarms as an EVM network's, but the fee cap's (its payouts
   * are never replaced at a higher fee: a priority fee under a cap, re-signed only once expired). */
  solanaOpen?: boolean;
  /** The hourly reconcile: a run that throws or times out publishes no shortfall, so it is alarmed on itself. */
  reconcile: IFunction;
}

/**
 * The alarms of the money on the chains (./observability.ts makes them in its own scope, so their
 * ids are its): the scanners' lag, the sender's and sweeper's health, withdrawals stuck or waiting
 * for float, the hot wallets' gas, reconcile's verdict in total and per network, and the issuer's
 * controls on each network's USDT.
 */
export function chainAlarms(props: ChainAlarmsProps, alarms: { stage: AlarmFactory; network: AlarmFactory }, app: AppMetric): void {
  // Stage-wide and TRON's alarms in the stage's template; those a stage has only with other
  // networks open, in theirs (./observability.ts says why).
  const { stage: alarm, network: networkAlarm } = alarms;
  alarm('ScannerLag', 'The deposit scanner is more than 200 blocks (~10 minutes of TRON) behind the chain, or has stopped reporting.', app('ScannerLagBlocks', 'Maximum'), {
    threshold: 200,
    comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 2,
    // No datapoint means no poller run finished: as bad as a lag.
    missing: TreatMissingData.BREACHING,
  });
  // Each network but TRON reports with its name: its poller its lag (ten minutes of that chain's
  // blocks), its sender and sweeper what they held back. The EVM networks' sender and sweeper also
  // report the payouts they could not replace under the fee cap.
  for (const network of namedNetworks(props)) {
    const { name, title, blockMs, feeSymbol, feeMinimumSetting } = network;
    const tenMinutes = Math.round(600_000 / blockMs);
    const ofNetwork = (metricName: string, statistic: string) =>
      new Metric({ namespace: METRIC_NAMESPACE, metricName, dimensionsMap: { service: SERVICE, stage: props.stage, Network: name }, statistic, period: PERIOD });
    const suffix = `${name[0]!.toUpperCase()}${name.slice(1)}`;
    networkAlarm(`ScannerLag${suffix}`, `The ${title} deposit scanner is more than ${tenMinutes} blocks (~10 minutes) behind the chain, or has stopped reporting.`, ofNetwork('ScannerLagBlocks', 'Maximum'), {
      threshold: tenMinutes,
      comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
      missing: TreatMissingData.BREACHING,
    });
    if (network.feeCap) {
      networkAlarm(
        `FeeCapReached${suffix}`,
        `A ${title} payout waits unmined and replacing it would take fees above the network's maxFeePerGasGwei: raise the cap (EVM_NETWORKS) or wait out the fee spike.`,
        ofNetwork('PayoutFeeCapReached', 'Maximum'),
        { threshold: 1 },
      );
    }
    // The stage-wide twins of these two watch TRON's sender, which publishes without a Network.
    networkAlarm(
      `WithdrawalsStuckProcessing${suffix}`,
      `A ${title} withdrawal has been processing for over 15 minutes: ${network.feeCap ? 'unmined under the fee cap, behind a nonce that will not fill,' : 'signed again and again without landing (the hot wallet short of SOL, or the network congested past the priority fee cap),'} or its sender not settling. Read the sender's log for the network.`,
      ofNetwork('WithdrawalsStuckProcessing', 'Maximum'),
      { threshold: 1 },
    );
    networkAlarm(
      `HotWalletShort${suffix}`,
      `${title} withdrawals waited in two of the last three 5-minute periods because its hot wallet's USDT (less what is already being sent) does not cover them: check its sweeper, or fund the hot wallet.`,
      ofNetwork('WithdrawalsAwaitingFloat', 'Maximum'),
      { threshold: 1, evaluationPeriods: 3, datapointsToAlarm: 2 },
    );
    // The sender and the sweeper read the hot wallet's fee asset each run.
    networkAlarm(`HotWalletGasLow${suffix}`, `Hot wallet gas low: the ${title} hot wallet holds less ${feeSymbol} than ${feeMinimumSetting} in two of the last three 5-minute periods. Fund it with ${feeSymbol} before withdrawals and sweeps on ${title} stop.`, ofNetwork('HotWalletGasLow', 'Maximum'), {
      threshold: 1,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
    });
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
  alarm('WithdrawalsStuckProcessing', 'A TRON withdrawal has been processing for over 15 minutes (a TRON transaction settles or expires well within that).', app('WithdrawalsStuckProcessing', 'Maximum'), {
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
    'Two reconcile runs in a row found the wallets holding more USDT than the ledger owes: money the ledger cannot account for (a payout marked sent that never left, a deposit not scanned, or a float sent by hand). Run npm run reconcile against the stage and read the job log.',
    app('ReconcileSurplusUsdt', 'Maximum', Duration.hours(1)),
    { threshold: 0.01, comparison: ComparisonOperator.GREATER_THAN_THRESHOLD, evaluationPeriods: 2 },
  );
  // Each network reconciled alone, against its own flows (docs/reconciliation.md): which network
  // a total mismatch is on. USDT moved between networks by hand shows here as equal and opposite
  // differences on two networks while the total balances. With TRON alone the total is TRON's.
  const named = namedNetworks(props);
  for (const { name, title } of named.length === 0 ? [] : [{ name: 'tron', title: 'TRON' }, ...named]) {
    const suffix = `${name[0]!.toUpperCase()}${name.slice(1)}`;
    const perNetwork = (metricName: string) =>
      new Metric({ namespace: METRIC_NAMESPACE, metricName, dimensionsMap: { service: SERVICE, stage: props.stage, Network: name }, statistic: 'Maximum', period: Duration.hours(1) });
    const options = { threshold: 0.01, comparison: ComparisonOperator.GREATER_THAN_THRESHOLD, evaluationPeriods: 2 };
    networkAlarm(`ReconcileShortfall${suffix}`, `Two reconcile runs in a row found ${title}'s wallets (hot wallet and unswept deposit addresses) holding less USDT than came in on ${title} and has not gone out: a shortfall there, or USDT moved from it to another network by hand (then the other shows the surplus).`, perNetwork('ReconcileShortfallUsdt'), options);
    networkAlarm(`ReconcileSurplus${suffix}`, `Two reconcile runs in a row found ${title}'s wallets holding more USDT than came in on ${title} and has not gone out: a float or rebalance sent there by hand, a payout that never left, or a deposit not scanned.`, perNetwork('ReconcileSurplusUsdt'), options);
  }
  alarm(
    'HotWalletShort',
    "TRON withdrawals waited in two of the last three 5-minute periods because the hot wallet's USDT (less what is already being sent) does not cover them: check the sweeper, or fund the hot wallet.",
    app('WithdrawalsAwaitingFloat', 'Maximum'),
    { threshold: 1, evaluationPeriods: 3, datapointsToAlarm: 2 },
  );
  // The issuer's controls on each network's USDT (../shared/networks.md, "The token as it is on
  // mainnet"; docs/token-controls.md): TRON's sender and sweeper publish without a Network, as its
  // other metrics; each EVM network's with its name.
  // An alarm that cannot fire would read as a watch kept: each network has those its token's controls allow.
  for (const { name, title, issuerControls } of [{ name: 'tron', title: 'TRON', issuerControls: TETHER_CONTROLS }, ...namedNetworks(props)]) {
    const suffix = `${name[0]!.toUpperCase()}${name.slice(1)}`;
    const issuerAlarm = name === 'tron' ? alarm : networkAlarm;
    const metric = (metricName: string) =>
      name === 'tron'
        ? app(metricName, 'Maximum')
        : new Metric({ namespace: METRIC_NAMESPACE, metricName, dimensionsMap: { service: SERVICE, stage: props.stage, Network: name }, statistic: 'Maximum', period: PERIOD });
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
}

/** What the issuer can do to a network's USDT, and so which of its alarms can fire: Tether's
 * contracts (TRON's, and TetherToken on the EVM chains) freeze and pause; BSC's BEP20USDT does
 * neither (functions/networks/evm/networks.ts `tokenControls`). */
interface IssuerControls {
  freeze: boolean;
  pause: boolean;
}
const TETHER_CONTROLS: IssuerControls = { freeze: true, pause: true };
const NO_CONTROLS: IssuerControls = { freeze: false, pause: false };

/** The networks whose metrics carry their name (every one but TRON, the first: functions/networks/names.ts
 * FIRST_NETWORK), as their alarms describe them. */
function namedNetworks(props: ChainAlarmsProps): { name: string; title: string; blockMs: number; feeSymbol: string; feeMinimumSetting: string; feeCap: boolean; issuerControls: IssuerControls }[] {
  return [
    ...props.evmNetworks.map(({ name, tokenControls }) => ({
      name,
      title: EVM_NETWORKS[name].title,
      blockMs: EVM_NETWORKS[name].blockMs,
      feeSymbol: EVM_NETWORKS[name].feeAsset.symbol,
      feeMinimumSetting: `EVM_NETWORKS.${name}.hotWalletGasMinimum`,
      feeCap: true,
      issuerControls: tokenControls === 'tether' ? TETHER_CONTROLS : NO_CONTROLS,
    })),
    // A slot every 400 ms; its fees and the rent of the token accounts payouts create are SOL. SPL
    // Token has no pause: the issuer stops a holder by freezing its account.
    ...(props.solanaOpen ? [{ name: 'solana', title: solana.title, blockMs: 400, feeSymbol: solana.feeAsset.symbol, feeMinimumSetting: 'SOLANA.hotWalletSolMinimum', feeCap: false, issuerControls: { freeze: true, pause: false } }] : []),
  ];
}
