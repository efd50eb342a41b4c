import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LocalRuntime } from '#local/runtime';
import { STRONG_PASSWORD, dashboardBrowser, uniqueEmail } from '../support/dashboard.ts';
import { apiClient, startTestApiWithClient, stopTestApi } from '../support/local-api.ts';
import { runOpsCommand, sesStandIn } from '../support/ops-commands.ts';
import { companyPartition } from '#adapters/dynamo/items/item';
import { operator } from '../../ops/screening-target.ts';
import { linkIn, mailsTo } from '../support/outbox.ts';

/**
 * `npm run company:create` against a deployed stage's table (ops/company-create.ts), pointed at
 * this run's DynamoDB Local as `--table` is at a stage's: how a production company and its first
 * Owner come to exist, since production has no self sign-up.
 */
let runtime: LocalRuntime;
let db: DynamoDBDocumentClient;
beforeAll(async () => ({ runtime, db } = await startTestApiWithClient()));
afterAll(() => stopTestApi(runtime, db));

const DASHBOARD_URL = 'https://dashboard.example.com/dashboard/';

/** The command against this run's DynamoDB Local, with `env` on top (the SES stand-in's endpoint). */
const companyCreate = (args: string[], env: Record<string, string> = {}) => runOpsCommand('ops/company-create.ts', args, { DYNAMODB_ENDPOINT: runtime.dynamoEndpoint, ...env });

/** The companies of that name in the table. */
async function companiesNamed(name: string) {
  const page = await db.send(
    new ScanCommand({ TableName: runtime.tableName, FilterExpression: '#type = :company AND #name = :name', ExpressionAttributeNames: { '#type': 'type', '#name': 'name' }, ExpressionAttributeValues: { ':company': 'Company', ':name': name }, ConsistentRead: true }),
  );
  return page.Items ?? [];
}

