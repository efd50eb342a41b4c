import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { CambioStack } from '../../lib/cambio-stack.ts';
import { NO_DEPLOYMENT_SETTINGS } from '../../lib/deployment-settings.ts';
import { STAGES } from '../../config/stages.ts';
import { EVM_NETWORK_NAMES } from '../../functions/networks/evm/settings.ts';
import { alarmsTemplate } from '../support/alarms-template.ts';

/**
 * CloudFormation refuses a stack of more than 500 resources, and `cdk synth` refuses to write one.
 * Each network a stage opens adds alarms and scheduled runs, and the stages as config/stages.ts has
 * them open TRON alone: a stage that opens every network is the one that would cross the line,
 * and it did (521 resources in production with all five, before the networks' alarms had a
 * nested stack of their own and a schedule ran its job for several networks). 50 are kept in hand.
 */
const FACTORY = { forwarderFactory: '0x5FbDB2315678afecb367f032d93F642f64180aa3', forwarderImplementation: '0xa16E02E87b7454126E5E10d957A927A7F5B5d2be', finalizedTag: true };
const EVERY_EVM_NETWORK = {
  ethereum: { chainId: 1, rpcUrlSecret: 'cambio/stage/ethereum-rpc-url', usdtContract: '0xdAC17F958D2ee523a2206206994597C13D831ec7', ...FACTORY, confirmations: 64, scanEveryMinutes: 2 },
  bsc: { chainId: 56, rpcUrlSecret: 'cambio/stage/bsc-rpc-url', usdtContract: '0x55d398326f99059fF775485246999027B3197955', ...FACTORY, confirmations: 15 },
  polygon: { chainId: 137, rpcUrlSecret: 'cambio/stage/polygon-rpc-url', usdtContract: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', tokenControls: 'blocked-list', ...FACTORY, confirmations: 1 },
  arbitrum: { chainId: 42161, rpcUrlSecret: 'cambio/stage/arbitrum-rpc-url', usdtContract: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', tokenControls: 'blocked-list', ...FACTORY, confirmations: 1 },
};
const SOLANA = { rpcUrlSecret: 'cambio/stage/solana-rpc-url', usdtMint: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', depositSeedSecret: 'cambio/stage/solana-deposit-seed' };
const RESOURCES_AT_MOST = 450;
const NAMED_NETWORKS = [...EVM_NETWORK_NAMES, 'solana'];

describe.each(['sandbox', 'production'] as const)('Cambio-%s opening every network', (stage) => {
  const config = { ...STAGES[stage], functionEnvironment: { ...STAGES[stage].functionEnvironment, EVM_NETWORKS: JSON.stringify(EVERY_EVM_NETWORK), SOLANA: JSON.stringify(SOLANA) } };
  let template: Template;
  /** The alarms of the networks but TRON: a nested stack of their own (lib/observability.ts). */
  let networkAlarms: Template;
  /** Every alarm, the stage's and the networks'. */
  let alarms: Template;

  beforeAll(() => {
    const stack = new CambioStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), `Cambio-${stage}`, { config, settings: NO_DEPLOYMENT_SETTINGS });
    template = Template.fromStack(stack);
    networkAlarms = Template.fromStack(stack.operations.networkAlarmsStack!);
    alarms = alarmsTemplate(stack, template);
  }, 60_000);

  it(`keeps the stage's template and its networks' alarms' each under ${RESOURCES_AT_MOST} resources`, () => {
    expect(Object.keys(template.toJSON().Resources).length).toBeLessThanOrEqual(RESOURCES_AT_MOST);
    expect(Object.keys(networkAlarms.toJSON().Resources).length).toBeLessThanOrEqual(RESOURCES_AT_MOST);
    // Every network's alarms are there: TRON's and each other network's scanner lag.
    expect(Object.values(alarms.findResources('AWS::CloudWatch::Alarm')).filter((alarm) => alarm.Properties.MetricName === 'ScannerLagBlocks')).toHaveLength(1 + NAMED_NETWORKS.length);
  });

  // Lambda refuses a function whose variables, names and values together, pass 4 KB; the network
  // figures (EVM_NETWORKS, SOLANA) grow with each network opened. A reference counts as the longest
  // it resolves to here (a key id or table name under 64 characters, an ARN or queue URL under 128).
  it("keeps each function's environment under Lambda's 4 KB", () => {
    const length = (value: unknown): number => {
      if (typeof value === 'string') return Buffer.byteLength(value);
      const intrinsic = value as Record<string, unknown>;
      if ('Ref' in intrinsic) return 64;
      if ('Fn::Join' in intrinsic) return ((intrinsic['Fn::Join'] as [string, unknown[]])[1]).reduce<number>((sum, part) => sum + length(part), 0);
      return 128;
    };
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function'))) {
      const variables = (fn.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
      const size = Object.entries(variables).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + length(value), 0);
      expect(size, String(fn.Properties.FunctionName)).toBeLessThanOrEqual(4096);
    }
  });

  it('reserves the signing jobs one execution per open network: six', () => {
    const signing = Object.values(template.findResources('AWS::Lambda::Function')).filter((fn) => /-Jobs(WithdrawalSender|DepositSweeper)$/.test(String(fn.Properties.FunctionName)));
    expect(signing.map((fn) => fn.Properties.ReservedConcurrentExecutions)).toEqual([6, 6]);
  });

  it.each(['deposit poller', 'withdrawal sender', 'deposit sweeper'])('runs the %s once a schedule for each network but TRON, with the network as input, five to a rule at most', (job) => {
    const rules = Object.values(template.findResources('AWS::Events::Rule')).filter((rule) => String(rule.Properties.Description).startsWith(`Runs the ${job} on `));
    const networks = rules.flatMap((rule) => (rule.Properties.Targets as { Input: string }[]).map((target) => JSON.parse(target.Input).network as string));
    expect(networks.sort()).toEqual([...NAMED_NETWORKS].sort());
    for (const rule of rules) expect(rule.Properties.Targets.length).toBeLessThanOrEqual(5);
  });
});
