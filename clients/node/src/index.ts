export { Cambio, PagePromise, VERSION, type CambioOptions } from './client.ts';
export * from './errors.ts';
export {
  DEFAULT_TOLERANCE_SECONDS,
  isCambioEvent,
  verifyWebhook,
  verifyWebhookSignature,
  type UnknownWebhookEvent,
  type VerifyOptions,
  type WebhookHeaders,
} from './webhooks.ts';
export type * from './types.ts';
export type { components, operations, paths, webhooks } from './generated/openapi.ts';
