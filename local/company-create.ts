process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createCompany } from '#domain/company';
import { ApiError } from '#domain/errors';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { ensureTable, startDynamoDbLocal, JavaMissingError, type DynamoDbLocal } from './dynamodb-local.ts';
import { LOCAL_TABLE_NAME } from './runtime.ts';

/**
 * `npm run company:create -- --name "Acme" [--json]`: a sandbox company and its key, in the local
 * runtime's data. Uses the running runtime's DynamoDB Local when `npm start` is up (two engines
 * must not share one data folder), else starts one on .data/ for the moment it needs.
 */
const DATA_DIR = '.data';
const { values } = parseArgs({ options: { name: { type: 'string' }, json: { type: 'boolean', default: false } } });

if (!values.name) {
  console.error('Usage: npm run company:create -- --name "Acme" [--json]');
  process.exit(2);
}

let started: DynamoDbLocal | undefined;
try {
  const running = runningRuntime();
  const endpoint = running?.dynamoEndpoint ?? (started = await startDynamoDbLocal({ dbPath: join(DATA_DIR, 'dynamodb') })).endpoint;
  const tableName = running?.tableName ?? LOCAL_TABLE_NAME;
  await ensureTable(endpoint, tableName);
  const db = createDocumentClient(endpoint);
  const { company, credentials } = await createCompany(new DynamoCompanyStore(db, tableName), {
    name: values.name,
    environment: 'sandbox',
  });
  db.destroy();
  const result = { companyId: company.id, apiKey: credentials.apiKey, apiSecret: credentials.apiSecret };
  if (values.json) {
    console.log(JSON.stringify(result));
  } else {
    console.log(`Created ${company.name} (${company.id})\n  X-Api-Key     ${result.apiKey}\n  X-Api-Secret  ${result.apiSecret}\nThe secret is shown only now.`);
  }
} catch (error) {
  if (error instanceof JavaMissingError) console.error(error.message);
  else if (error instanceof ApiError) console.error(`${error.message}: ${JSON.stringify(error.details)}`);
  else console.error('Could not create the company:', error);
  process.exitCode = 1;
} finally {
  await started?.stop();
}

function runningRuntime(): { dynamoEndpoint: string; tableName: string } | null {
  const file = join(DATA_DIR, 'runtime.json');
  if (!existsSync(file)) return null;
  const state = JSON.parse(readFileSync(file, 'utf8')) as { pid: number; dynamoEndpoint: string; tableName: string };
  try {
    process.kill(state.pid, 0);
    return state;
  } catch {
    return null;
  }
}
