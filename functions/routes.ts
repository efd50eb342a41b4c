/**
 * The one route table. The CDK stack makes an API Gateway method and a Lambda per entry, and the
 * local runtime serves the same entries with the same handler modules, so the two cannot drift.
 * `handler` is the module under functions/ (without .ts) that exports `handler`.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteSpec {
  method: HttpMethod;
  /** API Gateway resource path syntax: `{id}` is a path parameter. */
  path: string;
  handler: string;
  /** The least table access the handler needs; the stack grants exactly this. */
  tableAccess: 'read' | 'readWrite';
}

export const ROUTES: readonly RouteSpec[] = [
  { method: 'GET', path: '/v1/company', handler: 'company/get-company', tableAccess: 'read' },
  { method: 'GET', path: '/v1/company/balance', handler: 'company/get-balance', tableAccess: 'read' },
  { method: 'POST', path: '/v1/deposits', handler: 'deposits/create-deposit', tableAccess: 'readWrite' },
  { method: 'GET', path: '/v1/deposits/{id}', handler: 'deposits/get-deposit', tableAccess: 'read' },
  { method: 'POST', path: '/v1/withdrawals', handler: 'withdrawals/create-withdrawal', tableAccess: 'readWrite' },
  { method: 'GET', path: '/v1/withdrawals/{id}', handler: 'withdrawals/get-withdrawal', tableAccess: 'read' },
  { method: 'POST', path: '/v1/conversions/quote', handler: 'conversions/create-quote', tableAccess: 'readWrite' },
  { method: 'POST', path: '/v1/conversions', handler: 'conversions/create-conversion', tableAccess: 'readWrite' },
  { method: 'GET', path: '/v1/conversions', handler: 'conversions/list-conversions', tableAccess: 'read' },
  { method: 'GET', path: '/v1/conversions/{id}', handler: 'conversions/get-conversion', tableAccess: 'read' },
  { method: 'GET', path: '/v1/webhooks', handler: 'webhooks/list-webhooks', tableAccess: 'read' },
  { method: 'POST', path: '/v1/webhooks', handler: 'webhooks/create-webhook', tableAccess: 'readWrite' },
  { method: 'GET', path: '/v1/webhooks/{id}', handler: 'webhooks/get-webhook', tableAccess: 'read' },
  { method: 'PUT', path: '/v1/webhooks/{id}', handler: 'webhooks/replace-webhook', tableAccess: 'readWrite' },
  { method: 'DELETE', path: '/v1/webhooks/{id}', handler: 'webhooks/delete-webhook', tableAccess: 'readWrite' },
];

/**
 * The dashboard's API (../shared/dashboard.md): for the web app only, not part of the /v1 contract
 * and never in openapi.json. `session` routes run behind the session authorizer, which verifies the
 * Cognito access token in the HttpOnly session cookie; `public` routes (sign-up, sign-in and the
 * session's own) check what they need themselves. Roles are checked in each handler's wrapper
 * (functions/http/dashboard-route.ts).
 */
export interface DashboardRouteSpec extends RouteSpec {
  auth: 'public' | 'session';
  /**
   * A route that can add a person, raise a role, mint a credential or a token, or change where money
   * or events go needs a sign-in of the last DASHBOARD_RECENT_SIGN_IN_SECONDS (functions/people/
   * step-up.ts), so a session cookie copied from a browser cannot do it once the person's own
   * sign-in is that old. `always`: the route's wrapper refuses before the body is read;
   * `someChanges`: the handler asks for it for the changes that need it (a webhook's new URL).
   * docs/dashboard-api.md lists them, and a test keeps that list equal to this one.
   */
  recentSignIn?: 'always' | 'someChanges';
}

const dashboard = (
  method: HttpMethod,
  path: string,
  handler: string,
  tableAccess: RouteSpec['tableAccess'],
  auth: DashboardRouteSpec['auth'],
  recentSignIn?: DashboardRouteSpec['recentSignIn'],
): DashboardRouteSpec => ({
  method,
  path: `/dashboard/api${path}`,
  handler: `dashboard/${handler}`,
  tableAccess,
  auth,
  ...(recentSignIn && { recentSignIn }),
});

