import { send } from './client.ts';
import type { Attempt, Endpoint, EndpointChange, EndpointInput, EventResent, TestEventSent, WebhookEndpointCreated, WebhookEndpointDeleted, WebhookSecretRolled } from './types.ts';

/** The Webhooks pages' part of the dashboard API (docs/dashboard-api.md, Webhooks). */
const of = (companyId: string, webhookId = '') => `/companies/${companyId}/webhooks${webhookId && `/${webhookId}`}`;

export const webhooksApi = {
  list: (companyId: string) => send<Endpoint[]>('GET', of(companyId)),
  get: (companyId: string, webhookId: string) => send<Endpoint>('GET', of(companyId, webhookId)),
  add: (companyId: string, input: Omit<EndpointInput, 'enabled'>) => send<WebhookEndpointCreated>('POST', of(companyId), input),
  /** Only what the person changed: the server keeps every field left out as it stands now, so a page
   * loaded earlier puts back neither a colleague's new URL (with `Disable`) nor an endpoint a 410
   * disabled since (with an edit, which sends no `enabled`). */
  change: (companyId: string, webhookId: string, change: EndpointChange) => send<Endpoint>('PUT', of(companyId, webhookId), change),
  remove: (companyId: string, webhookId: string) => send<WebhookEndpointDeleted>('DELETE', of(companyId, webhookId)),
  attempts: (companyId: string, webhookId: string, cursor?: string) =>
    send<Attempt[]>('GET', `${of(companyId, webhookId)}/attempts?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
  resend: (companyId: string, webhookId: string, eventId: string) => send<EventResent>('POST', `${of(companyId, webhookId)}/attempts/resend`, { eventId }),
  sendTest: (companyId: string, webhookId: string) => send<TestEventSent>('POST', `${of(companyId, webhookId)}/test-events`, {}),
  rollSecret: (companyId: string, webhookId: string) => send<WebhookSecretRolled>('POST', `${of(companyId, webhookId)}/roll-secret`, {}),
};
