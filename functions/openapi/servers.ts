/** The path every route starts with: part of each server URL below, so the documented paths
 * (`/company`, `/deposits/{id}`) are relative to it and a generator's base URL is `ApiUrl` itself. */
export const API_BASE_PATH = '/v1';

/** The documented path of a route of the route table (`/v1/company` → `/company`). */
export function documentedPath(routePath: string): string {
  if (!routePath.startsWith(`${API_BASE_PATH}/`)) throw new Error(`${routePath} is outside ${API_BASE_PATH}`);
  return routePath.slice(API_BASE_PATH.length);
}

/**
 * Where integrators reach the API: each server URL is exactly what a client is configured with,
 * ending in /v1. A deployed stage is the stack's `ApiUrl` output (test/infra/stack.test.ts renders
 * it from the template and compares). No named host stands in for it: credentials sent to a host
 * nobody owns would go to whoever registers it (docs/api-notes.md, Integrators' kit). The
 * variables are explained in the server's description, not their own: validators built on the
 * published 3.1 schema (swagger-parser here) reject a variable's `description`, a typo in that
 * schema (OAI/OpenAPI-Specification#2793, APIDevTools/swagger-cli#83).
 */
export const SERVERS = [
  {
    url: `https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}${API_BASE_PATH}`,
    description:
      "A deployed stage: exactly its `ApiUrl` stack output (`cdk deploy` prints it). `restApiId` is that URL's first label, `region` the stack's AWS region, `stage` the stage (`cdk deploy -c stage=…`), also the API Gateway stage's name",
    variables: {
      restApiId: { default: 'restApiId' },
      region: { default: 'us-east-1' },
      stage: { enum: ['sandbox', 'production'], default: 'sandbox' },
    },
  },
  {
    url: `http://127.0.0.1:{port}${API_BASE_PATH}`,
    description: 'Local runtime (`npm start` prints this URL; `PORT=… npm start` for another port): sandbox chain, no AWS',
    variables: { port: { default: '3000' } },
  },
] as const;
