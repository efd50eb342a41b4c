import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { liveSessionOf, sessionKeyOf } from '#functions/people/dashboard-sessions';
import { sessionRecordsFrom } from '#adapters/runtime';
import { MetricUnit, runMetrics, withCorrelationId } from '#adapters/logs-and-metrics';
import { AMBIGUOUS_SESSION, lastHeaderValue, secureCookiesFor, sessionCookieOf } from '#http/cookies';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('auth/session-authorizer');
const records = sessionRecordsFrom(settings);

/**
 * REQUEST authorizer of the dashboard API: the session cookie names a session Cambio keeps
 * (functions/people/dashboard-sessions.ts), read with the person's last sign-out: two reads. The
 * answer carries only who the person is; what they may do in a company is the handler's check of
 * their membership, read fresh on every call, so a changed role applies at once. A session from
 * before the person signed out (or changed their password) is refused (functions/people/sign-outs.ts)
 * at its next request: API Gateway does not cache this authorizer's answers (functions/routes.ts
 * SESSION_AUTHORIZER).
 *
 * The session it verified is named in its answer (`sessionKey`, the stored session's key), and the
 * dashboard's handlers act on that session alone (functions/http/dashboard-route.ts): a request
 * whose own session cookie is another is refused there. The cookie is read as the handlers read it
 * (functions/http/cookies.ts sessionCookieOf): a request with two Cookie lines, or two session
 * cookies, is refused here, so no request can be verified with one session and acted on with another.
 */
export const handler = middy<APIGatewayRequestAuthorizerEvent, APIGatewayAuthorizerResult>().handler(async (event) => {
  const log = withCorrelationId(event.requestContext?.requestId ?? 'unknown');
  const denied = (reason: string) => {
    log.info('session authorizer denied', { reason });
    return new Error('Unauthorized');
  };
  const cookieValue = sessionCookieOf(event, secureCookiesFor(lastHeaderValue(event.headers, 'host')));
  if (cookieValue === AMBIGUOUS_SESSION) throw denied('More than one Cookie header or session cookie');
  if (!cookieValue) throw denied('No session cookie');
  let session: Awaited<ReturnType<typeof liveSessionOf>>;
  try {
    session = await liveSessionOf(records, cookieValue);
  } catch (error) {
    // The sessions could not be read: not a refusal. Answered as one, every person would look
    // signed out and no alarm would say why; API Gateway answers 500 AUTHORIZER_FAILURE (the
    // dashboard's INTERNAL_ERROR) and the AuthorizerErrors alarm watches this metric, as the API's.
    runMetrics().addMetric('AuthorizerErrors', MetricUnit.Count, 1).publishStoredMetrics();
    log.error('session authorizer failed', { error });
    throw error;
  }
  if (!session) throw denied('No live session');
  // The session's CSRF token is derived from its id (functions/http/cookies.ts csrfTokenFor).
  const { personId, authTime, sessionId } = session;
  const sessionKey = sessionKeyOf(cookieValue);
  const [prefix, stage] = event.methodArn.split('/');
  return {
    principalId: personId,
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: `${prefix}/${stage}/*` }] },
    // When the person last gave their password: a route that asks for a recent sign-in reads it.
    // The session verified: the handler acts on it alone (functions/http/dashboard-route.ts).
    context: { personId, authTime, sessionId, sessionKey },
  };
});
