import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, expect, it } from 'vitest';
import { JOBS, lambdaName } from '../../functions/routes.ts';
import { alarmsTemplate } from '../support/alarms-template.ts';
import { sandboxStackWith, sandboxTemplateWith } from '../support/sandbox-stack.ts';

/**
 * A stage that opens EVM networks (its EVM_NETWORKS figure): one deposit poller, withdrawal sender
 * and deposit sweeper schedule per network, whose input names it, a scan-lag, fee-cap and gas-low
 * alarm per network, read access to the secret holding a provider's URL, and the hot wallet KMS key
 * of each open network, which the sender and the sweeper alone sign with. The sandbox stage opens
 * none today.
 */
const EVM_NETWORKS = {
  ethereum: {
    chainId: 1,
    rpcUrlSecret: 'cambio/sandbox/ethereum-rpc-url',
    usdtContract: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
    forwarderFactory: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    forwarderImplementation: '0xa16E02E87b7454126E5E10d957A927A7F5B5d2be',
    finalizedTag: true,
    confirmations: 64,
    scanEveryMinutes: 2,
    replaceAfterSeconds: 120,
  },
  arbitrum: {
    chainId: 42161,
    rpcUrl: 'https://arb1.example.com/rpc',
    usdtContract: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9',
    // USD₮0, Tether's newer token: a blocked list, no pause.
    tokenControls: 'blocked-list',
    forwarderFactory: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    forwarderImplementation: '0xa16E02E87b7454126E5E10d957A927A7F5B5d2be',
    finalizedTag: true,
    confirmations: 1,
    feeMarket: 'legacy',
  },
};
let template: Template;
/** Every alarm of the stage: its own template's and its networks' nested stack's (lib/observability.ts). */
let alarmTemplate: Template;

beforeAll(() => {
  const stack = sandboxStackWith({ EVM_NETWORKS: JSON.stringify(EVM_NETWORKS) });
  template = Template.fromStack(stack);
  alarmTemplate = alarmsTemplate(stack, template);
}, 120_000);

/** Each network a rule runs `job` for, by the input of its target, with the rule's rate. */
const scheduledRuns = (job: string) =>
  Object.values(template.findResources('AWS::Events::Rule', { Properties: { Description: Match.stringLikeRegexp(`^Runs the ${job} on `) } })).flatMap((rule) =>
    (rule.Properties.Targets as { Input: string }[]).map((target) => ({ network: JSON.parse(target.Input).network as string, rate: rule.Properties.ScheduleExpression as string })),
  );

it('schedules the deposit poller once per open EVM network, at its own rate, with the network as input', () => {
  const byNetwork = Object.fromEntries(scheduledRuns('deposit poller').map(({ network, rate }) => [network, rate]));
  expect(byNetwork).toEqual({ ethereum: 'rate(2 minutes)', arbitrum: 'rate(1 minute)' });
});

it('alarms on each EVM network scanner lag: ten minutes of that chain, by the metric its poller publishes with its name', () => {
  const alarms = Object.values(alarmTemplate.findResources('AWS::CloudWatch::Alarm')).filter((alarm) => alarm.Properties.MetricName === 'ScannerLagBlocks');
  const thresholds = Object.fromEntries(
    alarms.map((alarm) => [(alarm.Properties.Dimensions as { Name: string; Value: string }[]).find((d) => d.Name === 'Network')?.Value ?? 'tron', alarm.Properties.Threshold]),
  );
  // Ethereum: a block per 12 s; Arbitrum: four a second; TRON's alarm is unchanged.
  expect(thresholds).toEqual({ tron: 200, ethereum: 50, arbitrum: 2400 });
});

it('alarms per open network, TRON\'s included, on USDT at an unpaid deposit address that no scan recorded, for three periods in a row, saying how to find the payment', () => {
  const alarms = alarmsOn('UnrecordedDepositUsdt');
  expect(alarms.map((alarm) => alarm.name).sort()).toEqual(['Cambio-sandbox-UnrecordedDepositUsdt', 'Cambio-sandbox-UnrecordedDepositUsdtArbitrum', 'Cambio-sandbox-UnrecordedDepositUsdtEthereum']);
  for (const alarm of alarms) expect(alarm.description).toMatch(/holds USDT that no scan recorded.*npm run deposits:rescan/);
  const periods = Object.values(alarmTemplate.findResources('AWS::CloudWatch::Alarm')).filter((alarm) => alarm.Properties.MetricName === 'UnrecordedDepositUsdt').map((alarm) => alarm.Properties.EvaluationPeriods);
  expect(periods).toEqual([3, 3, 3]);
});

