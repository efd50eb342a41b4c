import { signUp } from '#functions/people/sign-up';
import { dashboardRoute } from '#http/dashboard-route';
import { signUpBody } from './schemas.ts';
import { signUpDeps } from './sign-up-deps.ts';

/** 202 and no session, whoever holds the address: the mail says what happened. */
export const handler = dashboardRoute({ body: signUpBody, access: 'public' }, async ({ body, origin, dashboardOrigin, log }) => {
  await signUp(signUpDeps(dashboardOrigin, log), body, origin);
  return { status: 202, data: { checkYourMail: true } };
});
