import { resendVerificationLink } from '#functions/people/sign-up';
import { dashboardRoute } from '#http/dashboard-route';
import { resendVerificationBody } from './schemas.ts';
import { signUpDeps } from './sign-up-deps.ts';

/** `Send the link again`: 202 for every address; only a person still waiting for their link gets one. */
export const handler = dashboardRoute({ body: resendVerificationBody, access: 'public' }, async ({ body, dashboardOrigin, log, origin }) => {
  await resendVerificationLink(signUpDeps(dashboardOrigin, log), body, origin);
  return { status: 202, data: { checkYourMail: true } };
});
