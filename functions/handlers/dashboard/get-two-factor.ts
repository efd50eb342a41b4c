import { userPoolFrom } from '#adapters/cognito/from-settings';
import { SESSION_COOKIE } from '#http/cookies';
import { dashboardRoute } from '#http/dashboard-route';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/get-two-factor');
const { identity } = userPoolFrom(settings);

/** Whether the signed-in person has two-factor sign-in on (Account). */
export const handler = dashboardRoute({ access: 'session' }, async ({ cookies }) => ({
  data: { enabled: (await identity.status(cookies[SESSION_COOKIE]!)).enabled },
}));
