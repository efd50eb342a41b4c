import { signOutEverywhere } from '#domain/sign-outs';
import { userPoolFromEnv } from '#adapters/cognito/from-env';
import { signOutsFromEnv } from '#adapters/runtime';
import { clearedCookies, SESSION_COOKIE } from '#http/cookies';
import { dashboardRoute } from '#http/dashboard-route';

const { identity, verifier } = userPoolFromEnv();
const signOuts = signOutsFromEnv();

/** Ends the person's sessions (functions/domain/sign-outs.ts); the cookies go in any case. */
export const handler = dashboardRoute({ access: 'public' }, async ({ cookies, secureCookies }) => {
  const accessToken = cookies[SESSION_COOKIE];
  if (accessToken) {
    await signOutEverywhere(accessToken, { verify: (token) => verifier.verify(token), signOuts, revokeRefreshTokens: (token) => identity.signOut(token) });
  }
  return { data: { signedOut: true }, cookies: clearedCookies(secureCookies) };
});
