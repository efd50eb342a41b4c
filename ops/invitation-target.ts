import * as v from 'valibot';
import type { Environment } from '#functions/api-keys/api-keys';
import type { Invitation } from '#functions/people/invitations';
import { invitationMail, type Mailer } from '#functions/mail/mail';
import { OutboxMailer } from '#adapters/mail/outbox-mailer';
import { SesMailer } from '#adapters/mail/ses-mailer';
import { SETTINGS } from '#functions/settings/schema';
import { STAGES, type StageName } from '../config/stages.ts';
import { DATA_DIR, runningRuntime } from '#local/local-data';
import { outboxOf } from '#local/runtime-files';
import { onStageTable, stageTableOf, type OnTable } from './stage-table.ts';

/** The options every command that invites people takes, to name the stage it acts on. */
export const TARGET_OPTIONS = {
  stage: { type: 'string', default: 'local' },
  table: { type: 'string' },
  'dashboard-url': { type: 'string' },
  'mail-from': { type: 'string' },
} as const;

export const TARGET_USAGE = '--stage sandbox|production --table <TableName output> --dashboard-url <DashboardUrl output> [--mail-from no-reply@example.com]';

export interface Delivery {
  link: string;
  emailed: boolean;
  /** Why a mail that was tried did not go; null when none was tried or it went. */
  mailError: string | null;
  /** One sentence for the operator: mailed, or to send the link. */
  note: string;
}

export interface InvitationTarget {
  stageName: StageName;
  deployed: boolean;
  /** The environment of the stage's companies. */
  environment: Environment;
  /** Runs `work` on the stage's table: the deployed one named, or the local runtime's data. */
  onTable: OnTable;
  /** The invitation's link, mailed where the target mails; what to tell the operator. */
  deliver(invitation: Invitation, token: string, companyName: string): Promise<Delivery>;
}

/**
 * Where an operator's invitation goes (`company:create --owner-email`, `company:invite`): the local
 * runtime's data by default, whose mail is its outbox (.data/outbox/, as `npm start`'s); or, with
 * `--stage`, a deployed stage's table with the operator's AWS credentials, the link on its
 * dashboard's URL, mailed through SES only with `--mail-from`. Bad options refuse before any data
 * is touched.
 */
export function invitationTarget(values: { stage?: string; table?: string; 'dashboard-url'?: string; 'mail-from'?: string }, refuse: (message: string) => never): InvitationTarget {
  // Before stageTableOf, whose refusal of a local --table names that option alone.
  if ((values.stage ?? 'local') === 'local' && (values.table || values['dashboard-url'] || values['mail-from'])) {
    refuse('--table, --dashboard-url and --mail-from go with --stage sandbox|production; without --stage the command works on the local runtime.');
  }
  const { stage: stageName, table } = stageTableOf(values, refuse);
  const deployed = stageName !== 'local';
  const mailFrom = values['mail-from'];
  const mailer = operatorMailer(deployed, mailFrom, refuse);
  const acceptUrl = deployed ? deployedAcceptUrl(stageName, values['dashboard-url'], refuse) : localAcceptUrl();

  return {
    stageName,
    deployed,
    environment: STAGES[stageName].environment,
    onTable: onStageTable(stageName, table),
    async deliver(invitation, token, companyName) {
      const link = `${acceptUrl}?token=${token}`;
      if (!mailer) return { link, emailed: false, mailError: null, note: 'Send it to them yourself: it is not emailed.' };
      // The invitation stands whatever the mail does: one that does not go leaves the link to send by hand.
      try {
        await mailer.send(invitationMail({ to: invitation.email, companyName, role: invitation.role, invitedBy: null, link, expiresAt: invitation.expiresAt }));
        return { link, emailed: true, mailError: null, note: deployed ? `Mailed to ${invitation.email} from ${mailFrom}.` : `Mailed to ${invitation.email}: see ${outboxOf(DATA_DIR)}/.` };
      } catch (error) {
        const mailError = `${(error as Error).name}: ${(error as Error).message}`;
        return { link, emailed: false, mailError, note: `Could not mail it (${mailError}): send it to them yourself.` };
      }
    },
  };
}

/**
 * How an operator's command mails a person: a deployed stage through SES from `--mail-from` (none
 * without it: the operator tells the person), the local runtime to its outbox (.data/outbox/).
 */
export function operatorMailer(deployed: boolean, mailFrom: string | undefined, refuse: (message: string) => never): Mailer | null {
  if (mailFrom !== undefined && !v.is(SETTINGS.MAIL_FROM, mailFrom)) refuse(`--mail-from ${JSON.stringify(mailFrom)} is not an email address (a bare one, verified in SES).`);
  if (!deployed) return new OutboxMailer(outboxOf(DATA_DIR));
  return mailFrom ? new SesMailer(mailFrom) : null;
}

/** The accept-invitation page under the stack's DashboardUrl output (`https://…/dashboard/`). */
function deployedAcceptUrl(stageName: StageName, dashboardUrl: string | undefined, refuse: (message: string) => never): string {
  const needs = `--stage ${stageName} needs --dashboard-url <the stack's DashboardUrl output, https://…/dashboard/>`;
  let url: URL;
  try {
    url = new URL(dashboardUrl ?? '');
  } catch {
    refuse(`${needs}.`);
  }
  if (url.protocol !== 'https:' || url.search || url.hash || !/^\/dashboard\/?$/.test(url.pathname)) refuse(`${needs}; "${dashboardUrl}" is not.`);
  return `${url.origin}/dashboard/accept-invitation`;
}

function localAcceptUrl(): string {
  const origin = runningRuntime()?.apiUrl.replace(/\/v1$/, '') ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
  return `${origin}/dashboard/accept-invitation`;
}
