import { authenticatorUri } from '#functions/people/two-factor';
import { dashboardRoute } from '#http/dashboard-route';
import { emptyBody } from './schemas.ts';
import { identity } from './people-deps.ts';
import { identityToken } from './session-deps.ts';

/** A new authenticator secret for the signed-in person; nothing changes until a code confirms it (and,
 * to replace an app that is on, the password and that app's code). */
export const handler = dashboardRoute({ body: emptyBody, access: 'session' }, async ({ sessionCookie }) => {
  const accessToken = await identityToken(sessionCookie);
  const [{ secret }, { email }] = await Promise.all([identity.startSetup(accessToken), identity.status(accessToken)]);
  return { data: { secret, uri: authenticatorUri(secret, email) } };
});