/** The one Lambda that serves every route of DASHBOARD_ROUTES in AWS (functions/handlers/dashboard/api.ts
 * picks the route's module); `tableAccess` of a dashboard route documents its need, and that Lambda's
 * role holds the union. The simulator and the downloads (below) have functions of their own. */
export const DASHBOARD_API = { handler: 'dashboard/api' } as const;

export const DASHBOARD_ROUTES: readonly DashboardRouteSpec[] = [
  dashboard('GET', '/stage', 'get-stage', 'read', 'public'),
  dashboard('POST', '/sign-up', 'sign-up', 'readWrite', 'public'),
  dashboard('POST', '/sign-up/verify', 'verify-email', 'readWrite', 'public'),
  dashboard('POST', '/sign-up/resend', 'resend-verification', 'readWrite', 'public'),
  dashboard('POST', '/session', 'sign-in', 'readWrite', 'public'),
  dashboard('POST', '/session/refresh', 'refresh-session', 'read', 'public'),
  dashboard('POST', '/session/two-factor', 'sign-in-two-factor', 'readWrite', 'public'),
  dashboard('DELETE', '/session', 'sign-out', 'readWrite', 'public'),
  dashboard('POST', '/session/confirm', 'confirm-session', 'readWrite', 'session'),
  dashboard('POST', '/invitations/accept', 'accept-invitation', 'readWrite', 'public'),
  dashboard('POST', '/password-reset', 'request-password-reset', 'readWrite', 'public'),
  dashboard('POST', '/password-reset/confirm', 'reset-password', 'readWrite', 'public'),
  dashboard('GET', '/me', 'get-me', 'read', 'session'),
  dashboard('GET', '/me/two-factor', 'get-two-factor', 'read', 'session'),
  dashboard('POST', '/me/two-factor/setup', 'start-two-factor-setup', 'read', 'session', 'always'),
  dashboard('POST', '/me/two-factor/confirm', 'confirm-two-factor', 'readWrite', 'session', 'always'),
  dashboard('POST', '/me/two-factor/turn-off', 'turn-off-two-factor', 'readWrite', 'session', 'always'),
  dashboard('POST', '/me/password', 'change-password', 'readWrite', 'session'),
  dashboard('GET', '/companies/{companyId}', 'get-overview', 'read', 'session'),
  dashboard('GET', '/companies/{companyId}/api-keys', 'list-api-keys', 'read', 'session'),
  // A full-access key's secret is confirmed with the password instead (functions/api-keys/key-management.ts).
  dashboard('POST', '/companies/{companyId}/api-keys', 'create-api-key', 'readWrite', 'session', 'someChanges'),
  dashboard('POST', '/companies/{companyId}/api-keys/{keyId}/roll', 'roll-api-key', 'readWrite', 'session', 'someChanges'),
  dashboard('POST', '/companies/{companyId}/api-keys/{keyId}/revoke', 'revoke-api-key', 'readWrite', 'session'),
  dashboard('PUT', '/companies/{companyId}/api-keys/{keyId}/allowed-ips', 'change-api-key-allowed-ips', 'readWrite', 'session', 'always'),
  dashboard('GET', '/companies/{companyId}/audit-log', 'list-audit-log', 'read', 'session'),
  dashboard('GET', '/companies/{companyId}/activity/{kind}', 'activity', 'read', 'session'),
  dashboard('POST', '/companies/{companyId}/withdrawals', 'send-withdrawal', 'readWrite', 'session'),
  dashboard('GET', '/companies/{companyId}/webhooks', 'list-webhooks', 'read', 'session'),
  dashboard('POST', '/companies/{companyId}/webhooks', 'add-webhook', 'readWrite', 'session', 'always'),
  dashboard('GET', '/companies/{companyId}/webhooks/{webhookId}', 'get-webhook', 'read', 'session'),
  dashboard('PUT', '/companies/{companyId}/webhooks/{webhookId}', 'change-webhook', 'readWrite', 'session', 'someChanges'),
  dashboard('DELETE', '/companies/{companyId}/webhooks/{webhookId}', 'delete-webhook', 'readWrite', 'session'),
  dashboard('GET', '/companies/{companyId}/webhooks/{webhookId}/attempts', 'list-webhook-attempts', 'read', 'session'),
  dashboard('POST', '/companies/{companyId}/webhooks/{webhookId}/attempts/resend', 'resend-webhook-event', 'readWrite', 'session'),
  dashboard('POST', '/companies/{companyId}/webhooks/{webhookId}/test-events', 'send-test-event', 'readWrite', 'session'),
  dashboard('POST', '/companies/{companyId}/webhooks/{webhookId}/roll-secret', 'roll-webhook-secret', 'readWrite', 'session', 'always'),
  dashboard('GET', '/companies/{companyId}/team', 'list-team', 'read', 'session'),
  dashboard('PUT', '/companies/{companyId}/two-factor-requirement', 'change-two-factor-requirement', 'readWrite', 'session', 'always'),
  // An invitation to a role above Viewer, or a raise, is confirmed with the password instead (functions/people/team-members.ts).
  dashboard('POST', '/companies/{companyId}/team/invitations', 'invite-member', 'readWrite', 'session', 'someChanges'),
  dashboard('DELETE', '/companies/{companyId}/team/invitations/{invitationId}', 'revoke-invitation', 'readWrite', 'session'),
  dashboard('POST', '/companies/{companyId}/team/invitations/{invitationId}/resend', 'resend-invitation', 'readWrite', 'session', 'always'),
  dashboard('PUT', '/companies/{companyId}/team/members/{personId}', 'change-member-role', 'readWrite', 'session', 'someChanges'),
  dashboard('DELETE', '/companies/{companyId}/team/members/{personId}', 'remove-member', 'readWrite', 'session'),
  dashboard('GET', '/companies/{companyId}/withdrawal-allowlist', 'get-withdrawal-allowlist', 'read', 'session'),
  dashboard('PUT', '/companies/{companyId}/withdrawal-allowlist', 'switch-withdrawal-allowlist', 'readWrite', 'session', 'always'),
  dashboard('POST', '/companies/{companyId}/withdrawal-allowlist/addresses', 'add-withdrawal-address', 'readWrite', 'session', 'always'),
  dashboard('DELETE', '/companies/{companyId}/withdrawal-allowlist/addresses/{address}', 'remove-withdrawal-address', 'readWrite', 'session'),
  dashboard('GET', '/companies/{companyId}/withdrawal-limit', 'get-withdrawal-limit', 'read', 'session'),
  dashboard('PUT', '/companies/{companyId}/withdrawal-limit', 'change-withdrawal-limit', 'readWrite', 'session', 'always'),
];

