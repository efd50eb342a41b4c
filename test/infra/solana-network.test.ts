import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, expect, it } from 'vitest';
import { JOBS, lambdaName } from '../../functions/routes.ts';
import { alarmsTemplate } from '../support/alarms-template.ts';
import { sandboxStackWith } from '../support/sandbox-stack.ts';

/**
 * A stage that opens Solana (its SOLANA figure): an Ed25519 KMS key for its hot wallet, which the
 * withdrawal sender and the deposit sweeper alone sign with and reconcile only reads; the poller,
 * sender and sweeper scheduled with `solana` as input; the secret that holds the node's URL read by
 * the chain jobs alone; and the deposit addresses' seed read by the sweeper alone (Ed25519 has no
 * public derivation: functions/networks/solana/deposit-owners.ts). The sandbox stage opens none today.
 */
const SOLANA = {
  rpcUrlSecret: 'cambio/sandbox/solana-rpc-url',
  usdtMint: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
  depositSeedSecret: 'cambio/sandbox/solana-deposit-seed',
};
let template: Template;
/** Every alarm of the stage: its own template's and its networks' nested stack's (lib/observability.ts). */
let alarmTemplate: Template;

const functionIdOf = (handler: string): string => {
  const functions = template.findResources('AWS::Lambda::Function');
  return Object.keys(functions).find((id) => functions[id]!.Properties.FunctionName === `Cambio-sandbox-${lambdaName(handler)}`)!;
};
const policiesNaming = (text: string) => Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) => JSON.stringify(policy.Properties.PolicyDocument).includes(text));
const rolesOf = (policies: Record<string, any>[]) => policies.map((policy) => JSON.stringify(policy.Properties.Roles)).join(' ');

beforeAll(() => {
  const stack = sandboxStackWith({ SOLANA: JSON.stringify(SOLANA) });
  template = Template.fromStack(stack);
  alarmTemplate = alarmsTemplate(stack, template);
}, 120_000);

it('makes an Ed25519 KMS key for the Solana hot wallet, signing only and kept when the stack goes', () => {
  const keys = template.findResources('AWS::KMS::Key', { Properties: { Description: Match.stringLikeRegexp('hot wallet \\(solana,') } });
  expect(Object.values(keys).map((key) => [key.Properties.KeySpec, key.Properties.KeyUsage, key.DeletionPolicy])).toEqual([['ECC_NIST_EDWARDS25519', 'SIGN_VERIFY', 'Retain']]);
});

it('lets the withdrawal sender and the deposit sweeper alone sign with it; reconcile reads its public key only', () => {
  const keyId = Object.keys(template.findResources('AWS::KMS::Key', { Properties: { Description: Match.stringLikeRegexp('hot wallet \\(solana,') } }))[0]!;
  const onKey = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) => JSON.stringify(policy.Properties.PolicyDocument).includes(`"${keyId}"`));
  const actionsByRole = Object.fromEntries(
    onKey.map((policy) => [
      JSON.stringify(policy.Properties.Roles).match(/Jobs[A-Za-z]+?(?=Role)/)?.[0],
      (policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
        .filter((statement) => JSON.stringify(statement.Resource).includes(keyId))
        .flatMap((statement) => [statement.Action].flat())
        .sort(),
    ]),
  );
  expect(actionsByRole).toEqual({
    JobsWithdrawalSender: ['kms:GetPublicKey', 'kms:Sign'],
    JobsDepositSweeper: ['kms:GetPublicKey', 'kms:Sign'],
    JobsReconcile: ['kms:GetPublicKey'],
  });
  const functions = template.findResources('AWS::Lambda::Function');
  const named = (handler: string) => functions[functionIdOf(handler)]!.Properties.Environment.Variables.SOLANA_SIGNER_KMS_KEY_ID;
  expect(named(JOBS.withdrawalSender.handler)).toEqual({ Ref: keyId });
  expect(named(JOBS.depositSweeper.handler)).toEqual({ Ref: keyId });
  expect(named(JOBS.depositPoller.handler)).toBeUndefined();
});

it('schedules the deposit poller, the withdrawal sender and the deposit sweeper for solana, each with the network as input', () => {
  for (const job of ['deposit poller', 'withdrawal sender', 'deposit sweeper']) {
    const rules = template.findResources('AWS::Events::Rule', { Properties: { Description: `Runs the ${job} on solana` } });
    expect(Object.values(rules).map((rule) => [rule.Properties.ScheduleExpression, ...rule.Properties.Targets.map((target: { Input: string }) => JSON.parse(target.Input))]), job).toEqual([['rate(1 minute)', { network: 'solana' }]]);
  }
});

