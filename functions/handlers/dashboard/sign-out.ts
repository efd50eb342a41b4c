import { signOutEverywhere } from '#functions/people/sign-outs';
import { userPoolFrom } from '#adapters/cognito/from-settings';
import { signOutsFrom } from '#adapters/runtime';
import { clearedCookies, SESSION_COOKIE } from '#http/cookies';
import { dashboardRoute } from '#http/dashboard-route';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('dashboard/sign-out');
const { identity, verifier } = userPoolFrom(settings);
const signOuts = signOutsFrom(settings);

/** Ends the person's sessions; the cookies go in any case. */
export const handler = dashboardRoute({ access: 'public' }, async ({ cookies, secureCookies }) => {
  const accessToken = cookies[SESSION_COOKIE];
  if (accessToken) {
    await signOutEverywhere(accessToken, { verify: (token) => verifier.verify(token), signOuts, revokeRefreshTokens: (token) => identity.signOut(token) });
  }
  return { data: { signedOut: true }, cookies: clearedCookies(secureCookies) };
});
