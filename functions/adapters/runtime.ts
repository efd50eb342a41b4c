import { createDocumentClient } from './dynamo/client.ts';
import { DynamoCompanyStore } from './dynamo/company-store.ts';
import { DynamoDashboardStore } from './dynamo/dashboard-store.ts';
import { DynamoConversionStore } from './dynamo/conversion-store.ts';
import { DynamoTeamStore } from './dynamo/team-store.ts';
import { DynamoDepositStore } from './dynamo/deposit-store.ts';
import { DynamoIdempotencyStore } from './dynamo/idempotency-store.ts';
import { DynamoSignOuts } from './dynamo/sign-out-store.ts';
import { DynamoWithdrawalStore } from './dynamo/withdrawal-store.ts';
import { optionalEnv, requireEnv } from './env.ts';

/**
 * The adapters a Lambda uses, built once per cold start from its environment. `DYNAMODB_ENDPOINT`
 * is set only by the local runtime and tests (DynamoDB Local).
 */
export function dynamoFromEnv() {
  const tableName = requireEnv('TABLE_NAME');
  const db = createDocumentClient(optionalEnv('DYNAMODB_ENDPOINT'));
  return {
    db,
    tableName,
    companies: new DynamoCompanyStore(db, tableName),
    withdrawals: new DynamoWithdrawalStore(db, tableName),
    conversions: new DynamoConversionStore(db, tableName),
    deposits: new DynamoDepositStore(db, tableName),
    idempotency: new DynamoIdempotencyStore(db, tableName),
    dashboard: new DynamoDashboardStore(db, tableName),
    team: new DynamoTeamStore(db, tableName),
  };
}

/** The sign-out records alone, for the session authorizer, which needs nothing else of the table. */
export function signOutsFromEnv(): DynamoSignOuts {
  return new DynamoSignOuts(createDocumentClient(optionalEnv('DYNAMODB_ENDPOINT')), requireEnv('TABLE_NAME'));
}
