import { startTwoFactorSetup } from '#functions/people/two-factor';
import { dashboardRoute } from '#http/dashboard-route';
import { twoFactorSetupBody } from './two-factor-schemas.ts';
import { twoFactor } from './people-deps.ts';
import { identityToken } from './session-deps.ts';

/** A new authenticator secret for the signed-in person; nothing changes until a code confirms it. To
 * replace an app that is on, the password and that app's code first (startTwoFactorSetup). */
export const handler = dashboardRoute({ body: twoFactorSetupBody, access: 'session' }, async ({ body, sessionCookie, personId, origin }) => ({
  data: await startTwoFactorSetup(twoFactor, { personId, accessToken: await identityToken(sessionCookie) }, body, origin),
}));
