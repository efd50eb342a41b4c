process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { ApiError } from '#functions/shared/errors';
import { isId } from '#functions/shared/ids';
import { ROLES, type Role } from '#functions/people/team';
import { inviteByOperator } from '#functions/people/team-members';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoTeamStore } from '#adapters/dynamo/team-store';
import { JavaMissingError } from '#local/dynamodb-local';
import { invitationTarget, TARGET_OPTIONS, TARGET_USAGE } from './invitation-target.ts';
import { argumentsOf, operator, refuser } from './screening-target.ts';

/**
 * `npm run company:invite -- --company cmp_… --email a@b --role Owner`: for devops, an invitation to
 * an existing company that nobody in its dashboard can make, such as a new Owner when every Owner
 * has left or lost their sign-in. The person joins through the link as any invited person does; the
 * company's audit log shows the invitation as made from the command line. Locally by default; on a
 * deployed stage with the same options as `company:create` (README, Deploying).
 */
const USAGE = `Usage: npm run company:invite -- --company cmp_... --email person@example.com --role ${ROLES.join('|')} [${TARGET_USAGE}] [--json]`;
const refuse: (message: string) => never = refuser(USAGE);
const { values } = argumentsOf(
  { company: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' }, json: { type: 'boolean', default: false }, ...TARGET_OPTIONS },
  refuse,
);

if (!isId('company', values.company)) refuse('--company must be a company id (cmp_...).');
if (!values.email) refuse('--email is needed: the person to invite.');
// No default: the role is what the person may do with the company's money and keys.
if (!(ROLES as readonly string[]).includes(values.role ?? '')) refuse(`--role must be one of ${ROLES.join(', ')}.`);
const role = values.role as Role;
const target = invitationTarget(values, refuse);
// The invitation is audited with who made it (the company's audit log, as company:limits is).
const operatorName = `company:invite (${operator()})`;

try {
  const { company, invitation, token } = await target.onTable((db, tableName) =>
    inviteByOperator(new DynamoTeamStore(db, tableName), new DynamoCompanyStore(db, tableName), values.company!, { email: values.email!, role }, new Date(), operatorName),
  );
  const { link, ...mailed } = await target.deliver(invitation, token, company.name);
  if (values.json) {
    console.log(JSON.stringify({ companyId: company.id, email: invitation.email, role, invitationLink: link, emailed: mailed.emailed }));
    if (mailed.mailError) console.error(mailed.note);
  } else {
    console.log(
      `Invited ${invitation.email} to ${company.name} (${company.id}, ${company.environment}) as ${role}, valid 7 days:\n  ${link}\n` +
        `${mailed.note} Opening it asks for a password (or the person's own, if they have an account); the link works once.`,
    );
  }
} catch (error) {
  if (error instanceof JavaMissingError) console.error(error.message);
  else if (error instanceof ApiError) console.error(`${error.message}${error.details ? `: ${JSON.stringify(error.details)}` : ''}`);
  else console.error('Could not invite:', error);
  process.exitCode = 1;
}
