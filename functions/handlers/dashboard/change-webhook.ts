import { changeEndpoint } from '#functions/webhooks/webhook-endpoints';
import { dashboardRoute } from '#http/dashboard-route';
import { changeWebhookBody } from './webhook-schemas.ts';
import { memberships, registry, urlRules } from './webhook-deps.ts';

/** Edit, `Disable` and `Enable`: the fields the body names, the others kept as they stand (unlike /v1's PUT). */
export const handler = dashboardRoute({ body: changeWebhookBody, access: 'manageWebhooks', memberships }, async ({ caller, body, pathParameters, requireRecentSignIn }) => ({
  data: await changeEndpoint(registry, urlRules, caller, pathParameters.webhookId!, body, requireRecentSignIn),
}));
