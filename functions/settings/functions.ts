import { processEnvironment } from './environment.ts';
import { parseSettings, type Environment, type SettingName, type Settings } from './schema.ts';

/**
 * Each function's slice of the settings (functions/settings/schema.ts): what it reads, and all the
 * stack gives it (lib/api-function.ts sets exactly these variables, test/infra/settings.test.ts
 * checks). A handler parses its slice at cold start with `functionSettings('<its handler>')`, and
 * the adapters it builds take typed slices, so reading a setting outside the slice does not compile.
 */
export const SLICES = {
  /** Every function: the metric dimension, and Node's options. */
  common: ['STAGE', 'NODE_OPTIONS'],
  table: ['TABLE_NAME', 'DYNAMODB_ENDPOINT'],
  deposits: ['DEPOSIT_ACCOUNT_XPUB', 'DEPOSIT_REQUIRED_CONFIRMATIONS', 'EVM_NETWORKS', 'SOLANA'],
  withdrawalRules: ['WITHDRAWAL_FEE_USDT', 'WITHDRAWAL_MINIMUM_USDT', 'EVM_NETWORKS', 'SOLANA'],
  /** The waiting period of the withdrawal allowlist's and the daily limit's widening changes. */
  withdrawalAllowlist: ['WITHDRAWAL_ADDRESS_DELAY_HOURS'],
  pricing: ['PRICE_SOURCE', 'STATIC_USDT_BRL_RATE', 'PRICE_SOURCE_URL', 'CONVERSION_SPREAD_BPS'],
  webhookUrls: ['STAGE', 'WEBHOOK_ALLOW_LOOPBACK_HTTP'],
  webhookSealer: ['STAGE', 'WEBHOOK_SECRET_SEALER', 'WEBHOOK_SECRET_KMS_KEY_ID', 'LOCAL_WEBHOOK_SEALING_KEY'],
  webhookSending: ['STAGE', 'WEBHOOK_ALLOW_LOOPBACK_HTTP', 'WEBHOOK_RETRY_SCHEDULE', 'WEBHOOK_TIMEOUT_MS'],
  /** The SQS pair in AWS; locally an in-process queue journaled in the table, whose visibility follows the sender's timeout. */
  deliveryQueue: ['STAGE', 'WEBHOOK_QUEUE_URL', 'WEBHOOK_DLQ_URL', 'TABLE_NAME', 'DYNAMODB_ENDPOINT', 'WEBHOOK_TIMEOUT_MS'],
  chain: ['CHAIN_ADAPTER', 'USDT_CONTRACT', 'SANDBOX_BLOCK_INTERVAL_MS', 'DEPOSIT_REQUIRED_CONFIRMATIONS', 'TRONGRID_URL', 'TRONGRID_API_KEY_SECRET', 'EVM_NETWORKS', 'SOLANA'],
  /** Building and signing USDT transfers: the fee cap is the transfer builder's. */
  transfers: ['WITHDRAWAL_FEE_LIMIT_SUN'],
  hotWallet: ['SIGNER', 'SIGNER_KMS_KEY_ID', 'EVM_SIGNER_KMS_KEY_IDS', 'SOLANA_SIGNER_KMS_KEY_ID', 'SIGNER_SECRET_ID', 'LOCAL_HOT_WALLET_KEY'],
  sweeps: ['SWEEP_MINIMUM_USDT', 'SWEEP_TOP_UP_SUN', 'SWEEP_ACCOUNT_XPRV_SECRET', 'LOCAL_DEPOSIT_ACCOUNT_XPRV'],
  userPool: ['COGNITO_USER_POOL_ID', 'COGNITO_CLIENT_ID', 'COGNITO_ENDPOINT', 'COGNITO_ISSUER'],
  /** functions/http/dashboard-route.ts checks each request's Origin against it. */
  dashboardRoute: ['DASHBOARD_ORIGIN', 'DASHBOARD_RECENT_SIGN_IN_SECONDS'],
  /** The stage's mail (functions/adapters/mail/from-settings.ts): SES in AWS, a folder locally. */
  mail: ['STAGE', 'MAIL_FROM', 'MAIL_CONFIGURATION_SET', 'LOCAL_OUTBOX_DIR'],
  /** Where OFAC's list is downloaded from (functions/screening/screening-refresh.ts). */
  screening: ['SCREENING_LIST_URL'],
  /** The contracts Cambio uses on each network, never a destination (functions/withdrawals/refused-destinations.ts). */
  contracts: ['USDT_CONTRACT', 'EVM_NETWORKS', 'SOLANA'],
} as const satisfies Record<string, readonly SettingName[]>;

const { common, table, deposits, withdrawalRules, withdrawalAllowlist, pricing, webhookUrls, webhookSealer, webhookSending, deliveryQueue, chain, transfers, hotWallet, sweeps, userPool, dashboardRoute, mail, screening, contracts } =
  SLICES;
