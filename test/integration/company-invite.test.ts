import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { companyPartition } from '#adapters/dynamo/items/item';
import type { LocalRuntime } from '#local/runtime';
import { dashboardBrowser, signedUpOwner, STRONG_PASSWORD, uniqueEmail } from '../support/dashboard.ts';
import { startTestApiWithClient, stopTestApi } from '../support/local-api.ts';
import { runOpsCommand, sesStandIn } from '../support/ops-commands.ts';
import { operator } from '../../ops/screening-target.ts';

/**
 * `npm run company:invite` (ops/company-invite.ts) against a deployed stage's table, pointed at this
 * run's DynamoDB Local as `--table` is at a stage's: devops bring a company a person nobody in its
 * dashboard can invite, such as a new Owner after every Owner has gone.
 */
let runtime: LocalRuntime;
let db: DynamoDBDocumentClient;
beforeAll(async () => ({ runtime, db } = await startTestApiWithClient()));
afterAll(() => stopTestApi(runtime, db));

const DASHBOARD_URL = 'https://dashboard.example.com/dashboard/';
const companyInvite = (args: string[], env: Record<string, string> = {}) =>
  runOpsCommand('ops/company-invite.ts', ['--stage', 'sandbox', '--table', runtime.tableName, '--dashboard-url', DASHBOARD_URL, ...args], { DYNAMODB_ENDPOINT: runtime.dynamoEndpoint, ...env });

async function partition(companyId: string) {
  const page = await db.send(new QueryCommand({ TableName: runtime.tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': companyPartition(companyId) }, ConsistentRead: true }));
  return page.Items ?? [];
}

describe('npm run company:invite', () => {
  it('brings a company a new Owner through a link mailed from --mail-from, audited as the command line', async () => {
    const company = await signedUpOwner(runtime, 'Orphaned Co');
    const email = uniqueEmail('new-owner');
    const ses = await sesStandIn('accept');
    let run;
    try {
      run = await companyInvite(['--company', company.companyId, '--email', email, '--role', 'Owner', '--mail-from', 'no-reply@cambio.example', '--json'], ses.env);
    } finally {
      await ses.close();
    }

    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const printed = JSON.parse(run.stdout);
    expect(printed).toEqual({ companyId: company.companyId, email, role: 'Owner', invitationLink: expect.stringMatching(/^https:\/\/dashboard\.example\.com\/dashboard\/accept-invitation\?token=[\w-]{43}$/), emailed: true });
    expect(ses.requests.map((request) => request.body.Destination.ToAddresses)).toEqual([[email]]);
    expect(ses.requests[0]!.body.Content.Simple.Body.Text.Data).toContain(`You are invited to join a company on Cambio as an Owner.\nThe company's name, as its people wrote it: "Orphaned Co".\n\nOpen this link to choose your password and join:\n${printed.invitationLink}\n`);
    expect(ses.requests[0]!.body.Content.Simple.Subject.Data).toBe('Your invitation to join a company on Cambio');

    const owner = dashboardBrowser(runtime);
    expect((await owner.call('POST', '/invitations/accept', { body: { token: new URL(printed.invitationLink).searchParams.get('token'), password: STRONG_PASSWORD } })).status).toBe(200);
    expect((await owner.call('GET', '/me')).body.data.companies).toEqual([{ id: company.companyId, name: 'Orphaned Co', environment: 'sandbox', role: 'Owner' }]);
    const audit = (await owner.call('GET', `/companies/${company.companyId}/audit-log`)).body.data as { action: string; actor: unknown; target: string; sourceIp: string; details: unknown }[];
    expect(audit.find((entry) => entry.action === 'invitation.created')).toMatchObject({ target: email, details: { role: 'Owner' }, sourceIp: 'command line' });
    // Who ran it, as company:limits records it: the stored entry names the operator.
    const stored = (await partition(company.companyId)).filter((item) => item.type === 'AuditEntry' && item.action === 'invitation.created');
    expect(stored).toMatchObject([{ target: email, sourceIp: 'command line', userAgent: `company:invite (${operator()})` }]);
  });

  it('prints the link to send when it does not mail, in words', async () => {
    const company = await signedUpOwner(runtime, 'Words Co');
    const email = uniqueEmail('viewer');

    const run = await companyInvite(['--company', company.companyId, '--email', email, '--role', 'Viewer']);

    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Invited ${email} to Words Co \\(${company.companyId}, sandbox\\) as Viewer, valid 7 days:\\n  https://dashboard\\.example\\.com/dashboard/accept-invitation\\?token=[\\w-]{43}\\nSend it to them yourself: it is not emailed\\.`));
  });

  it.each([
    ['a company that does not exist', ['--company', 'cmp_01JA0000000000000000000000', '--email', 'x@example.com', '--role', 'Owner'], 1, 'Company not found'],
    ['a person already a member', ['--email', 'OWNER', '--role', 'Admin'], 1, 'is already a member of this company'],
    ['an address that is not one', ['--email', 'not-an-address', '--role', 'Admin'], 1, 'must be an email address'],
    ['no role: it is never assumed', ['--email', 'x@example.com'], 2, '--role must be one of Owner, Admin, Developer, Viewer'],
    ['a role that does not exist', ['--email', 'x@example.com', '--role', 'Superuser'], 2, '--role must be one of'],
    ['no company', ['--company', 'acme', '--email', 'x@example.com', '--role', 'Owner'], 2, '--company must be a company id'],
  ])('refuses %s and writes nothing', async (_case, args, status, message) => {
    const company = await signedUpOwner(runtime, 'Refusing Co');
    const withCompany = args.includes('--company') ? args : ['--company', company.companyId, ...args];
    const named = withCompany[withCompany.indexOf('--company') + 1]!;
    const before = { named: await partition(named), company: await partition(company.companyId) };

    const run = await companyInvite(withCompany.map((arg) => (arg === 'OWNER' ? company.email : arg)));

    expect(run.status).toBe(status);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
    expect({ named: await partition(named), company: await partition(company.companyId) }).toEqual(before);
  });
});
