import { endpointAttempts } from '#functions/webhooks/webhook-endpoints';
import { dashboardRoute } from '#http/dashboard-route';
import { pageResult } from '#http/envelope';
import { validate } from '#http/validation';
import { auditLogQuery } from './schemas.ts';
import { memberships, pages, registry } from './webhook-deps.ts';

/** An endpoint's delivery attempts, newest first, paged as the audit log is. */
export const handler = dashboardRoute({ access: 'read', memberships }, async ({ caller, query, pathParameters }) => {
  const { limit, cursor } = validate(auditLogQuery, query);
  return pageResult(await endpointAttempts(registry, pages, caller, pathParameters.webhookId!, { limit, cursor }));
});
