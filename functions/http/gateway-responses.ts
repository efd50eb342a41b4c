import { AUTH_FAILED_MESSAGE, type ErrorCode } from '#domain/errors';
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
}

export type GatewayResponseType =
  | 'UNAUTHORIZED'
  | 'ACCESS_DENIED'
  | 'MISSING_AUTHENTICATION_TOKEN'
  | 'RESOURCE_NOT_FOUND'
  | 'THROTTLED'
  | 'QUOTA_EXCEEDED'
  | 'REQUEST_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'AUTHORIZER_FAILURE'
  | 'AUTHORIZER_CONFIGURATION_ERROR'
  | 'WAF_FILTERED'
  | 'DEFAULT_4XX'
  | 'DEFAULT_5XX';

const ROUTE_NOT_FOUND = 'No route matches this method and path';
const INTERNAL = 'An unexpected error occurred';

export const GATEWAY_RESPONSES: readonly GatewayResponseSpec[] = [
  // Missing identity source (no key or secret header) → UNAUTHORIZED; authorizer "Unauthorized"
  // → UNAUTHORIZED; a Deny policy → ACCESS_DENIED. All three must look identical to a caller.
  { type: 'UNAUTHORIZED', status: 401, code: 'AUTH_FAILED', message: AUTH_FAILED_MESSAGE },
  { type: 'ACCESS_DENIED', status: 401, code: 'AUTH_FAILED', message: AUTH_FAILED_MESSAGE },
  // REST APIs answer an unknown path or method with 403 "Missing Authentication Token".
  { type: 'MISSING_AUTHENTICATION_TOKEN', status: 404, code: 'NOT_FOUND', message: ROUTE_NOT_FOUND },
  { type: 'RESOURCE_NOT_FOUND', status: 404, code: 'NOT_FOUND', message: ROUTE_NOT_FOUND },
  { type: 'THROTTLED', status: 429, code: 'RATE_LIMITED', message: 'Too many requests; retry after a short wait' },
  { type: 'QUOTA_EXCEEDED', status: 429, code: 'RATE_LIMITED', message: 'Too many requests; retry after a short wait' },
  { type: 'REQUEST_TOO_LARGE', status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than 16 KiB' },
  { type: 'UNSUPPORTED_MEDIA_TYPE', status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The request body must be application/json' },
  // AWS WAF (production) refused the request as an attack signature. The web ACL answers with the
  // same body itself (lib/waf.ts); this entry covers any WAF block that carries no custom response.
  { type: 'WAF_FILTERED', status: 403, code: 'FORBIDDEN', message: 'The request was refused by the API firewall' },
  { type: 'AUTHORIZER_FAILURE', status: 500, code: 'INTERNAL_ERROR', message: INTERNAL },
  { type: 'AUTHORIZER_CONFIGURATION_ERROR', status: 500, code: 'INTERNAL_ERROR', message: INTERNAL },
  { type: 'DEFAULT_4XX', code: 'VALIDATION_FAILED', message: 'The request was refused by the API gateway' },
  { type: 'DEFAULT_5XX', code: 'INTERNAL_ERROR', message: INTERNAL },
];

/** `gatewayStatus`: the status API Gateway itself gives, for the types that keep it (DEFAULT_4XX/5XX). */
export function gatewayResponse(type: GatewayResponseType, gatewayStatus?: number): { status: number; body: string } {
  const spec = GATEWAY_RESPONSES.find((entry) => entry.type === type);
  if (!spec) throw new Error(`No gateway response for ${type}`);
  return { status: spec.status ?? gatewayStatus ?? (type === 'DEFAULT_5XX' ? 500 : 400), body: errorEnvelope(spec.code, spec.message) };
}
