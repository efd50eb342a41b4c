process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { ApiError } from '#functions/shared/errors';
import { checkEmail } from '#functions/people/team';
import { resetTwoFactorByOperator, RESET_REASON_LENGTH, type TwoFactorReset } from '#functions/people/two-factor-reset';
import { parseSettings } from '#functions/settings/schema';
import { CognitoAccountAdministration } from '#adapters/cognito/account-administration';
import { DynamoMembershipStore } from '#adapters/dynamo/membership-store';
import { DynamoSignOuts } from '#adapters/dynamo/sign-out-store';
import { DynamoTwoFactorStore } from '#adapters/dynamo/two-factor-store';
import { LOCAL_USER_POOL_ID, startCognitoEmulator } from '#local/cognito-emulator';
import { JavaMissingError } from '#local/dynamodb-local';
import { DATA_DIR, runningRuntime } from '#local/local-data';
import { operatorMailer } from './invitation-target.ts';
import { argumentsOf, operator, refuser } from './screening-target.ts';
import { onStageTable, stageTableOf } from './stage-table.ts';

/**
 * `npm run person:reset-two-factor -- --email a@b --reason "…"`: for Cambio's support, a person who
 * lost their authenticator app signs in again (functions/people/two-factor-reset.ts). Check who asks
 * out of band first: the command cannot tell the person from someone who knows their password.
 * Every session of theirs ends, they are mailed, and each of their companies' Audit log shows the
 * reset with the operator and the reason. Someone without two-factor sign-in on is left as they are.
 *
 * Locally by default (the running `npm start`'s user pool, or .data/'s); on a deployed stage with
 * `--stage … --table … --user-pool-id <DashboardUserPoolId output>`, with the operator's AWS
 * credentials (cognito-idp:AdminGetUser, AdminSetUserMFAPreference, AdminUserGlobalSignOut), mailed
 * through SES only with `--mail-from`. Exits 2 on bad usage (nothing done), 1 on a failure or an
 * unknown address.
 */
const USAGE =
  'Usage: npm run person:reset-two-factor -- --email person@example.com --reason "<how you checked it is them>" ' +
  '[--stage sandbox|production --table <TableName output> --user-pool-id <DashboardUserPoolId output> [--mail-from no-reply@example.com]] [--json]';
const refuse: (message: string) => never = refuser(USAGE);
const { values } = argumentsOf(
  {
    email: { type: 'string' },
    reason: { type: 'string' },
    stage: { type: 'string', default: 'local' },
    table: { type: 'string' },
    'user-pool-id': { type: 'string' },
    'mail-from': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
  refuse,
);

if (!values.email) refuse('--email is needed: the address the person signs in with.');
let email: string;
try {
  email = checkEmail(values.email);
} catch {
  refuse(`--email ${JSON.stringify(values.email)} is not an email address.`);
}
const reason = (values.reason ?? '').trim();
// Each company's Owners read it in their Audit log: it says why a sign-in lost its second factor.
if (reason.length < RESET_REASON_LENGTH.min || reason.length > RESET_REASON_LENGTH.max) {
  refuse(`--reason is needed, ${RESET_REASON_LENGTH.min} to ${RESET_REASON_LENGTH.max} characters: how you checked that the person asking is the account's (a ticket, a call back).`);
}
if (values.stage === 'local' && (values['user-pool-id'] || values['mail-from'])) {
  refuse('--user-pool-id and --mail-from go with --stage sandbox|production; without --stage the command works on the local runtime.');
}
const { stage, table } = stageTableOf(values, refuse);
const deployed = stage !== 'local';
const userPoolId = values['user-pool-id'] ?? '';
if (deployed && !/^[a-z0-9-]+_[0-9A-Za-z]+$/.test(userPoolId)) {
  refuse(`--stage ${stage} needs --user-pool-id <the stack's DashboardUserPoolId output, such as us-east-1_AbC123>${userPoolId ? `; "${userPoolId}" is not one` : ''}.`);
}
const mailer = operatorMailer(deployed, values['mail-from'], refuse);

/** The stage's user pool: a deployed one by id (tests point COGNITO_ENDPOINT at the emulator); locally
 * the running runtime's emulator, or one on .data/ for the moment it takes. */
async function withUserPool<T>(work: (pool: CognitoAccountAdministration) => Promise<T>): Promise<T> {
  if (deployed) return work(new CognitoAccountAdministration({ userPoolId, endpoint: parseSettings(['COGNITO_ENDPOINT'], process.env).COGNITO_ENDPOINT }));
  const runningEndpoint = runningRuntime()?.cognitoEndpoint;
  const started = runningEndpoint ? null : await startCognitoEmulator({ dataDir: DATA_DIR });
  try {
    return await work(new CognitoAccountAdministration({ userPoolId: LOCAL_USER_POOL_ID, endpoint: runningEndpoint ?? started!.endpoint }));
  } finally {
    await started?.stop();
  }
}

function report(reset: TwoFactorReset): void {
  if (values.json) {
    console.log(JSON.stringify({ email, personId: reset.personId, reset: reset.wasOn, companyIds: reset.companyIds, emailed: reset.mailed }));
    if (reset.mailError) console.error(`Could not mail ${email} (${reset.mailError}): tell them yourself.`);
    return;
  }
  if (!reset.wasOn) {
    console.log(`${email} has no two-factor sign-in on: nothing changed. They sign in with their password (Forgot your password? if they lost it).`);
    return;
  }
  const mailNote = reset.mailed ? `Mailed ${email}.` : reset.mailError ? `Could not mail them (${reset.mailError}): tell them yourself.` : 'Not mailed (no --mail-from): tell them yourself.';
  console.log(
    `Two-factor sign-in is off for ${email}, every session of theirs ended, and the reset is in the Audit log of ${reset.companyIds.length} ` +
      `compan${reset.companyIds.length === 1 ? 'y' : 'ies'}. ${mailNote} They sign in with their password and set up an authenticator app again under Account.`,
  );
}

try {
  const reset = await withUserPool((accounts) =>
    onStageTable(stage, table)((db, tableName) =>
      resetTwoFactorByOperator(
        { accounts, marks: new DynamoTwoFactorStore(db, tableName), memberships: new DynamoMembershipStore(db, tableName), signOuts: new DynamoSignOuts(db, tableName), mailer },
        { email, reason },
        `person:reset-two-factor (${operator()})`,
      ),
    ),
  );
  report(reset);
} catch (error) {
  if (error instanceof JavaMissingError) console.error(error.message);
  else if (error instanceof ApiError) console.error(error.message);
  else console.error('Could not reset two-factor sign-in:', error);
  process.exitCode = 1;
}
