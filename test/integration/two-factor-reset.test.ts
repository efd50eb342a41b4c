import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { companyPartition } from '#adapters/dynamo/items/item';
import { LOCAL_USER_POOL_ID } from '#local/cognito-emulator';
import type { LocalRuntime } from '#local/runtime';
import { authenticatorApp, dashboardBrowser, signedUpOwnerWithTwoFactor, STRONG_PASSWORD } from '../support/dashboard.ts';
import { startTestApiWithClient, stopTestApi } from '../support/local-api.ts';
import { runOpsCommand, sesStandIn } from '../support/ops-commands.ts';
import { operator } from '../../ops/screening-target.ts';

/**
 * `npm run person:reset-two-factor` (ops/person-reset-two-factor.ts) against a deployed stage's
 * table and user pool, pointed at this run's DynamoDB Local and Cognito emulator as `--table` and
 * `--user-pool-id` are at a stage's: a person who lost their authenticator app could sign in
 * nowhere, and nobody in their companies could help.
 */
let runtime: LocalRuntime;
let db: DynamoDBDocumentClient;
beforeAll(async () => ({ runtime, db } = await startTestApiWithClient()));
afterAll(() => stopTestApi(runtime, db));

const REASON = 'ticket 4821, called back on the number on file';
const resetTwoFactor = (args: string[], env: Record<string, string> = {}) =>
  runOpsCommand('ops/person-reset-two-factor.ts', ['--stage', 'sandbox', '--table', runtime.tableName, '--user-pool-id', LOCAL_USER_POOL_ID, ...args], {
    DYNAMODB_ENDPOINT: runtime.dynamoEndpoint,
    COGNITO_ENDPOINT: runtime.cognitoEndpoint,
    ...env,
  });

async function auditEntries(companyId: string) {
  const page = await db.send(new QueryCommand({ TableName: runtime.tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': companyPartition(companyId) }, ConsistentRead: true }));
  return (page.Items ?? []).filter((item) => item.type === 'AuditEntry');
}

describe('npm run person:reset-two-factor', () => {
  it('lets a person who lost their app sign in on the password, ends their sessions, mails them and logs it in their company', async () => {
    const owner = await signedUpOwnerWithTwoFactor(runtime, 'Lost Phone Co');
    const ses = await sesStandIn('accept');
    let run;
    try {
      run = await resetTwoFactor(['--email', owner.email, '--reason', REASON, '--mail-from', 'no-reply@cambio.example', '--json'], ses.env);
    } finally {
      await ses.close();
    }

    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ email: owner.email, reset: true, companyIds: [owner.companyId], emailed: true });
    expect(ses.requests.map((request) => request.body.Destination.ToAddresses)).toEqual([[owner.email]]);
    expect(ses.requests[0]!.body.Content.Simple.Subject.Data).toBe('Two-factor sign-in was turned off on your Cambio account');
    expect(ses.requests[0]!.body.Content.Simple.Body.Text.Data).toContain('If you did not ask for this, someone else may know your password');

    // The session from before is over, wherever it is held.
    expect((await owner.browser.call('GET', '/me')).status).toBe(401);
    // The password alone signs in now, and the person can set up a new app without the old one's code.
    const again = dashboardBrowser(runtime);
    expect((await again.call('POST', '/session', { body: { email: owner.email, password: STRONG_PASSWORD } })).body.data).toEqual({ signedIn: true });
    const setup = await again.call('POST', '/me/two-factor/setup', { body: {} });
    expect(setup.status).toBe(200);
    const newApp = authenticatorApp((setup.body.data as { secret: string }).secret);
    expect((await again.call('POST', '/me/two-factor/confirm', { body: { code: await newApp() } })).status).toBe(200);

    const stored = (await auditEntries(owner.companyId)).filter((entry) => entry.action === 'two_factor.reset');
    expect(stored).toMatchObject([{ target: owner.email, details: { reason: REASON }, sourceIp: 'command line', userAgent: `person:reset-two-factor (${operator()})`, actor: { personId: null } }]);
    const seen = (await again.call('GET', `/companies/${owner.companyId}/audit-log`)).body.data as { action: string }[];
    expect(seen.map((entry) => entry.action)).toContain('two_factor.reset');
  });

  it('leaves someone without two-factor sign-in as they are: nothing written, nothing mailed', async () => {
    const owner = await signedUpOwnerWithTwoFactor(runtime, 'Already Off Co');
    expect((await resetTwoFactor(['--email', owner.email, '--reason', REASON])).status).toBe(0);
    const before = await auditEntries(owner.companyId);

    const run = await resetTwoFactor(['--email', owner.email, '--reason', REASON]);

    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${owner.email} has no two-factor sign-in on: nothing changed. They sign in with their password (Forgot your password? if they lost it).\n`);
    expect(await auditEntries(owner.companyId)).toEqual(before);
  });

  it.each([
    ['an address nobody signs in with', ['--email', 'nobody@example.com', '--reason', REASON], 1, 'No person signs in with nobody@example.com'],
    ['no reason: Owners read why', ['--email', 'x@example.com'], 2, '--reason is needed'],
    ['a reason that names no check', ['--email', 'x@example.com', '--reason', 'asked'], 2, '--reason is needed'],
    ['an address that is not one', ['--email', 'not-an-address', '--reason', REASON], 2, 'is not an email address'],
  ])('refuses %s', async (_case, args, status, message) => {
    const run = await resetTwoFactor(args);
    expect(run.status).toBe(status);
    expect(run.stderr).toContain(message);
  });

  it('needs the stage user pool on a deployed stage, and no pool locally', async () => {
    const withoutPool = await runOpsCommand('ops/person-reset-two-factor.ts', ['--stage', 'sandbox', '--table', runtime.tableName, '--email', 'x@example.com', '--reason', REASON]);
    expect(withoutPool.status).toBe(2);
    expect(withoutPool.stderr).toContain("--stage sandbox needs --user-pool-id <the stack's DashboardUserPoolId output");
    const localWithPool = await runOpsCommand('ops/person-reset-two-factor.ts', ['--user-pool-id', 'us-east-1_AbC123', '--email', 'x@example.com', '--reason', REASON]);
    expect(localWithPool.status).toBe(2);
    expect(localWithPool.stderr).toContain('--user-pool-id and --mail-from go with --stage');
  });
});
