import type { APIGatewayAuthorizerResult } from 'aws-lambda';

/** Whether an authorizer's policy lets the request's method ARN through, as API Gateway reads it:
 * an explicit Deny wins, then any Allow; `*` in a resource matches any run of characters. */
export function policyAllows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  const statements = result.policyDocument.Statement as { Effect: string; Resource?: string | string[] }[];
  const matches = (statement: { Resource?: string | string[] }) =>
    [statement.Resource ?? []].flat().some((resource) => arnPattern(resource).test(methodArn));
  if (statements.some((s) => s.Effect === 'Deny' && matches(s))) return false;
  return statements.some((s) => s.Effect === 'Allow' && matches(s));
}

const compiledArnPatterns = new Map<string, RegExp>();

function arnPattern(resource: string): RegExp {
  let pattern = compiledArnPatterns.get(resource);
  if (!pattern) {
    pattern = compileArnPattern(resource);
    compiledArnPatterns.set(resource, pattern);
  }
  return pattern;
}

function compileArnPattern(resource: string): RegExp {
  return new RegExp(`^${resource.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}
