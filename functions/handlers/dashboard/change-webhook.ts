import { changeEndpoint } from '#functions/webhooks/webhook-endpoints';
import { dashboardRoute } from '#http/dashboard-route';
import { webhookBody } from '../webhooks/schemas.ts';
import { memberships, registry, urlRules } from './webhook-deps.ts';

/** Edit, `Disable` and `Enable`: the whole endpoint, as /v1's PUT takes it. */
export const handler = dashboardRoute({ body: webhookBody, access: 'manageWebhooks', memberships }, async ({ caller, body, pathParameters, requireRecentSignIn }) => ({
  data: await changeEndpoint(registry, urlRules, caller, pathParameters.webhookId!, body, requireRecentSignIn),
}));
