import { send } from './client.ts';
import type { Attempt, Endpoint, EndpointInput, EventResent, TestEventSent, WebhookEndpointCreated, WebhookEndpointDeleted, WebhookSecretRolled } from './types.ts';

/** The Webhooks pages' part of the dashboard API (docs/dashboard-api.md, Webhooks). */
const of = (companyId: string, webhookId = '') => `/companies/${companyId}/webhooks${webhookId && `/${webhookId}`}`;

export const webhooksApi = {
  list: (companyId: string) => send<Endpoint[]>('GET', of(companyId)),
  get: (companyId: string, webhookId: string) => send<Endpoint>('GET', of(companyId, webhookId)),
  add: (companyId: string, input: Omit<EndpointInput, 'enabled'>) => send<WebhookEndpointCreated>('POST', of(companyId), input),
  /** `enabled` goes only with Enable and Disable: omitted, the server keeps the endpoint on or off as it
   * stands now (it may have been disabled, by a 410, since this page was loaded). */
  change: (companyId: string, endpoint: Endpoint, change: Partial<EndpointInput>) =>
    send<Endpoint>('PUT', of(companyId, endpoint.id), { url: endpoint.url, events: endpoint.events, description: endpoint.description, ...change }),
  remove: (companyId: string, webhookId: string) => send<WebhookEndpointDeleted>('DELETE', of(companyId, webhookId)),
  attempts: (companyId: string, webhookId: string, cursor?: string) =>
    send<Attempt[]>('GET', `${of(companyId, webhookId)}/attempts?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
  resend: (companyId: string, webhookId: string, eventId: string) => send<EventResent>('POST', `${of(companyId, webhookId)}/attempts/resend`, { eventId }),
  sendTest: (companyId: string, webhookId: string) => send<TestEventSent>('POST', `${of(companyId, webhookId)}/test-events`, {}),
  rollSecret: (companyId: string, webhookId: string) => send<WebhookSecretRolled>('POST', `${of(companyId, webhookId)}/roll-secret`, {}),
};
