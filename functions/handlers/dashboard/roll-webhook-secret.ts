import { rollSecret } from '#functions/webhooks/webhook-endpoints';
import { dashboardRoute } from '#http/dashboard-route';
import { memberships, pages, registry, sealer } from './webhook-deps.ts';

/** `Roll secret`: the only answer that holds the new secret. */
export const handler = dashboardRoute({ access: 'manageWebhooks', memberships }, async ({ caller, pathParameters }) => ({
  data: await rollSecret(registry, pages, sealer, caller, pathParameters.webhookId!),
}));
