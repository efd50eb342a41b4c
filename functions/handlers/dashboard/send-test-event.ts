import { sendTestEvent } from '#functions/webhooks/webhook-endpoints';
import { dashboardRoute } from '#http/dashboard-route';
import { memberships, pages, queue, registry } from './webhook-deps.ts';

export const handler = dashboardRoute({ access: 'manageWebhooks', memberships }, async ({ caller, pathParameters }) => ({
  status: 202,
  data: await sendTestEvent(registry, pages, queue, caller, pathParameters.webhookId!),
}));
