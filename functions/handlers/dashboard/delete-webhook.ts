import { removeEndpoint } from '#functions/webhooks/webhook-endpoints';
import { dashboardRoute } from '#http/dashboard-route';
import { memberships, registry } from './webhook-deps.ts';

export const handler = dashboardRoute({ access: 'manageWebhooks', memberships }, async ({ caller, pathParameters }) => ({ data: await removeEndpoint(registry, caller, pathParameters.webhookId!) }));
