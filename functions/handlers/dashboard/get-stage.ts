import { mailerFrom } from '#adapters/mail/from-settings';
import { dashboardRoute } from '#http/dashboard-route';
import { functionSettings } from '#functions/settings/functions';
import { networksOpenIn } from '#functions/networks/open-networks';

const settings = functionSettings('dashboard/get-stage');
const mails = mailerFrom(settings) !== null;
const stage = {
  environment: settings.STAGE_ENVIRONMENT,
  /** Production has no self sign-up: its companies come by invitation (`npm run company:create`);
   * nor has a stage without mail, where a sign-up's address could not be confirmed. */
  selfSignUp: settings.STAGE_ENVIRONMENT === 'sandbox' && mails,
  /** `Forgot your password?` needs the stage's mail (context mailFrom in AWS; the outbox locally). */
  passwordResetByMail: mails,
  /** The networks the stage opens, TRON first: New withdrawal's and the allowlist's `Network` choice. */
  networks: networksOpenIn(settings),
};

export type StageView = typeof stage;

/** What the pages offer on this stage, so they offer nothing it would refuse. */
export const handler = dashboardRoute({ access: 'public' }, async () => ({ data: stage }));
