import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { endedBySignOut } from '#domain/sign-outs';
import { userPoolFrom } from '#adapters/cognito/from-settings';
import { signOutsFrom } from '#adapters/runtime';
import { withCorrelationId } from '#adapters/logs-and-metrics';
import { parseCookies, SESSION_COOKIE } from '#http/cookies';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('auth/session-authorizer');
const { verifier } = userPoolFrom(settings);
const signOuts = signOutsFrom(settings);

/**
 * REQUEST authorizer of the dashboard API: the session cookie's Cognito access token, verified by
 * aws-jwt-verify against the pool's JWKS (signature, issuer, expiry, token_use, client_id). The
 * answer carries only who the person is; what they may do in a company is the handler's check of
 * their membership, read fresh on every call, so a changed role applies at once. A token from
 * before the person signed out is refused (functions/domain/sign-outs.ts): API Gateway's result
 * cache may still admit it for `authorizerCacheSeconds`, as it does a revoked API key.
 */
export const handler = middy<APIGatewayRequestAuthorizerEvent, APIGatewayAuthorizerResult>().handler(async (event) => {
  const log = withCorrelationId(event.requestContext?.requestId ?? 'unknown');
  const cookieHeader = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'cookie')?.[1];
  const token = parseCookies(cookieHeader)[SESSION_COOKIE];
  let personId: string;
  let authTime: number | null;
  try {
    if (!token) throw new Error('No session cookie');
    const claims = await verifier.verify(token);
    if (endedBySignOut(claims, await signOuts.lastOf(claims.personId))) throw new Error('Signed out');
    personId = claims.personId;
    authTime = claims.authTime;
  } catch (error) {
    log.info('session authorizer denied', { reason: (error as Error).message });
    throw new Error('Unauthorized');
  }
  const [prefix, stage] = event.methodArn.split('/');
  return {
    principalId: personId,
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: `${prefix}/${stage}/*` }] },
    // When the person last gave their password: a route that asks for a recent sign-in reads it.
    context: { personId, authTime: authTime ?? 0 },
  };
});
