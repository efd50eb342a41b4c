import type { APIGatewayProxyEvent } from 'aws-lambda';

/**
 * A request as API Gateway's REST API hands it to a proxy integration, for the tests that call a
 * dashboard route's handler without the local gateway: a GET of `path` with no body, query or
 * path parameters unless given, from `sourceIp` (the connection API Gateway saw).
 */
export function proxyEvent(
  request: Pick<APIGatewayProxyEvent, 'path' | 'headers'> & Partial<Pick<APIGatewayProxyEvent, 'httpMethod' | 'multiValueHeaders' | 'body'>> & { sourceIp?: string; authorizer?: Record<string, unknown> | null },
): APIGatewayProxyEvent {
  const { sourceIp = '127.0.0.1', authorizer = null, ...http } = request;
  return {
    resource: http.path,
    httpMethod: 'GET',
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    ...http,
    requestContext: { requestId: 'req-1', identity: { sourceIp }, authorizer },
  } as unknown as APIGatewayProxyEvent;
}
