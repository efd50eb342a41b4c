import { resendEvent } from '#functions/webhooks/webhook-endpoints';
import { dashboardRoute } from '#http/dashboard-route';
import { resendBody } from './schemas.ts';
import { memberships, pages, queue, registry } from './webhook-deps.ts';

export const handler = dashboardRoute({ body: resendBody, access: 'manageWebhooks', memberships }, async ({ caller, body, pathParameters }) => ({
  status: 202,
  data: await resendEvent(registry, pages, queue, caller, pathParameters.webhookId!, body.eventId),
}));
