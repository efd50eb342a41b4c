process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { createCompany } from '#functions/companies/company';
import { createCompanyInvitingOwner } from '#functions/people/invitations';
import { ApiError } from '#functions/shared/errors';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoInvitationStore } from '#adapters/dynamo/invitation-store';
import { JavaMissingError } from '#local/dynamodb-local';
import { invitationTarget, TARGET_OPTIONS, TARGET_USAGE } from './invitation-target.ts';
import { argumentsOf, operator, refuser } from './screening-target.ts';

/**
 * `npm run company:create`: a new company.
 * - Locally (the default): `--name "Acme" [--json]` makes a sandbox company and its key in the local
 *   runtime's data; with `--owner-email a@b`, an invitation for its first Owner instead, whose
 *   link is printed and mailed to the local outbox (.data/outbox/), as the runtime mails.
 * - On a deployed stage: `--stage sandbox|production --table <TableName> --dashboard-url
 *   <DashboardUrl> --name "Acme" --owner-email a@b [--mail-from no-reply@…]`, with your AWS
 *   credentials. This is how a production company comes to exist: production has no self
 *   sign-up. The company is of the stage's environment, and always made by invitation: its people
 *   make its keys in the dashboard (Integrations → API keys), so no secret of a deployed company
 *   ever passes through the operator's terminal. With `--mail-from` the invitation is also mailed
 *   through SES, as the dashboard's are.
 */
const USAGE =
  'Usage: npm run company:create -- --name "Acme" [--owner-email owner@acme.example] [--json]\n' +
  `       npm run company:create -- ${TARGET_USAGE} --name "Acme" --owner-email owner@acme.example [--json]`;
const refuse: (message: string) => never = refuser(USAGE);
const { values } = argumentsOf({ name: { type: 'string' }, 'owner-email': { type: 'string' }, json: { type: 'boolean', default: false }, ...TARGET_OPTIONS }, refuse);

if (!values.name) refuse('--name is needed.');
const target = invitationTarget(values, refuse);
if (target.deployed && !values['owner-email']) {
  refuse(`--stage ${target.stageName} needs --owner-email: a deployed company's keys are made by its own people in the dashboard (Integrations → API keys), never printed here.`);
}
if (values['mail-from'] !== undefined && !values['owner-email']) refuse('--mail-from goes with --owner-email: it mails the invitation.');

// The Owner's invitation is audited with who made it (the company's audit log, as company:limits is).
const operatorName = `company:create (${operator()})`;

try {
  const ownerEmail = values['owner-email'];
  if (ownerEmail) {
    const { company, token, invitation } = await target.onTable((db, tableName) =>
      createCompanyInvitingOwner(new DynamoInvitationStore(db, tableName), { name: values.name!, environment: target.environment, ownerEmail }, new Date(), operatorName),
    );
    const { link, ...mailed } = await target.deliver(invitation, token, company.name);
    if (values.json) {
      console.log(JSON.stringify({ companyId: company.id, environment: company.environment, invitationLink: link, emailed: mailed.emailed }));
      if (mailed.mailError) console.error(mailed.note);
    } else {
      console.log(
        `Created ${company.name} (${company.id}, ${company.environment})\n  Invitation for ${ownerEmail} (Owner), valid 7 days:\n  ${link}\n` +
          `${mailed.note} Opening it asks for a password; the link works once.`,
      );
    }
  } else {
    const { company, credentials } = await target.onTable((db, tableName) => createCompany(new DynamoCompanyStore(db, tableName), { name: values.name!, environment: target.environment }));
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
