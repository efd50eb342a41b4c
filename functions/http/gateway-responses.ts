import { AUTH_FAILED_MESSAGE, type ErrorCode } from '#functions/shared/errors';
import { errorEnvelope } from './envelope.ts';

/**
 * What API Gateway answers by itself, before or instead of a handler. The CDK stack turns each
 * entry into a GatewayResponse and the local runtime answers with the same table, so a refused
 * request looks the same in both. `status` undefined keeps API Gateway's own status.
 */
export interface GatewayResponseSpec {
  type: GatewayResponseType;
  status?: number;
  code: ErrorCode;
  message: string;
  /** Headers the answer carries beside Content-Type (API Gateway sends them as static values). */
  headers?: Readonly<Record<string, string>>;
}

export type GatewayResponseType =
  | 'UNAUTHORIZED'
  | 'ACCESS_DENIED'
  | 'MISSING_AUTHENTICATION_TOKEN'
  | 'RESOURCE_NOT_FOUND'
  | 'THROTTLED'
  | 'QUOTA_EXCEEDED'
  | 'INVALID_API_KEY'
  | 'REQUEST_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'AUTHORIZER_FAILURE'
  | 'AUTHORIZER_CONFIGURATION_ERROR'
  | 'WAF_FILTERED'
  | 'DEFAULT_4XX'
  | 'DEFAULT_5XX';

const ROUTE_NOT_FOUND = 'No route matches this method and path';
const INTERNAL = 'An unexpected error occurred';
const RATE_LIMITED = 'Too many requests; retry after a short wait';
/**
 * API Gateway's buckets refill at least one request a second (config/stages.ts companyRateLimit), so
 * a second is always enough for the next one. The local runtime says the exact wait.
 */
const RETRY_AFTER_A_SECOND = { 'Retry-After': '1' } as const;

export const GATEWAY_RESPONSES: readonly GatewayResponseSpec[] = [
  // Missing identity source (no key or secret header) → UNAUTHORIZED; authorizer "Unauthorized"
  // → UNAUTHORIZED; a Deny policy → ACCESS_DENIED. All three must look identical to a caller.
  { type: 'UNAUTHORIZED', status: 401, code: 'AUTH_FAILED', message: AUTH_FAILED_MESSAGE },
  { type: 'ACCESS_DENIED', status: 401, code: 'AUTH_FAILED', message: AUTH_FAILED_MESSAGE },
  // REST APIs answer an unknown path or method with 403 "Missing Authentication Token".
  { type: 'MISSING_AUTHENTICATION_TOKEN', status: 404, code: 'NOT_FOUND', message: ROUTE_NOT_FOUND },
  { type: 'RESOURCE_NOT_FOUND', status: 404, code: 'NOT_FOUND', message: ROUTE_NOT_FOUND },
  // The stage's throttle or the company's usage plan (functions/api-keys/rate-limits.ts).
  { type: 'THROTTLED', status: 429, code: 'RATE_LIMITED', message: RATE_LIMITED, headers: RETRY_AFTER_A_SECOND },
  { type: 'QUOTA_EXCEEDED', status: 429, code: 'RATE_LIMITED', message: RATE_LIMITED, headers: RETRY_AFTER_A_SECOND },
  // The authorizer admitted the company but its API Gateway key is not in the usage plan yet: the
  // provisioner creates it from the table's stream a moment after the company is created
  // (functions/handlers/jobs/usage-key-provisioner.ts). Clients retry a 429 after Retry-After by themselves.
  { type: 'INVALID_API_KEY', status: 429, code: 'RATE_LIMITED', message: 'Rate limits for this company are still being set up; retry after a second', headers: RETRY_AFTER_A_SECOND },
  { type: 'REQUEST_TOO_LARGE', status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than 16 KiB' },
  { type: 'UNSUPPORTED_MEDIA_TYPE', status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The request body must be application/json' },
  // AWS WAF (a deployed stage's) refused the request as an attack signature. The web ACL answers with the
  // same body itself (lib/waf.ts); this entry covers any WAF block that carries no custom response.
  { type: 'WAF_FILTERED', status: 403, code: 'FORBIDDEN', message: 'The request was refused by the API firewall' },
  { type: 'AUTHORIZER_FAILURE', status: 500, code: 'INTERNAL_ERROR', message: INTERNAL },
  { type: 'AUTHORIZER_CONFIGURATION_ERROR', status: 500, code: 'INTERNAL_ERROR', message: INTERNAL },
  { type: 'DEFAULT_4XX', code: 'VALIDATION_FAILED', message: 'The request was refused by the API gateway' },
  { type: 'DEFAULT_5XX', code: 'INTERNAL_ERROR', message: INTERNAL },
];

/**
 * The dashboard API's own answer when its session authorizer refuses (UNAUTHORIZED and
 * ACCESS_DENIED there): the page's person has no API key, so it speaks of the session. The stack
 * sets it on the dashboard's REST API (lib/dashboard.ts); the local runtime answers its session
 * routes with it.
 */
export const SESSION_ENDED = { status: 401, code: 'AUTH_FAILED', message: 'Not signed in, or the session has ended: sign in again' } as const satisfies Omit<GatewayResponseSpec, 'type'>;

/**
 * The dashboard API's: the session's answer where its authorizer refuses, and the /v1 API's for a
 * throttle, an unknown path and the two defaults, so the page reads `error.code` whatever answered
 * (a handler that timed out, an authorizer that failed). A type not named takes its default's body
 * with its own status, as API Gateway does; each one named is a resource of a stack that nears
 * CloudFormation's 500 (test/infra/stack-size.test.ts). INVALID_API_KEY is the CloudFront origin
 * key's own there (lib/dashboard-origin-key.ts).
 */
export const DASHBOARD_GATEWAY_RESPONSES: readonly GatewayResponseSpec[] = [
  { type: 'UNAUTHORIZED', ...SESSION_ENDED },
  { type: 'ACCESS_DENIED', ...SESSION_ENDED },
  ...GATEWAY_RESPONSES.filter((spec) => ['THROTTLED', 'MISSING_AUTHENTICATION_TOKEN', 'DEFAULT_4XX', 'DEFAULT_5XX'].includes(spec.type)),
];

/** `gatewayStatus`: the status API Gateway itself gives, for the types that keep it (DEFAULT_4XX/5XX). */
export function gatewayResponse(type: GatewayResponseType, gatewayStatus?: number): { status: number; body: string; headers: Readonly<Record<string, string>> } {
  const spec = GATEWAY_RESPONSES.find((entry) => entry.type === type);
  if (!spec) throw new Error(`No gateway response for ${type}`);
  return { status: spec.status ?? gatewayStatus ?? (type === 'DEFAULT_5XX' ? 500 : 400), body: errorEnvelope(spec.code, spec.message), headers: spec.headers ?? {} };
}
