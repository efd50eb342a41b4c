import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { addCambioStack } from '../../lib/cambio-app.ts';
import { AUTHORIZER, JOBS, lambdaName } from '../../functions/routes.ts';
import { DynamoDeliveryStore } from '../../functions/adapters/dynamo/webhook-delivery-store.ts';
import { DynamoApiKeyStore } from '../../functions/adapters/dynamo/api-key-store.ts';
import { DynamoSweepDueList } from '../../functions/adapters/dynamo/sweep-due-list.ts';
import { depositAddressItem } from '../../functions/adapters/dynamo/items/deposit-address.ts';
import { reconcileAddressTurnItem } from '../../functions/adapters/dynamo/items/reconcile-address-turn.ts';
import { DynamoSweepStore } from '../../functions/networks/tron/sweep-store.ts';
import { DynamoEvmSweepStore } from '../../functions/networks/evm/sweep-store.ts';
import { DynamoSolanaSweepStore } from '../../functions/networks/solana/sweep-store.ts';
import type { EvmNetworkName } from '../../functions/networks/evm/settings.ts';
import type { NetworkName } from '../../functions/networks/names.ts';
import { sandboxStackWith } from '../support/sandbox-stack.ts';

/**
 * What a function's code asks DynamoDB to do, its role allows. The local runtime enforces no IAM,
 * so a write the role lacks only fails in AWS: the webhook sender's role could not Put an
 * attempt's row on a stage without mail (every delivery was retried until the dead-letter queue),
 * and the /v1 authorizer's could not record a key's last use. The calls are the stores' own, made
 * against a client that records them; the grants are the synthesized roles'.
 */
type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;

function dynamoActionsOf(template: Template, handler: string): string[] {
  const resources = template.toJSON().Resources as Resources;
  const [, fn] = Object.entries(resources).find(([id, resource]) => resource.Type === 'AWS::Lambda::Function' && id.startsWith(lambdaName(handler)))!;
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  return Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::IAM::Policy' && resource.Properties.Roles.some((role: { Ref?: string }) => role.Ref === roleId))
    .flatMap((resource) => resource.Properties.PolicyDocument.Statement.flatMap((statement: { Action: string | string[] }) => [statement.Action].flat()))
    .filter((action: string) => action.startsWith('dynamodb:'));
}

/** A document client that records the commands it is sent, and answers each with nothing (or,
 * by command, what `answers` gives). */
function recordingClient(answers: Record<string, unknown> = {}) {
  const sent: { name: string; input: any }[] = [];
  const db = { send: async (command: { constructor: { name: string }; input: unknown }) => (sent.push({ name: command.constructor.name, input: command.input }), answers[command.constructor.name] ?? {}) };
  return { db: db as never, sent };
}

/** The IAM action DynamoDB authorises each command by: a transaction's parts each by their own. */
function actionsNeeded(sent: { name: string; input: any }[]): string[] {
  const ofPart = { Put: 'dynamodb:PutItem', Update: 'dynamodb:UpdateItem', Delete: 'dynamodb:DeleteItem', ConditionCheck: 'dynamodb:ConditionCheckItem' } as const;
  return sent.flatMap(({ name, input }) => {
    if (name === 'TransactWriteCommand') return input.TransactItems.map((item: object) => ofPart[Object.keys(item)[0] as keyof typeof ofPart]);
    return [`dynamodb:${name.replace(/Command$/, '')}`.replace(/^dynamodb:(Put|Update|Get|Delete)$/, 'dynamodb:$1Item')];
  });
}