it("lets the chain jobs and the routes that read a Solana destination (a withdrawal, a deposit's split, the dashboard's New withdrawal and allowlist) alone read the node URL's secret, and the sweeper alone the deposit addresses' seed", () => {
  const url = rolesOf(policiesNaming('cambio/sandbox/solana-rpc-url'));
  for (const reader of ['JobsReconcile', 'JobsDepositPoller', 'JobsWithdrawalSender', 'JobsDepositSweeper', 'WithdrawalsCreateWithdrawal', 'DepositsCreateDeposit', 'DashboardDashboardApi']) expect(url).toContain(reader);
  expect(policiesNaming('cambio/sandbox/solana-rpc-url')).toHaveLength(7);
  const seed = policiesNaming('cambio/sandbox/solana-deposit-seed');
  expect(seed).toHaveLength(1);
  expect(rolesOf(seed)).toMatch(/JobsDepositSweeper/);
});

it('alarms on Solana as on an EVM network: scanner lag (ten minutes of 400 ms slots), stuck and waiting withdrawals, SOL low, reconcile per network, the issuer freezing, its jobs not running, deposits stuck confirming or held, sweeps failing; no fee-cap alarm (payouts are never re-priced) and no paused-token alarm (SPL Token has no pause)', () => {
  const solanaAlarms = Object.values(alarmTemplate.findResources('AWS::CloudWatch::Alarm')).filter((alarm) =>
    (alarm.Properties.Dimensions as { Name: string; Value: string }[] | undefined)?.some((d) => d.Name === 'Network' && d.Value === 'solana'),
  );
  // By metric and statistic: a job's runs are alarmed on by the samples of a count it publishes each run.
  const byMetric = Object.fromEntries(solanaAlarms.map((alarm) => [`${alarm.Properties.MetricName} ${alarm.Properties.Statistic}`, alarm.Properties]));
  expect(Object.keys(byMetric).sort()).toEqual(
    [
      'DepositAddressesFrozen Maximum',
      'DepositAddressesFrozen SampleCount',
      'DepositTransfersHeld Sum',
      'HotWalletFrozen Maximum',
      'HotWalletGasLow Maximum',
      'OldestConfirmingTransferAge Maximum',
      'ReconcileShortfallUsdt Maximum',
      'ReconcileSurplusUsdt Maximum',
      'ScannerLagBlocks Maximum',
      'SweepsFailed Sum',
      'UnrecordedDepositUsdt Maximum',
      'WithdrawalsAwaitingFloat Maximum',
      'WithdrawalsCompleted SampleCount',
      'WithdrawalsStuckProcessing Maximum',
    ].sort(),
  );
  expect(byMetric['ScannerLagBlocks Maximum']).toMatchObject({ Threshold: 1500, TreatMissingData: 'breaching' });
  expect(byMetric['HotWalletGasLow Maximum']!.AlarmDescription).toMatch(/Solana hot wallet holds less SOL than SOLANA\.hotWalletSolMinimum/);
  for (const [metric, name] of [['WithdrawalsCompleted SampleCount', 'WithdrawalSenderNotRunningSolana'], ['DepositAddressesFrozen SampleCount', 'DepositSweeperNotRunningSolana']] as const) {
    expect(byMetric[metric]).toMatchObject({ AlarmName: `Cambio-sandbox-${name}`, Period: 1800, Threshold: 1, ComparisonOperator: 'LessThanThreshold', TreatMissingData: 'breaching' });
  }
  expect(byMetric['OldestConfirmingTransferAge Maximum']).toMatchObject({ AlarmName: 'Cambio-sandbox-DepositsStuckConfirmingSolana', Threshold: 3600, ComparisonOperator: 'GreaterThanThreshold' });
  expect(byMetric['DepositTransfersHeld Sum']).toMatchObject({ AlarmName: 'Cambio-sandbox-DepositTransfersHeldSolana', Threshold: 1 });
  expect(byMetric['SweepsFailed Sum']).toMatchObject({ AlarmName: 'Cambio-sandbox-SweepsFailingSolana', Threshold: 1, EvaluationPeriods: 6, DatapointsToAlarm: 3 });
});