describe('npm run company:create on a deployed stage', () => {
  it('makes a production company whose invited Owner signs in, makes a key, and the API answers it as production', async () => {
    const email = uniqueEmail('first-owner');
    const run = await companyCreate(['--stage', 'production', '--table', runtime.tableName, '--dashboard-url', DASHBOARD_URL, '--name', 'Live Co', '--owner-email', email, '--json']);

    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const printed = JSON.parse(run.stdout) as { companyId: string; environment: string; invitationLink: string };
    expect(printed).toEqual({ companyId: expect.stringMatching(/^cmp_/), environment: 'production', invitationLink: expect.stringMatching(/^https:\/\/dashboard\.example\.com\/dashboard\/accept-invitation\?token=[\w-]{43}$/), emailed: false });

    const owner = dashboardBrowser(runtime);
    const token = new URL(printed.invitationLink).searchParams.get('token');
    expect((await owner.call('POST', '/invitations/accept', { body: { token, password: STRONG_PASSWORD } })).status).toBe(200);
    expect((await owner.call('GET', '/me')).body.data.companies).toEqual([{ id: printed.companyId, name: 'Live Co', environment: 'production', role: 'Owner' }]);
    const created = await owner.call('POST', `/companies/${printed.companyId}/api-keys`, { body: { name: 'Live', password: STRONG_PASSWORD } });
    expect(created.status).toBe(201);

    const company = await apiClient(runtime, created.body.data)('GET', '/company');
    expect(company.status).toBe(200);
    expect(company.body.data).toMatchObject({ id: printed.companyId, name: 'Live Co', environment: 'production' });

    // The Owner's invitation is audited with who ran the command, as company:limits records it.
    const partition = await db.send(
      new QueryCommand({ TableName: runtime.tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': companyPartition(printed.companyId) }, ConsistentRead: true }),
    );
    const audited = (partition.Items ?? []).filter((item) => item.type === 'AuditEntry' && item.action === 'invitation.created');
    expect(audited).toMatchObject([{ target: email, sourceIp: 'command line', userAgent: `company:create (${operator()})` }]);
  });

  it('prints the link to send, the company and its environment, and says nothing is emailed', async () => {
    const email = uniqueEmail('sandbox-owner');
    const run = await companyCreate(['--stage', 'sandbox', '--table', runtime.tableName, '--dashboard-url', 'https://d1234.cloudfront.net/dashboard', '--name', 'Trial Co', '--owner-email', email]);

    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Created Trial Co \(cmp_\w+, sandbox\)\n/);
    expect(run.stdout).toContain(`Invitation for ${email} (Owner), valid 7 days:\n  https://d1234.cloudfront.net/dashboard/accept-invitation?token=`);
    expect(run.stdout).toContain('it is not emailed');
  });

  it('with --mail-from mails the first Owner through SES the link it prints, from that address', async () => {
    const ses = await sesStandIn('accept');
    const email = uniqueEmail('mailed-owner');
    try {
      const run = await companyCreate(['--stage', 'production', '--table', runtime.tableName, '--dashboard-url', DASHBOARD_URL, '--name', 'Mailed Live Co', '--owner-email', email, '--mail-from', 'no-reply@cambio.example', '--json'], ses.env);

      expect(run.stderr).toBe('');
      const printed = JSON.parse(run.stdout);
      expect(printed).toMatchObject({ environment: 'production', emailed: true });
      expect(ses.requests).toHaveLength(1);
      const { path, body } = ses.requests[0]!;
      expect(path).toBe('/v2/email/outbound-emails');
      expect(body).toMatchObject({ FromEmailAddress: 'no-reply@cambio.example', Destination: { ToAddresses: [email] }, Content: { Simple: { Subject: { Data: 'Your invitation to join a company on Cambio' } } } });
      expect(body.Content.Simple.Body.Text.Data).toContain(`You are invited to join a company on Cambio as an Owner.\nThe company's name, as its people wrote it: "Mailed Live Co".\n\nOpen this link to choose your password and join:\n${printed.invitationLink}\n`);
    } finally {
      await ses.close();
    }
  });

  it('keeps the company and prints the link to send by hand when SES refuses the mail', async () => {
    const ses = await sesStandIn('refuse');
    const email = uniqueEmail('unverified-owner');
    try {
      const run = await companyCreate(['--stage', 'production', '--table', runtime.tableName, '--dashboard-url', DASHBOARD_URL, '--name', 'Refused Mail Co', '--owner-email', email, '--mail-from', 'no-reply@cambio.example'], ses.env);

      expect(run.status).toBe(0);
      expect(run.stdout).toContain('https://dashboard.example.com/dashboard/accept-invitation?token=');
      expect(run.stdout).toContain('Could not mail it (MessageRejected: Email address is not verified.): send it to them yourself.');
      expect(await companiesNamed('Refused Mail Co')).toHaveLength(1);
    } finally {
      await ses.close();
    }
  });

  it('locally, mails the first Owner to the local outbox, as the runtime mails invitations', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cambio-company-create-'));
    const email = uniqueEmail('local-owner');
    try {
      // A folder of its own: no npm start runs there, so the command starts DynamoDB Local on its .data/.
      const run = await runOpsCommand('ops/company-create.ts', ['--name', 'Local Invite Co', '--owner-email', email, '--json'], {}, folder);

      expect(run.stderr).toBe('');
      const printed = JSON.parse(run.stdout);
      expect(printed).toMatchObject({ environment: 'sandbox', emailed: true });
      expect(mailsTo(join(folder, '.data', 'outbox'), email).map(linkIn)).toEqual([printed.invitationLink]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it.each([
    ['no --owner-email: a deployed company gets no key here', ['--stage', 'production', '--table', 'T', '--dashboard-url', DASHBOARD_URL], '--stage production needs --owner-email'],
    ['no --table', ['--stage', 'production', '--dashboard-url', DASHBOARD_URL, '--owner-email', 'o@example.com'], "--stage production needs --table <the stack's TableName output>"],
    ['no --dashboard-url', ['--stage', 'production', '--table', 'T', '--owner-email', 'o@example.com'], "--stage production needs --dashboard-url <the stack's DashboardUrl output"],
    ['a dashboard URL over plain http', ['--stage', 'production', '--table', 'T', '--owner-email', 'o@example.com', '--dashboard-url', 'http://dashboard.example.com/dashboard/'], 'is not'],
    ['the dashboard origin without its path', ['--stage', 'production', '--table', 'T', '--owner-email', 'o@example.com', '--dashboard-url', 'https://dashboard.example.com'], 'is not'],
    ['another stage’s table', ['--stage', 'production', '--table', 'Cambio-sandbox-TableCD117FA1-1X2Y3Z', '--owner-email', 'o@example.com', '--dashboard-url', DASHBOARD_URL], "is the sandbox stage's table, not production's"],
    ['an unknown stage', ['--stage', 'staging', '--table', 'T', '--owner-email', 'o@example.com', '--dashboard-url', DASHBOARD_URL], 'Unknown stage "staging"'],
    ['--table without --stage', ['--table', 'T', '--owner-email', 'o@example.com'], '--table, --dashboard-url and --mail-from go with --stage'],
    ['--mail-from with a display name', ['--stage', 'production', '--table', 'T', '--owner-email', 'o@example.com', '--dashboard-url', DASHBOARD_URL, '--mail-from', 'Cambio <no-reply@cambio.example>'], 'is not an email address'],
  ])('refuses %s with exit 2, and writes nothing', async (_case, args, message) => {
    const name = `Refused ${randomUUID()}`;
    const run = await companyCreate(['--name', name, ...args.map((arg) => (arg === 'T' ? runtime.tableName : arg))]);

    expect(run.status).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
    expect(await companiesNamed(name)).toEqual([]);
  });
});
