import { authenticatorUri } from '#functions/people/two-factor';
import { userPoolFrom } from '#adapters/cognito/from-settings';
import { SESSION_COOKIE } from '#http/cookies';
import { dashboardRoute } from '#http/dashboard-route';
import { emptyBody } from './schemas.ts';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/start-two-factor-setup');
const { identity } = userPoolFrom(settings);

/** A new authenticator secret for the signed-in person; nothing changes until a code confirms it (and,
 * to replace an app that is on, the password and that app's code). */
export const handler = dashboardRoute({ body: emptyBody, access: 'session' }, async ({ cookies }) => {
  const accessToken = cookies[SESSION_COOKIE]!;
  const [{ secret }, { email }] = await Promise.all([identity.startSetup(accessToken), identity.status(accessToken)]);
  return { data: { secret, uri: authenticatorUri(secret, email) } };
});
