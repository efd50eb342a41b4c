import { Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { SettingName } from '../functions/settings/schema.ts';
import type { RateLimitTier } from '../functions/api-keys/rate-limits.ts';
import type { Binder } from './api-function.ts';
import { StageMail } from './stage-mail.ts';
import { apiKeyItem } from '../functions/adapters/dynamo/items/company.ts';

/**
 * Binders (lib/api-function.ts): each passes a function the settings that name a resource and, in
 * the same step, grants it the least access it needs to that resource, so a reference never
 * arrives without its grant or a grant without its use.
 */

/**
 * Table actions the jobs need, each a subset of grantReadWriteData: no job scans (but the
 * reconcile job), deletes (but the deposit sweeper, its sweep records alone: deletesUnder) or
 * batch-writes (but the screening refresh, which puts the entries it lists for the first time 25 at
 * a time). Transactions are authorised per item, so PutItem, UpdateItem and ConditionCheckItem
 * cover them.
 */
export const TABLE_READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
export const TABLE_WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem'];

/**
 * Mailing from `from` through SES, naming the stage's configuration set (lib/stage-mail.ts):
 * ses:SendEmail on the address's identity and its domain's, since SES authorises a send against
 * whichever of the two is the verified identity, and on the configuration set, and on nothing else.
 */
export const mailSending = (from: string): Binder => (fn) => {
  const arn = (resource: string, resourceName: string) => Stack.of(fn).formatArn({ service: 'ses', resource, resourceName });
  const { configurationSetName } = StageMail.of(fn).configurationSet;
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['ses:SendEmail'],
      resources: [arn('identity', from), arn('identity', from.split('@')[1]!), arn('configuration-set', configurationSetName)],
    }),
  );
  return { MAIL_FROM: from, MAIL_CONFIGURATION_SET: configurationSetName };
};

/** The table, read only: GetItem, BatchGetItem, Query and ConditionCheckItem (TABLE_READ). */
export const tableRead = (table: ITable): Binder => (fn) => {
  // TABLE_READ rather than CDK's grantReadData, which adds Scan (and the stream's reads): no
  // request path scans the table.
  table.grant(fn, ...TABLE_READ);
  return { TABLE_NAME: table.tableName };
};

/**
 * The /v1 authorizer's one write: an API key's "last used" (recordKeyUse in
 * functions/adapters/dynamo/api-key-store.ts), an UpdateItem on API key items alone (their
 * partition key's prefix, from the one module that owns it). Beside tableRead, the authorizer's role
 * can change nothing else: not a balance, not another record.
 */
export const keyUseRecording = (table: ITable): Binder => (fn) => {
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['dynamodb:UpdateItem'],
      resources: [table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [apiKeyItem.key('*').PK] } },
    }),
  );
  return {};
};

/** `action` on the items of these partitions alone (IAM's `dynamodb:LeadingKeys`, `*` a wildcard). */
const onPartitionsAlone = (action: string) => (table: ITable, partitions: string[]): Binder => (fn) => {
  if (partitions.length === 0) return {};
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: [action],
      resources: [table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': partitions } },
    }),
  );
  return {};
};

/** DeleteItem on the items of these partitions alone: for a job that finishes records by deleting
 * them and deletes nothing else. DynamoDB authorises each part of a transaction by its own action,
 * a Delete part by DeleteItem. */
export const deletesUnder = onPartitionsAlone('dynamodb:DeleteItem');

/** PutItem on the items of these partitions alone: for a job that reads the table and keeps one
 * place of its own, such as reconcile's turn through every deposit address
 * (items/reconcile-address-turn.ts), and may change nothing else. */
export const putsUnder = onPartitionsAlone('dynamodb:PutItem');

/** The table, read and write (CDK's grantReadWriteData): the API routes that change state. */
export const tableReadWrite = (table: ITable): Binder => (fn) => {
  table.grantReadWriteData(fn);
  return { TABLE_NAME: table.tableName };
};

/** The table with exactly these actions (the jobs: TABLE_READ, TABLE_WRITE, a Scan, one update). */
export const tableActions = (table: ITable, ...actions: string[]): Binder => (fn) => {
  table.grant(fn, ...actions);
  return { TABLE_NAME: table.tableName };
};

/** A queue the function sends to, named by the setting that holds its URL. */
export const queueSend = (setting: 'WEBHOOK_QUEUE_URL' | 'WEBHOOK_DLQ_URL', queue: IQueue): Binder => (fn) => {
  queue.grantSendMessages(fn);
  return { [setting]: queue.queueUrl };
};

/**
 * A Secrets Manager secret the stage names (config/stages.ts), readable by this function; nothing
 * when the stage names none.
 */
export const secretRead = (setting: SettingName, secretName: string | undefined): Binder => (fn) => {
  if (secretName === undefined) return {};
  Secret.fromSecretNameV2(fn, `${setting}Secret`, secretName).grantRead(fn);
  return { [setting]: secretName };
};

/** Secrets that a JSON setting names (a network's node URL, its `rpcUrlSecret`): read access, no variable of their own. */
export const secretsNamedIn = (settingName: string, secretNames: readonly string[]): Binder => (fn) => {
  secretNames.forEach((secretName, i) => Secret.fromSecretNameV2(fn, `${settingName}Secret${i}`, secretName).grantRead(fn));
  return {};
};

/** The dashboard's user pool and its app client; `actions` for the functions that make users. */
export const userPool = (pool: IUserPool, client: IUserPoolClient, ...actions: string[]): Binder => (fn) => {
  if (actions.length > 0) pool.grant(fn, ...actions);
  return { COGNITO_USER_POOL_ID: pool.userPoolId, COGNITO_CLIENT_ID: client.userPoolClientId };
};

/** A value made elsewhere in the stack that carries no access (the dashboard's origin). */
export const value = (setting: SettingName, text: string): Binder => () => ({ [setting]: text });

/** The table's exports, listed and described (the finance export check); no data. */
export const tableExports = (table: ITable): Binder => (fn) => {
  fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:ListExports'], resources: ['*'] }));
  fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:DescribeExport'], resources: [`${table.tableArn}/export/*`] }));
  return { EXPORT_TABLE_ARN: table.tableArn };
};

/**
 * Keys made in the stage's usage plans, one per rate limit tier (lib/rate-limits.ts): create a key,
 * tag it, add it to a tier's plan or take it out of one, and nothing on any other plan.
 */
export const usagePlanKeys = (usagePlanIds: Readonly<Record<RateLimitTier, string>>): Binder => (fn) => {
  const stack = Stack.of(fn);
  const apiGateway = (path: string) => stack.formatArn({ service: 'apigateway', account: '', resource: path });
  const plans = Object.values(usagePlanIds);
  fn.addToRolePolicy(new PolicyStatement({ actions: ['apigateway:POST', 'apigateway:GET'], resources: [apiGateway('/apikeys')] }));
  fn.addToRolePolicy(new PolicyStatement({ actions: ['apigateway:POST'], resources: plans.map((plan) => apiGateway(`/usageplans/${plan}/keys`)) }));
  fn.addToRolePolicy(new PolicyStatement({ actions: ['apigateway:DELETE'], resources: plans.map((plan) => apiGateway(`/usageplans/${plan}/keys/*`)) }));
  // Tags the key on creation.
  fn.addToRolePolicy(new PolicyStatement({ actions: ['apigateway:PUT'], resources: [apiGateway('/tags/*')] }));
  return { USAGE_PLAN_IDS: stack.toJsonString(usagePlanIds) };
};