it("alarms on each EVM network's payouts that the fee cap keeps from being replaced, by the metric its sender publishes with its name", () => {
  const alarms = Object.values(alarmTemplate.findResources('AWS::CloudWatch::Alarm')).filter((alarm) => alarm.Properties.MetricName === 'PayoutFeeCapReached');
  const byNetwork: Record<string, Record<string, unknown>> = Object.fromEntries(
    alarms.map((alarm) => [(alarm.Properties.Dimensions as { Name: string; Value: string }[]).find((d) => d.Name === 'Network')?.Value, alarm.Properties]),
  );
  expect(Object.keys(byNetwork).sort()).toEqual(['arbitrum', 'ethereum']);
  for (const alarm of Object.values(byNetwork)) {
    expect(alarm).toMatchObject({ Namespace: 'Cambio', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', AlarmActions: [expect.anything()] });
    expect(alarm.AlarmDescription).toMatch(/fee cap|maxFeePerGasGwei/);
  }
});

it.each([
  ['WithdrawalsStuckProcessing', 1, 1],
  ['WithdrawalsAwaitingFloat', 3, 2],
])("alarms on each EVM network's %s by its sender's metric with the network's name, beside TRON's without one", (metric, periods, datapoints) => {
  const alarms = Object.values(alarmTemplate.findResources('AWS::CloudWatch::Alarm')).filter((alarm) => alarm.Properties.MetricName === metric);
  const byNetwork: Record<string, Record<string, unknown>> = Object.fromEntries(
    alarms.map((alarm) => [(alarm.Properties.Dimensions as { Name: string; Value: string }[]).find((d) => d.Name === 'Network')?.Value ?? 'tron', alarm.Properties]),
  );
  expect(Object.keys(byNetwork).sort()).toEqual(['arbitrum', 'ethereum', 'tron']);
  for (const [network, alarm] of Object.entries(byNetwork)) {
    expect(alarm).toMatchObject({ Namespace: 'Cambio', Threshold: 1, EvaluationPeriods: periods, AlarmActions: [expect.anything()] });
    if (datapoints > 1) expect(alarm.DatapointsToAlarm).toBe(datapoints);
    expect(alarm.AlarmDescription).toContain(network === 'tron' ? 'TRON' : network === 'ethereum' ? 'Ethereum' : 'Arbitrum');
  }
});

it('schedules the withdrawal sender once per open EVM network, with the network as input', () => {
  const networks = scheduledRuns('withdrawal sender').map(({ network }) => network);
  expect(networks.sort()).toEqual(['arbitrum', 'ethereum']);
});

it('schedules the deposit sweeper once per open EVM network, with the network as input (TRON on the chain jobs schedule, no input)', () => {
  const rules = template.findResources('AWS::Events::Rule', { Properties: { Description: Match.stringLikeRegexp('deposit sweeper') } });
  const inputs = Object.values(rules).flatMap((rule) => (rule.Properties.Targets as { Input?: string; Arn: unknown }[]).filter((target) => JSON.stringify(target.Arn).includes('JobsDepositSweeper')).map((target) => (target.Input ? JSON.parse(target.Input).network : 'tron')));
  expect(inputs.sort()).toEqual(['arbitrum', 'ethereum', 'tron']);
});

it('lets the chain jobs alone (poller, sender, sweeper, reconcile) read the secret that holds a provider URL', () => {
  const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) => JSON.stringify(policy).includes('cambio/sandbox/ethereum-rpc-url'));
  const roles = policies.map((policy) => JSON.stringify(policy.Properties.Roles)).join(' ');
  expect(policies).toHaveLength(4);
  expect(roles).toMatch(/JobsReconcile/);
  expect(roles).toMatch(/JobsDepositPoller/);
  expect(roles).toMatch(/JobsWithdrawalSender/);
  expect(roles).toMatch(/JobsDepositSweeper/);
});

/** The alarms on a metric's value (its Maximum), not on whether it was published at all (a job's runs: SampleCount). */
const alarmsOn = (metricName: string, statistic = 'Maximum') =>
  Object.values(alarmTemplate.findResources('AWS::CloudWatch::Alarm'))
    .filter((alarm) => alarm.Properties.MetricName === metricName && alarm.Properties.Statistic === statistic)
    .map((alarm) => ({
      network: (alarm.Properties.Dimensions as { Name: string; Value: string }[]).find((d) => d.Name === 'Network')?.Value ?? 'total',
      name: alarm.Properties.AlarmName as string,
      description: alarm.Properties.AlarmDescription as string,
      properties: alarm.Properties as Record<string, unknown>,
    }));