describe('a stage without mail (sandbox): what the code writes, the role allows', () => {
  const template = Template.fromStack(addCambioStack(new App({ context: { stage: 'sandbox', 'aws:cdk:bundling-stacks': [] } })));

  it('the webhook sender may record a delivery attempt', async () => {
    const { db, sent } = recordingClient();
    const message = { companyId: 'cmp_1', eventId: 'evt_1', webhookId: 'whk_1', round: 0, attempt: 1 };
    const attempt = { round: 0, attempt: 1, at: new Date().toISOString(), url: 'https://example.com', statusCode: 200, durationMs: 5, error: null };
    await new DynamoDeliveryStore(db, 'T').record(message, { eventType: 'deposit.completed', status: 'succeeded', attempt, nextAttemptAt: null }, new Date());

    expect(actionsNeeded(sent)).toContain('dynamodb:PutItem');
    expect(dynamoActionsOf(template, JOBS.webhookSender.handler)).toEqual(expect.arrayContaining(actionsNeeded(sent)));
  });

  it('the /v1 authorizer may record an API key’s last use', async () => {
    const { db, sent } = recordingClient();
    await new DynamoApiKeyStore(db, 'T').recordKeyUse('key_1', new Date().toISOString(), new Date(0).toISOString(), '203.0.113.9');

    expect(dynamoActionsOf(template, AUTHORIZER.handler)).toEqual(expect.arrayContaining(actionsNeeded(sent)));
  });
});

/**
 * The deposit sweeper's deletes: a finished sweep moves from its open record to the history in one
 * transaction, whose Delete part DynamoDB authorises by DeleteItem (without it every deployed
 * sweeper failed at its first finished sweep, and sweeping stopped); and the review of the
 * addresses below the minimum drops its cursor after a full pass. It may delete there alone.
 */
