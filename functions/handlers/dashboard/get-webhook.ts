import { dashboardWebhook } from '#functions/webhooks/webhook-endpoints';
import { dashboardRoute } from '#http/dashboard-route';
import { memberships, registry } from './webhook-deps.ts';

export const handler = dashboardRoute({ access: 'read', memberships }, async ({ caller, pathParameters }) => ({ data: await dashboardWebhook(registry, caller, pathParameters.webhookId!) }));