it("alarms per open EVM network when its hot wallet's gas token runs low, on the metric its sender and sweeper publish with its name (TRON's, the first network's, without one)", () => {
  const alarms = alarmsOn('HotWalletGasLow');
  expect(alarms.map((alarm) => alarm.network).sort()).toEqual(['arbitrum', 'ethereum', 'total']);
  expect(alarms.find((alarm) => alarm.network === 'total')).toMatchObject({ name: 'Cambio-sandbox-HotWalletGasLow', description: expect.stringMatching(/^Hot wallet gas low: the TRON hot wallet holds less TRX than WITHDRAWAL_FEE_LIMIT_SUN/) });
  expect(alarms.find((alarm) => alarm.network === 'ethereum')).toMatchObject({ name: 'Cambio-sandbox-HotWalletGasLowEthereum', description: expect.stringMatching(/^Hot wallet gas low: the Ethereum hot wallet holds less ETH/) });
});

it('alarms on a reconcile shortfall and surplus per network (TRON too) beside the total, once EVM networks are open', () => {
  for (const metric of ['ReconcileShortfallUsdt', 'ReconcileSurplusUsdt']) {
    expect(alarmsOn(metric).map((alarm) => alarm.network).sort()).toEqual(['arbitrum', 'ethereum', 'total', 'tron']);
  }
  expect(alarmsOn('ReconcileShortfallUsdt').find((alarm) => alarm.network === 'tron')!.name).toBe('Cambio-sandbox-ReconcileShortfallTron');
});

