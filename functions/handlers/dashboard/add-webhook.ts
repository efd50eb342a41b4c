import { addEndpoint } from '#functions/webhooks/webhook-endpoints';
import { dashboardRoute } from '#http/dashboard-route';
import { webhookBody } from '../webhooks/schemas.ts';
import { memberships, registry, sealer, urlRules } from './webhook-deps.ts';

/** `Add endpoint`: the only answer that holds the signing secret. */
export const handler = dashboardRoute({ body: webhookBody, access: 'manageWebhooks', memberships }, async ({ caller, body }) => ({
  status: 201,
  data: await addEndpoint(registry, urlRules, sealer, caller, body),
}));
