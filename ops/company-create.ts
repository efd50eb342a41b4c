process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { createCompany } from '#domain/company';
import { createCompanyInvitingOwner } from '#domain/dashboard';
import { ApiError } from '#domain/errors';
import { invitationMail, type Mailer } from '#domain/invitation-mail';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDashboardStore } from '#adapters/dynamo/dashboard-store';
import { OutboxMailer } from '#adapters/mail/outbox-mailer';
import { SesMailer } from '#adapters/mail/ses-mailer';
import { parseSettings, SETTINGS } from '#functions/settings/schema';
import { STAGES, type StageName } from '../lib/stages.ts';
import { JavaMissingError } from '#local/dynamodb-local';
import { DATA_DIR, runningRuntime, withLocalData } from '#local/local-data';

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
  '       npm run company:create -- --stage sandbox|production --table <TableName output> --dashboard-url <DashboardUrl output> --name "Acme" --owner-email owner@acme.example [--mail-from no-reply@example.com] [--json]';
const { values } = parseArgs({
  options: {
    name: { type: 'string' },
    'owner-email': { type: 'string' },
    stage: { type: 'string', default: 'local' },
    table: { type: 'string' },
    'dashboard-url': { type: 'string' },
    'mail-from': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

function refuse(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

const stageName = values.stage as StageName;
if (!Object.hasOwn(STAGES, stageName)) refuse(`Unknown stage "${values.stage}" (local, sandbox or production).`);
const deployed = stageName !== 'local';
if (!values.name) refuse('--name is needed.');
if (deployed) {
  if (!values.table) refuse(`--stage ${stageName} needs --table <the stack's TableName output>.`);
  if (!values['owner-email']) {
    refuse(`--stage ${stageName} needs --owner-email: a deployed company's keys are made by its own people in the dashboard (Integrations → API keys), never printed here.`);
  }
  // The stack names its table after itself (Cambio-<stage>-…): a company of one stage's environment
  // must not land in another stage's table, where it would read the wrong chain.
  const otherStage = Object.keys(STAGES).find((name) => name !== stageName && values.table!.startsWith(`Cambio-${name}-`));
  if (otherStage) refuse(`--table ${values.table} is the ${otherStage} stage's table, not ${stageName}'s.`);
} else if (values.table || values['dashboard-url'] || values['mail-from']) {
  refuse('--table, --dashboard-url and --mail-from go with --stage sandbox|production; without --stage the company is made in the local runtime.');
}
const mailFrom = values['mail-from'];
if (mailFrom !== undefined) {
  if (!values['owner-email']) refuse('--mail-from goes with --owner-email: it mails the invitation.');
  if (!v.is(SETTINGS.MAIL_FROM, mailFrom)) refuse(`--mail-from ${JSON.stringify(mailFrom)} is not an email address (a bare one, verified in SES).`);
}
/** Where the first Owner's invitation is mailed: the local outbox, as `npm start`'s; SES from --mail-from on a stage; else nowhere. */
const mailer: Mailer | null = deployed ? (mailFrom ? new SesMailer(mailFrom) : null) : new OutboxMailer(join(DATA_DIR, 'outbox'));
const invitationPage = deployed ? acceptInvitationUrl(values['dashboard-url']) : localAcceptInvitationUrl();
const environment = STAGES[stageName].environment;

/** The accept-invitation page under the stack's DashboardUrl output (`https://…/dashboard/`). */
function acceptInvitationUrl(dashboardUrl: string | undefined): string {
  const needs = `--stage ${stageName} needs --dashboard-url <the stack's DashboardUrl output, https://…/dashboard/>`;
  let url: URL;
  try {
    url = new URL(dashboardUrl ?? '');
  } catch {
    refuse(`${needs}.`);
  }
  if (url.protocol !== 'https:' || url.search || url.hash || !/^\/dashboard\/?$/.test(url.pathname)) {
    refuse(`${needs}; "${dashboardUrl}" is not.`);
  }
  return `${url.origin}/dashboard/accept-invitation`;
}

function localAcceptInvitationUrl(): string {
  const origin = runningRuntime()?.apiUrl.replace(/\/v1$/, '') ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
  return `${origin}/dashboard/accept-invitation`;
}

/** Runs `work` on the stage's table: the deployed one named, or the local runtime's data. */
async function onTable<T>(work: (db: ReturnType<typeof createDocumentClient>, tableName: string) => Promise<T>): Promise<T> {
  const run = async (endpoint: string | undefined, tableName: string) => {
    const db = createDocumentClient(endpoint);
    try {
      return await work(db, tableName);
    } finally {
      db.destroy();
    }
  };
  return deployed ? run(parseSettings(['DYNAMODB_ENDPOINT'], process.env).DYNAMODB_ENDPOINT, values.table!) : withLocalData(run);
}

try {
  const ownerEmail = values['owner-email'];
  if (ownerEmail) {
    const { company, token, invitation } = await onTable((db, tableName) =>
      createCompanyInvitingOwner(new DynamoDashboardStore(db, tableName), { name: values.name!, environment, ownerEmail }),
    );
    const link = `${invitationPage}?token=${token}`;
    // The company stands whatever the mail does: a mail that does not go leaves the link to send by hand.
    let mailed: { emailed: boolean; note: string } = { emailed: false, note: 'Send it to them yourself: it is not emailed.' };
    if (mailer) {
      try {
        await mailer.send(invitationMail({ to: invitation.email, companyName: company.name, role: 'Owner', invitedBy: null, link, expiresAt: invitation.expiresAt }));
        mailed = { emailed: true, note: deployed ? `Mailed to ${invitation.email} from ${mailFrom}.` : `Mailed to ${invitation.email}: see ${join(DATA_DIR, 'outbox')}/.` };
      } catch (error) {
        mailed.note = `Could not mail it (${(error as Error).name}: ${(error as Error).message}): send it to them yourself.`;
      }
    }
    if (values.json) {
      console.log(JSON.stringify({ companyId: company.id, environment: company.environment, invitationLink: link, emailed: mailed.emailed }));
      if (mailer && !mailed.emailed) console.error(mailed.note);
    } else {
      console.log(
        `Created ${company.name} (${company.id}, ${company.environment})\n  Invitation for ${ownerEmail} (Owner), valid 7 days:\n  ${link}\n` +
          `${mailed.note} Opening it asks for a password; the link works once.`,
      );
    }
  } else {
    const { company, credentials } = await onTable((db, tableName) => createCompany(new DynamoCompanyStore(db, tableName), { name: values.name!, environment }));
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