/**
 * `Simulate payment` (sandbox companies): a dashboard route served by a function of its own rather
 * than the one Lambda, since it carries every network's sandbox chain (TRON's in the table, viem for
 * the local EVM nodes, @solana/kit for the local Solana node): a quarter of that Lambda's bundle when
 * it was there (test/infra/bundles.test.ts), on the cold start of every click, for a button only
 * sandbox companies use. Its module is outside functions/handlers/dashboard/, which that Lambda
 * bundles whole. Same path, session, CSRF and role checks (functions/http/dashboard-route.ts).
 */
export const DASHBOARD_SIMULATOR: DashboardRouteSpec = {
  ...dashboard('POST', '/companies/{companyId}/simulated-payments', 'simulate-payment', 'readWrite', 'session'),
  handler: 'dashboard-simulator/simulate-payment',
};

/** Dashboard routes whose answer is a file streamed as it is made (functions/http/dashboard-
 * download.ts): each is a Lambda of its own, since a streaming function answers through a response
 * stream rather than a return value, with API Gateway's STREAM transfer mode (lib/dashboard.ts). */
/** How long a download's function may stream (lib/dashboard.ts; the local runtime gives its
 * handlers the same): what a large export or a year's statement takes to read at DynamoDB's pace. */
export const DOWNLOAD_TIMEOUT_SECONDS = 300;

