import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_API, lambdaName, JOBS, SESSION_AUTHORIZER } from '../../functions/routes.ts';
import { PROJECT_ROOT } from '../../lib/api-function.ts';
import { addCambioStack } from '../../lib/cambio-app.ts';
import { CREATE_WEBHOOK_HANDLER } from '../../lib/webhook-secrets.ts';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: Record<string, Record<string, unknown>> };

/**
 * The webhook secrets key (lib/webhook-secrets.ts) on each deployable stage: a rotating, retained
 * symmetric key that only POST /v1/webhooks and the dashboard API may encrypt with, and that only it
 * (for its replays), the webhook sender (to sign) and the dashboard API (its sessions' Cognito
 * tokens, not a webhook's secret) may decrypt with, each for its own purpose.
 */
describe.each(['sandbox', 'production'] as const)('webhook secrets key on Cambio-%s', (stage) => {
  let template: Template;
  let keyId: string;
  let functions: Record<string, Resource>;

  beforeAll(() => {
    template = Template.fromStack(addCambioStack(new App({ context: { stage, 'aws:cdk:bundling-stacks': [] } })));
    const keys = Object.entries(template.findResources('AWS::KMS::Key') as Record<string, Resource>).filter(([, key]) =>
      String(key.Properties.Description).includes('webhook signing secrets'),
    );
    expect(keys).toHaveLength(1);
    keyId = keys[0]![0];
    functions = template.findResources('AWS::Lambda::Function') as Record<string, Resource>;
  }, 60_000);

  const functionId = (handler: string) => Object.entries(functions).find(([, fn]) => fn.Properties.FunctionName === `Cambio-${stage}-${lambdaName(handler)}`)![0];
  const roleOf = (id: string): string => functions[id]!.Properties.Role['Fn::GetAtt'][0];
  /** Every statement that names the key, with the role it is attached to. */
  const statementsOnKey = () =>
    Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>).flatMap((policy) =>
      (policy.Properties.PolicyDocument.Statement as Statement[])
        .filter((statement) => JSON.stringify(statement.Resource).includes(`"${keyId}"`))
        .flatMap((statement) => (policy.Properties.Roles as { Ref: string }[]).map((role) => ({ role: role.Ref, statement }))),
    );

  it('is a symmetric key with rotation on, kept when the stack is deleted, under a stage alias', () => {
    const key = (template.findResources('AWS::KMS::Key') as Record<string, Resource>)[keyId]!;

    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(key.Properties.KeySpec ?? 'SYMMETRIC_DEFAULT').toBe('SYMMETRIC_DEFAULT');
    expect(key.Properties.KeyUsage ?? 'ENCRYPT_DECRYPT').toBe('ENCRYPT_DECRYPT');
    expect(key.DeletionPolicy).toBe('Retain');
    expect(key.UpdateReplacePolicy).toBe('Retain');
    template.hasResourceProperties('AWS::KMS::Alias', { AliasName: `alias/cambio-${stage}-webhook-secrets`, TargetKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } });
  });

  it('lets only the create-webhook function and the dashboard API encrypt, and only the create-webhook function, the webhook sender and the dashboard API decrypt, each for its own purpose', () => {
    const creator = roleOf(functionId(CREATE_WEBHOOK_HANDLER));
    const sender = roleOf(functionId(JOBS.webhookSender.handler));
    const dashboard = roleOf(functionId(DASHBOARD_API.handler));

    const grants = statementsOnKey().map(({ role, statement }) => ({
      role,
      actions: [statement.Action].flat().sort(),
      purpose: statement.Condition?.StringEquals?.['kms:EncryptionContext:purpose'],
      bound: statement.Condition?.Null,
    }));

    const bound = { 'kms:EncryptionContext:companyId': 'false', 'kms:EncryptionContext:webhookId': 'false' };
    expect(grants).toHaveLength(5);
    expect(grants).toEqual(
      expect.arrayContaining([
        // Add endpoint and Roll secret seal new secrets; the dashboard never opens one.
        { role: dashboard, actions: ['kms:Encrypt'], purpose: 'webhook-signing', bound },
        // Its sessions' Cognito tokens, sealed at sign-in and opened by the routes that act as the
        // person, each bound to its session (the session authorizer never opens them: no grant).
        { role: dashboard, actions: ['kms:Decrypt', 'kms:Encrypt'], purpose: 'dashboard-session', bound: { 'kms:EncryptionContext:sessionKey': 'false' } },
        { role: creator, actions: ['kms:Encrypt'], purpose: ['webhook-signing', 'idempotent-replay'], bound },
        { role: creator, actions: ['kms:Decrypt'], purpose: 'idempotent-replay', bound },
        { role: sender, actions: ['kms:Decrypt'], purpose: 'webhook-signing', bound },
      ]),
    );
    expect(statementsOnKey().every(({ statement }) => statement.Effect === 'Allow')).toBe(true);
  });

  it("refuses kms:Decrypt of each purpose, in the key's own policy, to every principal but the role bound to open it, whatever the account's IAM allows", () => {
    const key = (template.findResources('AWS::KMS::Key') as Record<string, Resource>)[keyId]!;
    const denials = (key.Properties.KeyPolicy.Statement as Statement[]).filter((statement) => statement.Effect === 'Deny');
    const roleArn = (roleId: string) => ({ 'Fn::GetAtt': [roleId, 'Arn'] });
    /** Whether the key's policy denies Decrypt of `purpose` values to the principal with this ARN (no IAM Allow undoes a Deny). */
    const decryptDenied = (purpose: string, principalArn: unknown) =>
      denials.some(
        (statement: any) =>
          statement.Principal?.AWS === '*' &&
          [statement.Action].flat().includes('kms:Decrypt') &&
          statement.Condition?.StringEquals?.['kms:EncryptionContext:purpose'] === purpose &&
          !(statement.Condition?.ArnNotEquals?.['aws:PrincipalArn'] as unknown[]).some((allowed) => JSON.stringify(allowed) === JSON.stringify(principalArn)),
      );
    const creator = roleArn(roleOf(functionId(CREATE_WEBHOOK_HANDLER)));
    const sender = roleArn(roleOf(functionId(JOBS.webhookSender.handler)));
    const dashboard = roleArn(roleOf(functionId(DASHBOARD_API.handler)));
    const administrator = 'arn:aws:iam::123456789012:role/Admin';
    const openers = { 'webhook-signing': sender, 'idempotent-replay': creator, 'dashboard-session': dashboard };

    for (const [purpose, opener] of Object.entries(openers)) {
      expect(decryptDenied(purpose, opener), `${purpose} by its opener`).toBe(false);
      for (const other of [creator, sender, dashboard, administrator].filter((principal) => principal !== opener)) expect(decryptDenied(purpose, other), `${purpose} by ${JSON.stringify(other)}`).toBe(true);
    }
  });

  it('grants no function kms:Encrypt, kms:Decrypt or kms:* on every resource', () => {
    const broad = Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>)
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[])
      .filter((statement) => [statement.Resource].flat().includes('*'))
      .flatMap((statement) => [statement.Action].flat())
      .filter((action) => /^kms:(Encrypt|Decrypt|\*)/.test(action));

    expect(broad).toEqual([]);
  });

  it('names the key to those three functions alone, tells them to seal with KMS, and ships no local key to any function', () => {
    const named = Object.entries(functions)
      .filter(([, fn]) => fn.Properties.Environment.Variables.WEBHOOK_SECRET_KMS_KEY_ID !== undefined)
      .map(([id]) => id);

    expect(named.sort()).toEqual([functionId(CREATE_WEBHOOK_HANDLER), functionId(JOBS.webhookSender.handler), functionId(DASHBOARD_API.handler)].sort());
    for (const id of named) expect(functions[id]!.Properties.Environment.Variables.WEBHOOK_SECRET_KMS_KEY_ID).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    for (const id of named) expect(functions[id]!.Properties.Environment.Variables.WEBHOOK_SECRET_SEALER).toBe('kms');
    for (const fn of Object.values(functions)) expect(fn.Properties.Environment.Variables.LOCAL_WEBHOOK_SEALING_KEY).toBeUndefined();
  });
});

