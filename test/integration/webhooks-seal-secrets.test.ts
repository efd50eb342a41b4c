import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { webhookItem } from '#adapters/dynamo/items/webhook';
import { newId } from '#functions/shared/ids';
import { ensureTable } from '#local/dynamodb-local';
import { kmsStandIn, runOpsCommand } from '../support/ops-commands.ts';

/**
 * `npm run webhooks:seal-secrets` (ops/webhooks-seal-secrets.ts) as an operator runs it against a
 * deployed stage's table, pointed at this run's DynamoDB Local and a KMS stand-in: the secrets are
 * sealed under the stage's own key (the one its webhook sender opens with), never another stage's,
 * and usage that would seal under the wrong key, or the local data by mistake, is refused (exit 2,
 * nothing written).
 */
const endpoint = inject('dynamoEndpoint');
const db = createDocumentClient(endpoint);
const folder = mkdtempSync(join(tmpdir(), 'cambio-seal-'));
afterAll(() => {
  db.destroy();
  rmSync(folder, { recursive: true, force: true });
});

/** A table of its own (named as the stage's stack names it) with one webhook whose secret is in the clear. */
async function tableWithPlainSecret(stage: string) {
  const tableName = `Cambio-${stage}-test-${randomUUID()}`;
  await ensureTable(endpoint, tableName);
  const companyId = newId('company');
  const id = newId('webhook');
  const now = new Date().toISOString();
  const secret = `whsec_${randomUUID().replaceAll('-', '')}`;
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...webhookItem.key(companyId, id), type: webhookItem.type, id, companyId, url: 'https://example.com/hook', events: ['deposit.completed'], description: null, enabled: true, secret, createdAt: now, updatedAt: now },
    }),
  );
  const stored = async () => (await db.send(new GetCommand({ TableName: tableName, Key: webhookItem.key(companyId, id), ConsistentRead: true }))).Item!;
  return { tableName, id, secret, stored };
}

const seal = (args: string[], env: Record<string, string> = {}, cwd?: string) => runOpsCommand('ops/webhooks-seal-secrets.ts', args, { DYNAMODB_ENDPOINT: endpoint, ...env }, cwd);

describe('npm run webhooks:seal-secrets', () => {
  it("seals a deployed stage's secrets under that stage's own key, derived from --stage", async () => {
    const kms = await kmsStandIn();
    try {
      const webhook = await tableWithPlainSecret('production');
      const run = await seal(['--stage', 'production', '--table', webhook.tableName, '--json'], kms.env);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ sealed: [webhook.id], skipped: [] });
      expect(kms.requests.map((request) => [request.target, request.body.KeyId])).toEqual([['TrentService.Encrypt', 'alias/cambio-production-webhook-secrets']]);
      const item = await webhook.stored();
      expect(item.secret).toBeUndefined();
      expect(item.sealedSecret).toMatch(/^kms:/);
    } finally {
      await kms.close();
    }
  });

  it("refuses another stage's key or table, --kms-key without --table, and --table without --stage: exit 2, nothing sealed", async () => {
    const kms = await kmsStandIn();
    try {
      const webhook = await tableWithPlainSecret('production');
      const refusals: [string[], string][] = [
        [['--stage', 'production', '--table', webhook.tableName, '--kms-key', 'alias/cambio-sandbox-webhook-secrets'], "not the production stage's key"],
        [['--stage', 'production', '--table', webhook.tableName, '--kms-key', 'arn:aws:kms:us-east-1:123456789012:alias/cambio-sandbox-webhook-secrets'], "not the production stage's key"],
        [['--stage', 'production', '--table', webhook.tableName, '--kms-key', 'arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab'], "not the production stage's key"],
        [['--stage', 'sandbox', '--table', webhook.tableName], "is the production stage's table"],
        [['--table', webhook.tableName, '--kms-key', 'alias/cambio-production-webhook-secrets'], '--table goes with --stage'],
        [['--stage', 'production'], 'needs --table'],
        [['--kms-key', 'alias/cambio-production-webhook-secrets'], '--kms-key goes with --stage'],
      ];
      for (const [args, message] of refusals) {
        // From a folder of its own: a command that went on to the local data would leave .data/ there.
        const run = await seal(args, kms.env, folder);
        expect(run.status, args.join(' ')).toBe(2);
        expect(run.stderr).toContain(message);
        expect(run.stderr).toContain('Usage: npm run webhooks:seal-secrets');
      }
      expect(kms.requests).toEqual([]);
      expect(readdirSync(folder)).toEqual([]);
      expect((await webhook.stored()).secret).toBe(webhook.secret);

      const named = await seal(['--stage', 'production', '--table', webhook.tableName, '--kms-key', 'arn:aws:kms:us-east-1:123456789012:alias/cambio-production-webhook-secrets', '--json'], kms.env);
      expect(named.status).toBe(0);
      expect(kms.requests.map((request) => request.body.KeyId)).toEqual(['arn:aws:kms:us-east-1:123456789012:alias/cambio-production-webhook-secrets']);
    } finally {
      await kms.close();
    }
  });
});