export const DASHBOARD_DOWNLOADS: readonly DashboardRouteSpec[] = [
  dashboard('GET', '/companies/{companyId}/activity/{kind}/export', 'export-activity', 'read', 'session'),
  dashboard('GET', '/companies/{companyId}/statement', 'download-statement', 'read', 'session'),
];

/** Verifies the session cookie's Cognito access token (aws-jwt-verify); its answer is cached per
 * Cookie header. Cookies do not fit API Gateway's Cognito authorizer, which reads a bearer token
 * from one header, so this is a Lambda authorizer (docs/dashboard-api.md). */
export const SESSION_AUTHORIZER = {
  handler: 'auth/session-authorizer',
  identityHeaders: ['Cookie'],
  /** Not cached: a sign-out, a changed password or a reset must end the person's other sessions at
   * their next request (functions/people/sign-outs.ts), not when a cached answer lapses. People's
   * requests are few; one authorizer call and one read each is their price. */
  cacheSeconds: 0,
} as const;

export const AUTHORIZER = {
  handler: 'auth/authorizer',
  /** Both are identity sources: API Gateway refuses a request missing either without invoking the
   * authorizer, and caches each (key, secret) pair's answer separately. */
  identityHeaders: ['X-Api-Key', 'X-Api-Secret'],
} as const;

export function lambdaName(handler: string): string {
  return handler
    .split(/[/-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** The functions no route reaches: scheduled (EventBridge in AWS, a timer in the local runtime),
 * or started by a stream, a queue or an S3 object. */
export const JOBS = {
  depositPoller: { handler: 'jobs/deposit-poller' },
  /** The only function that can sign: sends pending withdrawals and settles sent ones. */
  withdrawalSender: { handler: 'jobs/withdrawal-sender' },
  /** Moves confirmed deposit funds to the hot wallet; the only holder of the HD account key. */
  depositSweeper: { handler: 'jobs/deposit-sweeper' },
  /** Compares the wallets with the ledger, hourly (sandbox chain only for now); publishes the
   * reconcile metrics the stack alarms on. */
  reconcile: { handler: 'jobs/reconcile' },
  /** Checks, hourly after the daily finance export's start, that the export completed; publishes the
   * FinanceExportFailed metric the stack alarms on. AWS only: DynamoDB Local has no exports. */
  financeExportCheck: { handler: 'jobs/finance-export-check' },
  /** Turns each completed daily export into `ledger/YYYY/MM/DD.csv` for finance (README, Finance).
   * AWS only: started by the export's manifest-summary.json landing in S3. */
  ledgerDayCsv: { handler: 'jobs/ledger-day-csv' },
  /** Imports OFAC's SDN list into the screening list daily, and reports the list's age hourly
   * (functions/screening/screening-refresh.ts); the ScreeningListAge alarm watches it. AWS only: the
   * local runtime has the shipped snapshot (config/screening/). */
  screeningRefresh: { handler: 'jobs/screening-refresh' },
  /** Creates each new company's API Gateway key in the stage's usage plan (functions/api-keys/rate-limits.ts). */
  usageKeyProvisioner: { handler: 'jobs/usage-key-provisioner' },
  /**
   * Webhook delivery (../shared/api-contract.md, Events and their delivery). The dispatcher runs on
   * the table's stream (event inserts) and, as a safety net, on a schedule over the events still
   * marked undispatched; the sender consumes the webhook queue. Both run on timers in the local runtime.
   */
  webhookDispatcher: { handler: 'jobs/webhook-dispatcher' },
  webhookSender: { handler: 'jobs/webhook-sender' },
} as const;