/** Two EVM networks and Solana opened on the sandbox stage, as a deployment would (values as in evm-networks.test.ts and solana-network.test.ts). */
const EVM_NETWORKS = {
  ethereum: { chainId: 1, rpcUrlSecret: 'cambio/sandbox/ethereum-rpc-url', usdtContract: '0xdAC17F958D2ee523a2206206994597C13D831ec7', forwarderFactory: '0x5FbDB2315678afecb367f032d93F642f64180aa3', forwarderImplementation: '0xa16E02E87b7454126E5E10d957A927A7F5B5d2be', finalizedTag: true, confirmations: 64 },
  arbitrum: { chainId: 42161, rpcUrl: 'https://arb1.example.com/rpc', usdtContract: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', tokenControls: 'blocked-list', forwarderFactory: '0x5FbDB2315678afecb367f032d93F642f64180aa3', forwarderImplementation: '0xa16E02E87b7454126E5E10d957A927A7F5B5d2be', finalizedTag: true, confirmations: 1, feeMarket: 'legacy' },
};
const SOLANA = { rpcUrlSecret: 'cambio/sandbox/solana-rpc-url', usdtMint: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', depositSeedSecret: 'cambio/sandbox/solana-deposit-seed' };
const OPEN_EVM = Object.keys(EVM_NETWORKS) as EvmNetworkName[];

describe("the deposit sweeper's deletes, on a stage that opens every family", () => {
  const template = Template.fromStack(sandboxStackWith({ EVM_NETWORKS: JSON.stringify(EVM_NETWORKS), SOLANA: JSON.stringify(SOLANA) }));
  const deletes = () => deleteGrantsOf(template, JOBS.depositSweeper.handler);
  const at = new Date().toISOString();
  const finished = { status: 'done', updatedAt: at, failureReason: null } as const;

  /** Every Delete part or DeleteItem the client was sent is allowed by a DeleteItem statement whose partitions match its key. */
  function expectAllowed(sent: { name: string; input: any }[]) {
    const keys = sent.flatMap(({ name, input }) =>
      name === 'TransactWriteCommand' ? input.TransactItems.filter((item: any) => item.Delete).map((item: any) => item.Delete.Key) : name === 'DeleteCommand' ? [input.Key] : [],
    );
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(deletes().some((patterns) => patterns.some((pattern) => likeIam(pattern, key.PK))), `DeleteItem on ${key.PK}`).toBe(true);
  }

  it('may finish a TRON sweep', async () => {
    const { db, sent } = recordingClient();
    const sweeping = { address: 'TXYZ', addressIndex: 1, amount: 5n, status: 'reclaiming', topUpTxHash: 'a', sweepTxHash: 'b', reclaimTxHash: 'c', reclaimedSun: 1n, reclaimAttempts: 1, takenOffCounts: null, stepExpiresAt: null, failureReason: null, createdAt: at, updatedAt: at } as const;
    await new DynamoSweepStore(db, 'T').saveSweep(sweeping as never, { ...sweeping, ...finished } as never);
    expectAllowed(sent);
  });

  it('may finish an EVM sweep, on each open EVM network', async () => {
    for (const network of OPEN_EVM) {
      const { db, sent } = recordingClient();
      const sweeping = { id: 'sw_1', network, status: 'sending', wallet: '0x1', forwarders: [], amount: 5n, nativeAmount: 0n, failureReason: null, createdAt: at, updatedAt: at, nonce: 1, versions: [], broadcastAt: null };
      await new DynamoEvmSweepStore(db, 'T', network).saveSweep(sweeping as never, { ...sweeping, ...finished } as never);
      expectAllowed(sent);
    }
  });

  it('may finish a Solana sweep, and clear the marks on the addresses it swept', async () => {
    const { db, sent } = recordingClient();
    const sweeping = { id: 'sig1', status: 'sending', wallet: 'W', accounts: [{ owner: 'O1', addressIndex: 1, tokenAccount: 'A1', amount: 5n }], amount: 5n, rent: 1n, createsHotWalletAccount: false, signature: 'sig1', wire: '', lastValidBlockHeight: 1n, earlierSignatures: [], broadcastAt: at, failureReason: null, createdAt: at, updatedAt: at };
    await new DynamoSolanaSweepStore(db, 'T').saveSweep(sweeping as never, { ...sweeping, ...finished } as never);
    expect(sent[0]!.input.TransactItems.filter((item: any) => item.Delete)).toHaveLength(2);
    expectAllowed(sent);
  });

  it("may drop the below-minimum review's cursor once a pass ends, on each open network", async () => {
    for (const network of ['tron', ...OPEN_EVM, 'solana'] as NetworkName[]) {
      const { db, sent } = recordingClient({ GetCommand: { Item: depositAddressItem.belowMinimumReview(network, 'TZZZ') } });
      await new DynamoSweepDueList(db, 'T', network).belowMinimumPage(25);
      expectAllowed(sent);
    }
  });

  it('may delete nothing else: a deposit, a withdrawal, a balance, the ledger', () => {
    for (const PK of ['COMPANY#cmp_1', 'DEPOSIT#dep_1', 'WITHDRAWAL#wdr_1', 'LEDGER#cmp_1', 'APIKEY#ck_test_x']) {
      expect(deletes().some((patterns) => patterns.some((pattern) => likeIam(pattern, PK))), PK).toBe(false);
    }
  });
});

describe("reconcile's one write", () => {
  const template = Template.fromStack(addCambioStack(new App({ context: { stage: 'sandbox', 'aws:cdk:bundling-stacks': [] } })));

  it('is the place of its turn through every deposit address, and no balance, ledger entry or record', () => {
    expect(deleteGrantsOf(template, JOBS.reconcile.handler, 'dynamodb:PutItem')).toEqual([[reconcileAddressTurnItem.key().PK]]);
    expect(deleteGrantsOf(template, JOBS.reconcile.handler)).toEqual([]);
  });
});

/** The partitions each `action` (DeleteItem unless named) statement of the function's role allows (its LeadingKeys), one list a statement; a statement without that condition fails the test. */
function deleteGrantsOf(template: Template, handler: string, action = 'dynamodb:DeleteItem'): string[][] {
  const resources = template.toJSON().Resources as Resources;
  const [, fn] = Object.entries(resources).find(([id, resource]) => resource.Type === 'AWS::Lambda::Function' && id.startsWith(lambdaName(handler)))!;
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  return Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::IAM::Policy' && resource.Properties.Roles.some((role: { Ref?: string }) => role.Ref === roleId))
    .flatMap((resource) => resource.Properties.PolicyDocument.Statement)
    .filter((statement: { Action: string | string[] }) => [statement.Action].flat().includes(action))
    .map((statement: { Condition?: Record<string, Record<string, string[]>> }) => {
      const partitions = statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
      expect(partitions, `${action} without a LeadingKeys condition`).toBeDefined();
      return partitions!;
    });
}

/** IAM's StringLike: `*` any run of characters, `?` one. */
function likeIam(pattern: string, value: string): boolean {
  return new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`).test(value);
}