/** A handler's bundle, with the options lib/api-function.ts gives esbuild that decide imports: ESM, the AWS SDK external. */
async function bundled(handler: string): Promise<string> {
  const result = await build({
    entryPoints: [path.join(PROJECT_ROOT, 'functions', 'handlers', `${handler}.ts`)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    mainFields: ['module', 'main'],
    external: ['@aws-sdk/*'],
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

it("bundles the session authorizer without any sealer: a dashboard request's authorization never opens a session's tokens", async () => {
  const code = await bundled(SESSION_AUTHORIZER.handler);

  expect(code).toContain('sessionKey');
  expect(code).not.toMatch(/@aws-sdk\/client-kms/);
  expect(code).not.toContain('cambio-dashboard-session');
  expect(code).not.toContain('KmsSecretSealer');
});

it('bundles POST /v1/webhooks with the KMS client loaded on first use, not at cold start', async () => {
  const code = await bundled(CREATE_WEBHOOK_HANDLER);

  expect(code).toMatch(/import\(\s*["']@aws-sdk\/client-kms["']\s*\)/);
  expect(code).not.toMatch(/from\s*["']@aws-sdk\/client-kms["']/);
  expect(code).not.toMatch(/^import\s*["']@aws-sdk\/client-kms["']/m);
});
