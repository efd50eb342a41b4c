import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { authenticate } from '#domain/api-keys';
import { dynamoFromEnv } from '#adapters/runtime';

const { companies } = dynamoFromEnv();

/**
 * REQUEST authorizer over X-Api-Key and X-Api-Secret. Both headers are identity sources, so API
 * Gateway's cache key holds both: a cached Allow for a key can never admit a wrong secret.
 * Throwing "Unauthorized" is API Gateway's convention for a 401 (gateway response UNAUTHORIZED).
 */
export const handler = middy<APIGatewayRequestAuthorizerEvent, APIGatewayAuthorizerResult>().handler(async (event) => {
  const headers = lowerCaseHeaders(event.headers);
  const record = await authenticate(companies, headers['x-api-key'], headers['x-api-secret']);
  if (!record) throw new Error('Unauthorized');
  return {
    principalId: record.companyId,
    policyDocument: {
      Version: '2012-10-17',
      // The cached policy is reused for every route the same credentials call, so it must cover
      // the whole API, not only the method that happened to be called first.
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: wholeApiArn(event.methodArn) }],
    },
    context: { companyId: record.companyId, environment: record.environment },
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
