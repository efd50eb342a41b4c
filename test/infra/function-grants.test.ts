import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { addCambioStack } from '../../lib/cambio-app.ts';
import { AUTHORIZER, JOBS, lambdaName } from '../../functions/routes.ts';
import { DynamoDeliveryStore } from '../../functions/adapters/dynamo/webhook-delivery-store.ts';
import { DynamoApiKeyStore } from '../../functions/adapters/dynamo/api-key-store.ts';

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

/** A document client that records the commands it is sent, and answers each with nothing. */
function recordingClient() {
  const sent: { name: string; input: any }[] = [];
  const db = { send: async (command: { constructor: { name: string }; input: unknown }) => (sent.push({ name: command.constructor.name, input: command.input }), {}) };
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
