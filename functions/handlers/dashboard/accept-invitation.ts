import { acceptInvitation } from '#functions/people/invitations';
import { sessionCookies } from '#http/cookies';
import { dashboardRoute } from '#http/dashboard-route';
import { acceptInvitationBody } from './schemas.ts';
import { identity, invitations, people } from './people-deps.ts';

export const handler = dashboardRoute({ body: acceptInvitationBody, access: 'public' }, async ({ body, origin, secureCookies }) => {
  const session = await acceptInvitation({ identity, invitations, people }, body, origin);
  return { data: { signedIn: true }, cookies: sessionCookies(session, secureCookies) };
});
