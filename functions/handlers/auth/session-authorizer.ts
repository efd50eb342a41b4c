import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { endedBySignOut } from '#functions/people/sign-outs';
import { userPoolFrom } from '#adapters/cognito/from-settings';
import { signOutsFrom } from '#adapters/runtime';
import { withCorrelationId } from '#adapters/logs-and-metrics';
import { readDashboardCookies, secureCookiesFor, SESSION_COOKIE } from '#http/cookies';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('auth/session-authorizer');
const { verifier } = userPoolFrom(settings);
const signOuts = signOutsFrom(settings);

/**
 * REQUEST authorizer of the dashboard API: the session cookie's Cognito access token, verified by
 * aws-jwt-verify against the pool's JWKS (signature, issuer, expiry, token_use, client_id). The
 * answer carries only who the person is; what they may do in a company is the handler's check of
 * their membership, read fresh on every call, so a changed role applies at once. A token from
 * before the person signed out is refused (functions/people/sign-outs.ts) at its next request: API
 * Gateway does not cache this authorizer's answers (functions/routes.ts SESSION_AUTHORIZER).
 */
export const handler = middy<APIGatewayRequestAuthorizerEvent, APIGatewayAuthorizerResult>().handler(async (event) => {
  const log = withCorrelationId(event.requestContext?.requestId ?? 'unknown');
  const header = (name: string) => Object.entries(event.headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
  const token = readDashboardCookies(header('cookie'), secureCookiesFor(header('host')))[SESSION_COOKIE];
  let personId: string;
  let authTime: number | null;
  let sessionId: string;
  try {
    if (!token) throw new Error('No session cookie');
    const claims = await verifier.verify(token);
    if (endedBySignOut(claims, await signOuts.lastOf(claims.personId))) throw new Error('Signed out');
    // The session's CSRF token is derived from it (functions/http/cookies.ts csrfTokenFor).
    if (!claims.originJti) throw new Error('Token without origin_jti');
    personId = claims.personId;
    authTime = claims.authTime;
    sessionId = claims.originJti;
  } catch (error) {
    log.info('session authorizer denied', { reason: (error as Error).message });
    throw new Error('Unauthorized');
  }
  const [prefix, stage] = event.methodArn.split('/');
  return {
    principalId: personId,
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: `${prefix}/${stage}/*` }] },
    // When the person last gave their password: a route that asks for a recent sign-in reads it.
    context: { personId, authTime: authTime ?? 0, sessionId },
  };
});
