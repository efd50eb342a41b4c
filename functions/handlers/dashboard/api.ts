import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { DASHBOARD_ROUTES } from '../../routes.ts';
import { errorEnvelope, JSON_HEADERS } from '#http/envelope';

type RouteHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/**
 * The dashboard API's one Lambda in AWS (lib/dashboard.ts): each route's handler module in
 * this folder is small and on its own, and this picks the route's module by the method and
 * resource API Gateway matched. One function rather than one per route, because the dashboard is
 * one web app with little traffic: per-route functions would each be cold on most clicks,
 * and cost about ten CloudFormation resources a route (function, role, policy, log group,
 * permissions, two alarms) against the stack's 500. Its role is the union of the routes' needs.
 *
 * Modules load on first use: the import's template is one esbuild bundles as every module of
 * this folder, and tsx and Node resolve at run time.
 */
const ROUTE_MODULES = new Map(DASHBOARD_ROUTES.map((route) => [`${route.method} ${route.path}`, route.handler.slice('dashboard/'.length)]));

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  const module = ROUTE_MODULES.get(`${event.httpMethod} ${event.resource}`);
  // API Gateway routes only the table's methods here: another means a deploy out of step with it.
  if (!module) return { statusCode: 404, headers: JSON_HEADERS, body: errorEnvelope('NOT_FOUND', 'No such dashboard route') };
  // Node's module cache makes every import after the first a lookup.
  const { handler: routeHandler } = (await import(`./${module}.ts`)) as { handler: RouteHandler };
  return routeHandler(event, context);
}
