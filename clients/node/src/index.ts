export { Cambio, PagePromise, VERSION, type CambioOptions } from './client.ts';
export {
  ApiServerError,
  AuthenticationError,
  CambioError,
  ConflictError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  RateLimitError,
  RefusedError,
  WebhookVerificationError,
  type ClientErrorCode,
} from './errors.ts';
export { DEFAULT_TOLERANCE_SECONDS, verifyWebhook, type VerifyOptions, type WebhookHeaders } from './webhooks.ts';
export type * from './types.ts';
export type { components, operations, paths, webhooks } from './generated/openapi.ts';
