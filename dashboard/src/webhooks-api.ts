import { send } from './api.ts';

import type { WebhookAttempt } from '../../functions/webhooks/webhook-attempt.ts';
export { EVENT_TYPES } from '../../functions/shared/event-types.ts';

/** The Webhooks pages' part of the dashboard API (docs/dashboard-api.md, Webhooks). */
export type Attempt = WebhookAttempt;

export interface Endpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
  previousSecretExpiresAt: string | null;
}

export interface EndpointInput {
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
}

const of = (companyId: string, webhookId = '') => `/companies/${companyId}/webhooks${webhookId && `/${webhookId}`}`;

export const webhooksApi = {
  list: (companyId: string) => send<Endpoint[]>('GET', of(companyId)),
  get: (companyId: string, webhookId: string) => send<Endpoint>('GET', of(companyId, webhookId)),
  add: (companyId: string, input: Omit<EndpointInput, 'enabled'>) => send<Endpoint & { secret: string }>('POST', of(companyId), input),
  change: (companyId: string, endpoint: Endpoint, change: Partial<EndpointInput>) =>
    send<Endpoint>('PUT', of(companyId, endpoint.id), { url: endpoint.url, events: endpoint.events, description: endpoint.description, enabled: endpoint.enabled, ...change }),
  remove: (companyId: string, webhookId: string) => send<{ deleted: true }>('DELETE', of(companyId, webhookId)),
  attempts: (companyId: string, webhookId: string, cursor?: string) =>
    send<Attempt[]>('GET', `${of(companyId, webhookId)}/attempts?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
  resend: (companyId: string, webhookId: string, eventId: string) => send<{ queued: true }>('POST', `${of(companyId, webhookId)}/attempts/resend`, { eventId }),
  sendTest: (companyId: string, webhookId: string) => send<{ eventId: string }>('POST', `${of(companyId, webhookId)}/test-events`, {}),
  rollSecret: (companyId: string, webhookId: string) => send<Endpoint & { secret: string }>('POST', `${of(companyId, webhookId)}/roll-secret`, {}),
};
