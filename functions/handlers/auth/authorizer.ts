import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { authenticate, recordKeyUse } from '#functions/api-keys/api-keys';
import { usageIdentifier } from '#functions/api-keys/rate-limits';
import { dynamoFrom } from '#adapters/runtime';
import { DynamoApiKeyStore } from '#adapters/dynamo/api-key-store';
import { MetricUnit, runMetrics, withCorrelationId } from '#adapters/logs-and-metrics';
import { functionSettings } from '#functions/settings/functions';

const settings = functionSettings('auth/authorizer');
const { db, tableName } = dynamoFrom(settings);
const keys = new DynamoApiKeyStore(db, tableName);

/**
 * REQUEST authorizer over X-Api-Key and X-Api-Secret. A refusal is thrown as "Unauthorized" (API
 * Gateway's convention), which Lambda counts in the function's Errors metric, so the stack alarms
 * on this function's own AuthorizerErrors metric instead. Both headers are identity sources, so API
 * Gateway's cache key holds both: a cached Allow for a key can never admit a wrong secret.
 * Throwing "Unauthorized" is API Gateway's convention for a 401 (gateway response UNAUTHORIZED).
 *
 * Traced by Lambda's active tracing alone, inside the API request's trace (its segment shows the
 * whole call; its log lines carry `xray_trace_id`), without Powertools' tracer: the tracer and the
 * X-Ray SDK add ~290 KB with the source map, which would take this bundle past the 300 KB budget
 * of everything on a request's path (test/infra/bundles.test.ts), and the SDK's load
 * would lengthen the cold start of every uncached request. So its DynamoDB read has no subsegment
 * of its own. The jobs' tracer comes with #adapters/observability, which this file must not import.
 */
export const handler = middy<APIGatewayRequestAuthorizerEvent, APIGatewayAuthorizerResult>().handler(async (event) => {
  const headers = lowerCaseHeaders(event.headers);
  // The API request's id: the same `correlation_id` as the handler's line and `X-Request-Id`.
  const log = withCorrelationId(event.requestContext?.requestId ?? 'unknown');
  const metrics = runMetrics();
  let record: Awaited<ReturnType<typeof authenticate>>;
  try {
    record = await authenticate(keys, headers['x-api-key'], headers['x-api-secret']);
  } catch (error) {
    // API Gateway answers 500 AUTHORIZER_FAILURE; the AuthorizerErrors alarm watches this metric
    // (the function's own Errors metric also counts every refusal, see below).
    metrics.addMetric('AuthorizerErrors', MetricUnit.Count, 1).publishStoredMetrics();
    log.error('authorizer failed', { error });
    throw error;
  }
  if (!record) {
    // Never the key or the secret: a wrong pair is all there is to say.
    metrics.addMetric('AuthFailures', MetricUnit.Count, 1).publishStoredMetrics();
    log.info('authorizer denied');
    throw new Error('Unauthorized');
  }
  log.debug('authorizer allowed', { companyId: record.companyId });
  // `last used` for the dashboard: here, off the cached path, and at most one write per key per
  // LAST_USED_GRANULARITY_MS. Failing to record it never refuses a call.
  await recordKeyUse(keys, record, new Date(), event.requestContext?.identity?.sourceIp ?? null).catch((error: unknown) => log.warn('last used not recorded', { error }));
  return {
    principalId: record.companyId,
    policyDocument: {
      Version: '2012-10-17',
      // The cached policy is reused for every route the same credentials call, so it must cover
      // the whole API, not only the method that happened to be called first.
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: wholeApiArn(event.methodArn) }],
    },
    // `access` rides in the cached context, so a read-only key is refused a write by the handler
    // with a 403 that says why (functions/http/route.ts), not a Deny that looks like a wrong secret.
    // So are the key's allowed IPs (space-separated: a context value is a string): the cached answer
    // serves every address, and each request's own source is checked in the handler.
    context: { companyId: record.companyId, environment: record.environment, access: record.access, allowedIps: record.allowedIps?.join(' ') ?? '' },
    // The company's API Gateway key: its usage plan throttles this company alone (functions/api-keys/rate-limits.ts).
    usageIdentifierKey: usageIdentifier(record.companyId),
  };
});

function lowerCaseHeaders(headers: APIGatewayRequestAuthorizerEvent['headers']): Record<string, string | undefined> {
  const result: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers ?? {})) result[name.toLowerCase()] = value;
  return result;
}

/** arn:aws:execute-api:region:account:apiId/stage/METHOD/path → arn:…:apiId/stage/* */
function wholeApiArn(methodArn: string): string {
  const [prefix, stage] = methodArn.split('/');
  return `${prefix}/${stage}/*`;
}