const api = [...common, ...table] as const;
const dashboard = [...api, ...dashboardRoute] as const;
const people = [...dashboard, ...userPool] as const;
/** The routes that open, use or end a session (functions/handlers/dashboard/session-deps.ts): they seal
 * and open its Cognito tokens with the stage's sealer for secrets at rest (functions/adapters/dashboard-session-sealer.ts). */
const sessions = [...people, ...webhookSealer] as const;
/** The dashboard routes that mail the company's people: keys issued or widened, invitations, the two-factor rule. */
const dashboardMailing = [...dashboard, ...mail] as const;
/** Integrations → API keys (functions/handlers/dashboard/key-deps.ts) and Team's invitations
 * (team-deps.ts): a full-access key, or an invitation to a role that reaches money, checks the
 * person's password at the user pool. */
const mailingWithProof = [...dashboardMailing, ...userPool] as const;
/** The Webhooks pages: /v1's webhook rules and sealing, and the delivery queue (test events, resends). */
const dashboardWebhooks = [...dashboard, ...webhookUrls, ...webhookSealer, ...deliveryQueue] as const;

/** Handler module (functions/routes.ts) → its settings. */
export const FUNCTION_SETTINGS = {
  /** RATE_LIMIT_TIERS: the company's rate limit is shown with its tier's figures. */
  'company/get-company': [...api, 'RATE_LIMIT_TIERS'],
  'company/get-balance': api,
  'deposits/create-deposit': [...api, ...deposits, ...contracts],
  'deposits/get-deposit': api,
  'withdrawals/create-withdrawal': [...api, ...withdrawalRules, ...contracts],
  'withdrawals/get-withdrawal': api,
  'conversions/create-quote': [...api, ...pricing],
  'conversions/create-conversion': api,
  'conversions/list-conversions': api,
  'conversions/get-conversion': api,
  'webhooks/list-webhooks': api,
  'webhooks/create-webhook': [...api, ...webhookUrls, ...webhookSealer],
  'webhooks/get-webhook': api,
  'webhooks/replace-webhook': [...api, ...webhookUrls],
  'webhooks/delete-webhook': api,
  'auth/authorizer': api,
  /** Reads the sign-out records: a session from before a sign-out is refused. */
  'auth/session-authorizer': [...common, ...table, ...userPool],
  /** EVM_NETWORKS: the networks the pages offer (New withdrawal, the allowlist), by name only. */
  'dashboard/get-stage': [...common, ...dashboardRoute, 'STAGE_ENVIRONMENT', ...mail, 'EVM_NETWORKS', 'SOLANA'],
  /** Sign-up and proving its address (functions/handlers/dashboard/sign-up-deps.ts) share one slice. */
  'dashboard/sign-up': [...sessions, 'STAGE_ENVIRONMENT', 'SIGN_UP_ANSWER_MS', ...mail],
  'dashboard/verify-email': [...sessions, 'STAGE_ENVIRONMENT', 'SIGN_UP_ANSWER_MS', ...mail],
  'dashboard/resend-verification': [...sessions, 'STAGE_ENVIRONMENT', 'SIGN_UP_ANSWER_MS', ...mail],
  'dashboard/sign-in': sessions,
  'dashboard/sign-in-two-factor': sessions,
  'dashboard/confirm-session': sessions,
  'dashboard/get-two-factor': sessions,
  'dashboard/start-two-factor-setup': sessions,
  'dashboard/confirm-two-factor': sessions,
  'dashboard/turn-off-two-factor': sessions,
  'dashboard/refresh-session': sessions,
  'dashboard/sign-out': sessions,
  'dashboard/accept-invitation': sessions,
  'dashboard/request-password-reset': [...people, ...mail],
  'dashboard/reset-password': people,
  'dashboard/change-password': sessions,
  /** The dashboard API's one Lambda in AWS (functions/handlers/dashboard/api.ts) runs every dashboard
   * route's module below, so it holds their union (test/unit/settings-dashboard-api.test.ts); the
   * simulator, which reads the chain settings, has a function of its own. */
  'dashboard/api': [...people, 'STAGE_ENVIRONMENT', 'SIGN_UP_ANSWER_MS', ...contracts, ...webhookUrls, ...webhookSealer, ...deliveryQueue, ...mail, ...withdrawalAllowlist, ...withdrawalRules, 'RATE_LIMIT_TIERS'],
  'dashboard/get-me': dashboard,
  'dashboard/get-overview': [...dashboard, 'RATE_LIMIT_TIERS'],
  'dashboard/list-api-keys': dashboard,
  'dashboard/create-api-key': mailingWithProof,
  'dashboard/roll-api-key': mailingWithProof,
  'dashboard/revoke-api-key': mailingWithProof,
  'dashboard/change-api-key-allowed-ips': mailingWithProof,
  'dashboard/list-audit-log': dashboard,
  'dashboard/list-team': dashboard,
  'dashboard/invite-member': mailingWithProof,
  'dashboard/change-member-role': [...dashboard, ...userPool],
  'dashboard/remove-member': dashboard,
  'dashboard/revoke-invitation': dashboard,
  'dashboard/resend-invitation': mailingWithProof,
  'dashboard/change-two-factor-requirement': dashboardMailing,
  'dashboard/activity': dashboard,
  'dashboard/list-webhooks': dashboardWebhooks,
  'dashboard/add-webhook': dashboardWebhooks,
  'dashboard/get-webhook': dashboardWebhooks,
  'dashboard/change-webhook': dashboardWebhooks,
  'dashboard/delete-webhook': dashboardWebhooks,
  'dashboard/list-webhook-attempts': dashboardWebhooks,
  'dashboard/resend-webhook-event': dashboardWebhooks,
  'dashboard/send-test-event': dashboardWebhooks,
  'dashboard/roll-webhook-secret': dashboardWebhooks,
  // The allowlist's and the limit's routes build their deps from one slice (allowlist-deps.ts): adding
  // an address checks it is none of Cambio's contracts.
  'dashboard/get-withdrawal-allowlist': [...dashboard, ...withdrawalAllowlist, ...contracts],
  'dashboard/switch-withdrawal-allowlist': [...dashboard, ...withdrawalAllowlist, ...mail, ...contracts],
  'dashboard/add-withdrawal-address': [...dashboard, ...withdrawalAllowlist, ...mail, ...contracts],
  'dashboard/remove-withdrawal-address': [...dashboard, ...withdrawalAllowlist, ...mail, ...contracts],
  'dashboard/get-withdrawal-limit': [...dashboard, ...withdrawalAllowlist, ...mail, ...contracts],
  'dashboard/change-withdrawal-limit': [...dashboard, ...withdrawalAllowlist, ...mail, ...contracts],
  'dashboard/send-withdrawal': [...people, ...withdrawalRules, ...contracts],
  'dashboard/export-activity': dashboard,
  'dashboard/download-statement': dashboard,
  /** Pays on the sandbox chain (sandbox stages only; null payer elsewhere); a function of its own
   * (DASHBOARD_SIMULATOR in functions/routes.ts). */
  'dashboard-simulator/simulate-payment': [...dashboard, ...chain],
  'jobs/deposit-poller': [...api, ...chain],
  /** Reads the hot wallet's address (the sandbox chain funds it) and signs with it. */
  'jobs/withdrawal-sender': [...api, ...chain, ...transfers, ...hotWallet],
  'jobs/deposit-sweeper': [...api, ...chain, ...transfers, ...hotWallet, ...sweeps],
  /** Reads the hot wallet's address, never signs (the stack grants kms:GetPublicKey only). */
  'jobs/reconcile': [...api, ...chain, ...hotWallet],
  'jobs/webhook-dispatcher': [...api, ...deliveryQueue, 'WEBHOOK_CATCH_UP_MIN_AGE_MS'],
  /** Mails an endpoint's managers when it gives up on an event, where the stage mails. */
  'jobs/webhook-sender': [...api, ...deliveryQueue, ...webhookSending, ...webhookSealer, ...mail, 'POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS'],
  'jobs/usage-key-provisioner': [...common, 'USAGE_PLAN_IDS'],
  'jobs/finance-export-check': [...common, 'EXPORT_TABLE_ARN'],
  /** Downloads OFAC's list daily into the table's screening list; reports its age hourly. */
  'jobs/screening-refresh': [...api, ...screening],
  'jobs/ledger-day-csv': [...common, 'LEDGER_BUCKET'],
} as const satisfies Record<string, readonly SettingName[]>;

export type FunctionName = keyof typeof FUNCTION_SETTINGS;
export type FunctionSettings<F extends FunctionName> = Settings<(typeof FUNCTION_SETTINGS)[F][number]>;

export function isFunctionName(handler: string): handler is FunctionName {
  return Object.hasOwn(FUNCTION_SETTINGS, handler);
}

/** The function's slice, parsed once at its cold start; a bad or missing value throws naming the variable. */
export function functionSettings<F extends FunctionName>(handler: F, env: Environment = processEnvironment): FunctionSettings<F> {
  return parseSettings(FUNCTION_SETTINGS[handler], env) as FunctionSettings<F>;
}

/** A typed view of a slice, for the adapters that take one. */
export type SliceSettings<S extends keyof typeof SLICES> = Settings<(typeof SLICES)[S][number]>;
