import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DynamoApiKeyStore } from '#adapters/dynamo/api-key-store';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoConversionStore } from '#adapters/dynamo/conversion-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { DynamoWebhookRegistry } from '#adapters/dynamo/webhook-registry-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';

/**
 * An integrator GETs a record right after the POST that made it, and lists right after a create;
 * on DynamoDB an eventually consistent read may not see the write yet, and would answer 404 or
 * a list without it. DynamoDB Local is always consistent, so the integration tests cannot see the
 * difference: this checks what the stores ask DynamoDB for.
 */
const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }));
const dynamo = mockClient(db);
afterAll(() => dynamo.restore());
beforeEach(() => {
  dynamo.reset();
  dynamo.on(GetCommand).resolves({});
  dynamo.on(QueryCommand).resolves({ Items: [] });
});

const COMPANY = 'cmp_01JBZ6W1V7Q8R9S0T1U2V3W4X5';
const ID = '01JBZ6W1V7Q8R9S0T1U2V3W4X5';

describe('the reads behind /v1 and its authorizer are strongly consistent', () => {
  it.each([
    ['GET /v1/deposits/{id}', () => new DynamoDepositStore(db, 'table').getDeposit(COMPANY, `dep_${ID}`)],
    ['GET /v1/withdrawals/{id}', () => new DynamoWithdrawalStore(db, 'table').getWithdrawal(COMPANY, `wdr_${ID}`)],
    ['GET /v1/conversions/{id}', () => new DynamoConversionStore(db, 'table').getConversion(COMPANY, `cnv_${ID}`)],
    ['POST /v1/conversions (its quote)', () => new DynamoConversionStore(db, 'table').getQuote(COMPANY, `qte_${ID}`)],
    ['GET /v1/webhooks/{id}', () => new DynamoWebhookRegistry(db, 'table').getWebhook(COMPANY, `whk_${ID}`)],
    ['GET /v1/company', () => new DynamoCompanyStore(db, 'table').getCompany(COMPANY)],
    ['the authorizer, with a key issued or rolled a moment ago', () => new DynamoApiKeyStore(db, 'table').findApiKey('ck_test_01JBZ6W1V7Q8R9S0T1U2V3W4X5')],
  ])('%s: GetItem with ConsistentRead', async (_, read) => {
    await expect(read()).resolves.toBeNull();
    const calls = dynamo.commandCalls(GetCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toMatchObject({ TableName: 'table', ConsistentRead: true });
  });

  it.each([
    ['GET /v1/conversions', () => new DynamoConversionStore(db, 'table').listConversions(COMPANY, { limit: 20 })],
    ['GET /v1/webhooks', () => new DynamoWebhookRegistry(db, 'table').listWebhooks(COMPANY, { limit: 20 })],
    ['GET /v1/company/balance (the hold a withdrawal just made)', () => new DynamoCompanyStore(db, 'table').getBalances(COMPANY)],
  ])('%s: Query with ConsistentRead', async (_, list) => {
    await list();
    const calls = dynamo.commandCalls(QueryCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toMatchObject({ ConsistentRead: true });
  });
});
