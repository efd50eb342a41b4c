import * as v from 'valibot';
import { webhookBody } from '../webhooks/schemas.ts';

/** An endpoint's Edit, `Disable` and `Enable`: /v1's fields, each optional; one left out stays as it
 * stands (functions/webhooks/webhooks.ts changeWebhook), so `Disable` sends `{enabled}` alone. Apart
 * from ./schemas.ts, which the simulator's function bundles, so the webhook URL rules stay out of it. */
export const changeWebhookBody = v.partial(webhookBody);