it('makes a secp256k1 KMS key for each EVM network, open or not, lets the withdrawal sender and the deposit sweeper alone sign with an open one, and reconcile read its address', () => {
  const keys = template.findResources('AWS::KMS::Key', { Properties: { Description: Match.stringLikeRegexp('hot wallet \\((ethereum|bsc|polygon|arbitrum),') } });
  expect(Object.values(keys).map((key) => `${key.Properties.KeySpec} ${key.Properties.KeyUsage}`)).toEqual(Array(4).fill('ECC_SECG_P256K1 SIGN_VERIFY'));
  const aliases = Object.fromEntries(Object.values(template.findResources('AWS::KMS::Alias')).map((alias) => [alias.Properties.AliasName, alias.Properties.TargetKeyId['Fn::GetAtt'][0]]));
  const keyOf = Object.fromEntries(['ethereum', 'bsc', 'polygon', 'arbitrum'].map((network) => [network, aliases[`alias/cambio-sandbox-hot-wallet-${network}`] as string]));
  expect(Object.values(keyOf).sort()).toEqual(Object.keys(keys).sort());

  // The sender's EVM_SIGNER_KMS_KEY_IDS is the JSON of each open network's key id (a Ref once deployed).
  const functions = template.findResources('AWS::Lambda::Function');
  const senderId = Object.keys(functions).find((id) => functions[id]!.Properties.FunctionName === `Cambio-sandbox-${lambdaName(JOBS.withdrawalSender.handler)}`)!;
  const joined = functions[senderId]!.Properties.Environment.Variables.EVM_SIGNER_KMS_KEY_IDS['Fn::Join'][1] as (string | { Ref: string })[];
  expect(JSON.parse(joined.map((part) => (typeof part === 'string' ? part : part.Ref)).join(''))).toEqual({ ethereum: keyOf.ethereum, arbitrum: keyOf.arbitrum });
  // One execution reserved per open network (TRON, ethereum, arbitrum): each network's run goes beside
  // the others', its lease in the table keeping it to one at a time (functions/networks/run-lease.ts).
  expect(functions[senderId]!.Properties.ReservedConcurrentExecutions).toBe(3);

  // Every grant on a network's key: the sender's and the sweeper's roles, to sign and read the public
  // key, and reconcile's, to read the public key alone (its hot wallet's address), on an open network's key only.
  const grantsOn = (keyId: string) =>
    Object.values(template.findResources('AWS::IAM::Policy')).flatMap((policy) =>
      (policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
        .filter((statement) => JSON.stringify(statement.Resource).includes(`"${keyId}"`))
        .map((statement) => ({ roles: policy.Properties.Roles.map((role: { Ref: string }) => role.Ref), actions: [statement.Action].flat().sort() })),
    );
  const sweeperId = Object.keys(functions).find((id) => functions[id]!.Properties.FunctionName === `Cambio-sandbox-${lambdaName(JOBS.depositSweeper.handler)}`)!;
  const reconcileId = Object.keys(functions).find((id) => functions[id]!.Properties.FunctionName === `Cambio-sandbox-${lambdaName(JOBS.reconcile.handler)}`)!;
  const grants = [
    ...[senderId, sweeperId].map((id) => ({ roles: [functions[id]!.Properties.Role['Fn::GetAtt'][0]], actions: ['kms:GetPublicKey', 'kms:Sign'] })),
    { roles: [functions[reconcileId]!.Properties.Role['Fn::GetAtt'][0]], actions: ['kms:GetPublicKey'] },
  ];
  const sorted = (list: { roles: string[] }[]) => [...list].sort((a, b) => a.roles[0]!.localeCompare(b.roles[0]!));
  expect(Object.fromEntries(Object.entries(keyOf).map(([network, keyId]) => [network, sorted(grantsOn(keyId))]))).toEqual({ ethereum: sorted(grants), arbitrum: sorted(grants), bsc: [], polygon: [] });
});

it('refuses a stage figure that names an unknown network, naming the variable', () => {
  expect(() => sandboxTemplateWith({ EVM_NETWORKS: JSON.stringify({ solana: EVM_NETWORKS.ethereum }) })).toThrow(/Stage sandbox: EVM_NETWORKS names a network other than ethereum, bsc, polygon, arbitrum/);
});

it("refuses at synth a forwarderImplementation that is not the factory's own implementation: deposit addresses computed from it could never be swept", () => {
  const mistyped = { ...EVM_NETWORKS.ethereum, forwarderImplementation: '0xa16E02E87b7454126E5E10d957A927A7F5B5d2bf' };
  expect(() => sandboxTemplateWith({ EVM_NETWORKS: JSON.stringify({ ethereum: mistyped }) })).toThrow(
    /Stage sandbox: EVM_NETWORKS\.ethereum\.forwarderImplementation is 0xa16E02E87b7454126E5E10d957A927A7F5B5d2bf, but the factory 0x5FbDB2315678afecb367f032d93F642f64180aa3 deploys its implementation at 0xa16E02E87b7454126E5E10d957A927A7F5B5d2be/,
  );
});

it.each([
  ['HotWalletFrozen', /froze the .* hot wallet/, ['Arbitrum', 'Ethereum', 'Tron']],
  // Arbitrum's USD₮0 has no pause to alarm on.
  ['TokenPaused', /paused USDT on/, ['Ethereum', 'Tron']],
  ['DepositAddressesFrozen', /froze one or more .* deposit addresses/, ['Arbitrum', 'Ethereum', 'Tron']],
])("alarms per open network whose token has the control, TRON's included, on the issuer's control %s, as its sender and sweeper publish it", (metric, description, titles) => {
  const alarms = alarmsOn(metric);
  expect(alarms.map((alarm) => alarm.name).sort()).toEqual(titles.map((title) => `Cambio-sandbox-${metric}${title}`));
  for (const alarm of alarms) expect(alarm.description).toMatch(description);
});

it.each([
  ['arbitrum', { ...EVM_NETWORKS.arbitrum, tokenControls: undefined }, /EVM_NETWORKS\.arbitrum\.usdtContract 0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9 has the issuer controls 'blocked-list', but the stage reads it as 'tether' \(arbitrum's default\).*Set EVM_NETWORKS\.arbitrum\.tokenControls to 'blocked-list'/],
  // Polygon's PoS USDT, upgraded to USDT0 at the same address: isBlocked, no isBlackListed.
  ['polygon', { ...EVM_NETWORKS.ethereum, chainId: 137, usdtContract: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', tokenControls: undefined }, /EVM_NETWORKS\.polygon\.usdtContract 0xc2132D05D31c914a87C6611C10748AEb04B58e8F has the issuer controls 'blocked-list', but the stage reads it as 'tether' \(polygon's default\).*Set EVM_NETWORKS\.polygon\.tokenControls to 'blocked-list'/],
  ['ethereum', { ...EVM_NETWORKS.ethereum, tokenControls: 'none' }, /EVM_NETWORKS\.ethereum\.usdtContract 0xdAC17F958D2ee523a2206206994597C13D831ec7 has the issuer controls 'tether', but the stage reads it as 'none':/],
])("refuses at synth a known mainnet USDT read with another token's controls (%s): every freeze read would revert, and no deposit be credited", (name, network, message) => {
  expect(() => sandboxTemplateWith({ EVM_NETWORKS: JSON.stringify({ [name]: network }) })).toThrow(message);
});

it("makes none of the issuer's alarms on a network whose USDT has no controls: BSC's BEP20USDT, or one a stage says has none", () => {
  // Another token than USD₮0, at an address whose controls are not known, each network's default read.
  const arbitrumLike = { ...EVM_NETWORKS.arbitrum, rpcUrl: 'https://rpc.example.com', usdtContract: '0x000000000000000000000000000000000000dEaD', tokenControls: undefined };
  const withoutControls = alarmsTemplate(sandboxStackWith({ EVM_NETWORKS: JSON.stringify({ bsc: { ...arbitrumLike, chainId: 56 }, polygon: { ...arbitrumLike, chainId: 137, tokenControls: 'none' } }) }));
  const issuerAlarms = Object.values(withoutControls.findResources('AWS::CloudWatch::Alarm'))
    .filter((alarm) => ['HotWalletFrozen', 'TokenPaused', 'DepositAddressesFrozen'].includes(alarm.Properties.MetricName) && alarm.Properties.Statistic === 'Maximum')
    .map((alarm) => alarm.Properties.AlarmName as string);
  // TRON's alone; both networks keep every other alarm, as their gas alarms show.
  expect(issuerAlarms.sort()).toEqual(['Cambio-sandbox-DepositAddressesFrozenTron', 'Cambio-sandbox-HotWalletFrozenTron', 'Cambio-sandbox-TokenPausedTron']);
  const gasLow = Object.values(withoutControls.findResources('AWS::CloudWatch::Alarm')).filter((alarm) => alarm.Properties.MetricName === 'HotWalletGasLow');
  expect(gasLow.map((alarm) => alarm.Properties.AlarmName).sort()).toEqual(['Cambio-sandbox-HotWalletGasLow', 'Cambio-sandbox-HotWalletGasLowBsc', 'Cambio-sandbox-HotWalletGasLowPolygon']);
}, 120_000);

it.each([
  ['WithdrawalSenderNotRunning', 'WithdrawalsCompleted'],
  ['DepositSweeperNotRunning', 'DepositAddressesFrozen'],
])("alarms per open network, TRON's included, when its %s: no run published %s (every run does) in 30 minutes, missing data breaching", (name, metric) => {
  const alarms = alarmsOn(metric, 'SampleCount');
  expect(alarms.map((alarm) => alarm.name).sort()).toEqual(['Arbitrum', 'Ethereum', 'Tron'].map((title) => `Cambio-sandbox-${name}${title}`));
  expect(alarms.map((alarm) => alarm.network).sort()).toEqual(['arbitrum', 'ethereum', 'total']);
  for (const alarm of alarms) {
    expect(alarm.properties).toMatchObject({ Namespace: 'Cambio', Period: 1800, Threshold: 1, ComparisonOperator: 'LessThanThreshold', EvaluationPeriods: 1, TreatMissingData: 'breaching' });
    expect(alarm.description).toMatch(/EventBridge rule that runs the .* on (TRON|Ethereum|Arbitrum).*Throttles/);
  }
});

it("alarms per open network, TRON's included, on a deposit's transfer confirming for over an hour and on a final transfer held, by the poller's metrics with the network's name", () => {
  const confirming = alarmsOn('OldestConfirmingTransferAge');
  expect(confirming.map((alarm) => [alarm.network, alarm.name]).sort()).toEqual([
    ['arbitrum', 'Cambio-sandbox-DepositsStuckConfirmingArbitrum'],
    ['ethereum', 'Cambio-sandbox-DepositsStuckConfirmingEthereum'],
    ['total', 'Cambio-sandbox-DepositsStuckConfirmingTron'],
  ]);
  for (const alarm of confirming) expect(alarm.properties).toMatchObject({ Period: 300, Threshold: 3600, ComparisonOperator: 'GreaterThanThreshold' });
  const held = alarmsOn('DepositTransfersHeld', 'Sum');
  expect(held.map((alarm) => alarm.network).sort()).toEqual(['arbitrum', 'ethereum', 'total']);
  for (const alarm of held) {
    expect(alarm.properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    expect(alarm.description).toMatch(/npm run deposits:release/);
  }
});

it('alarms per open EVM network on its sweeps failing in three of six periods (TRON backs an address off and alarms on it held instead: SweepsHeld)', () => {
  const failing = alarmsOn('SweepsFailed', 'Sum');
  expect(failing.map((alarm) => [alarm.network, alarm.name]).sort()).toEqual([
    ['arbitrum', 'Cambio-sandbox-SweepsFailingArbitrum'],
    ['ethereum', 'Cambio-sandbox-SweepsFailingEthereum'],
  ]);
  for (const alarm of failing) expect(alarm.properties).toMatchObject({ Period: 300, Threshold: 1, EvaluationPeriods: 6, DatapointsToAlarm: 3, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
});
