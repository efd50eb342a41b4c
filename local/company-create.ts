process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { parseArgs } from 'node:util';
import { createCompany } from '#domain/company';
import { ApiError } from '#domain/errors';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { JavaMissingError } from './dynamodb-local.ts';
import { withLocalData } from './local-data.ts';

/** `npm run company:create -- --name "Acme" [--json]`: a sandbox company and its key, in the local runtime's data. */
const { values } = parseArgs({ options: { name: { type: 'string' }, json: { type: 'boolean', default: false } } });

if (!values.name) {
  console.error('Usage: npm run company:create -- --name "Acme" [--json]');
  process.exit(2);
}

try {
  const { company, credentials } = await withLocalData(async (endpoint, tableName) => {
    const db = createDocumentClient(endpoint);
    try {
      return await createCompany(new DynamoCompanyStore(db, tableName), { name: values.name!, environment: 'sandbox' });
    } finally {
      db.destroy();
    }
  });
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
}
