process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { parseArgs } from 'node:util';
import { createCompany } from '#domain/company';
import { createCompanyInvitingOwner } from '#domain/dashboard';
import { ApiError } from '#domain/errors';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { JavaMissingError } from './dynamodb-local.ts';
import { runningRuntime, withLocalData } from './local-data.ts';

/**
 * `npm run company:create -- --name "Acme" [--json]`: a sandbox company and its key, in the local
 * runtime's data. With `--owner-email a@b`: the company and an invitation for its first Owner
 * (where there is no self sign-up), whose link is printed; the Owner makes keys in the dashboard.
 */
const { values } = parseArgs({ options: { name: { type: 'string' }, 'owner-email': { type: 'string' }, json: { type: 'boolean', default: false } } });

if (!values.name) {
  console.error('Usage: npm run company:create -- --name "Acme" [--owner-email owner@acme.example] [--json]');
  process.exit(2);
}

try {
  const ownerEmail = values['owner-email'];
  if (ownerEmail) {
    const { company, token } = await withLocalData(async (endpoint, tableName) => {
      const db = createDocumentClient(endpoint);
      try {
        return await createCompanyInvitingOwner(new DynamoDashboardStore(db, tableName), { name: values.name!, environment: 'sandbox', ownerEmail });
      } finally {
        db.destroy();
      }
    });
    const origin = runningRuntime()?.apiUrl.replace(/\/v1$/, '') ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
    const link = `${origin}/dashboard/accept-invitation?token=${token}`;
    if (values.json) console.log(JSON.stringify({ companyId: company.id, invitationLink: link }));
    else console.log(`Created ${company.name} (${company.id})\n  Invitation for ${ownerEmail} (Owner), valid 7 days:\n  ${link}\nOpen it to choose a password; the link works once.`);
  } else {
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
  }
} catch (error) {
  if (error instanceof JavaMissingError) console.error(error.message);
  else if (error instanceof ApiError) console.error(`${error.message}: ${JSON.stringify(error.details)}`);
  else console.error('Could not create the company:', error);
  process.exitCode = 1;
}
