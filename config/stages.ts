import type { Environment } from '#functions/api-keys/api-keys';
import { FIRST_TIER, type RateLimit } from '#functions/api-keys/rate-limits';
import { TEST_MNEMONIC_ACCOUNT_XPUB } from '#functions/networks/tron/tron-address';
import { CONTRACT_RETRY_SCHEDULE } from '#functions/webhooks/webhook-delivery';
import { checkStageSettings, type StageFigures } from '#functions/settings/schema';
import { stageThrottleOf, tierProblemsOf, wafRatePer5MinutesOf, type StageCapacity } from './capacity.ts';

/**
 * Per-stage configuration: the only thing that differs between `cdk deploy -c stage=sandbox` and
 * `-c stage=production`. `local` is what `npm start` runs with. The stack (lib/) and the local
 * runtime (local/) both read it, so it belongs to neither: it stays data, with no CDK and no
 * runtime code, and neither of them has to import the other for it.
 */
/** Tether's USDT on TRON mainnet (../shared/tron-notes.md): the only contract whose transfers count. */
export const MAINNET_USDT_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

export type StageName = 'local' | 'sandbox' | 'production';

export interface StageConfig {
  stage: StageName;
  environment: Environment;
  /** What the stage is sized for (config/capacity.ts, docs/capacity.md): its throttle, each
   * company's tiers and the WAF rule follow from it. */
  capacity: StageCapacity;
  /** API Gateway stage throttling (steady requests per second and burst), also applied locally:
   * every company at the first tier at once, `capacity.companiesAtPlanRate` of them. */
  throttle: { rateLimit: number; burstLimit: number };
  /**
   * The first tier's figures (`capacity.tiers`): every new company's own limit (its tier's usage plan
   * in AWS, its token bucket locally; functions/api-keys/rate-limits.ts) until ops raise it, below
   * the stage's, so one company's burst leaves room for the others.
   */
  companyRateLimit: RateLimit;
  /** How long API Gateway caches an authorizer answer per (key, secret) pair. */
  authorizerCacheSeconds: number;
  /** Table deletion protection and RETAIN on stack deletion. */
  protectData: boolean;
  /**
   * What keeps a stage running and recoverable (README, Safeguards). `terminationProtection`: the
   * stack refuses `cdk destroy` until it is turned off by hand. `backupRetentionDays`: the AWS
   * Backup plan's daily recovery points of the table (PITR covers 35 days of changes too; a backup
   * survives the table's deletion). `apiLatencyP99Ms`: the ApiLatencyP99 alarm's threshold.
   * (Lambda concurrency follows the capacity model: config/capacity.ts.)
   */
  safeguards: { terminationProtection: boolean; backupRetentionDays: number; apiLatencyP99Ms: number };
  logRetentionDays: number;
  /** How often the chain pollers run. */
  pollerScheduleMinutes: number;
  /**
   * AWS WAF on the API stage (lib/waf.ts: the stage's credential form on /v1 routes, AWS's common
   * rule set, a per-IP rate rule), or null for none (the local runtime).
   * `ratePer5Minutes`: requests one IP may send in any 5 minutes before WAF answers 429.
   */
  waf: { ratePer5Minutes: number } | null;
  /**
   * The stage's figures for the settings its functions read (functions/settings/schema.ts
   * STAGE_SETTINGS: types, ranges, defaults and which choice needs which). Checked against the
   * schema at synth and when the local runtime starts; each function is given only the ones its
   * slice names (functions/settings/functions.ts).
   */
  functionEnvironment: StageFigures;
  /**
   * The BIP44 account xpub (m/44'/195'/0') deposit addresses derive from: a literal for local
   * runs, else the name of an SSM String parameter resolved at deploy time, so no stage's key
   * material lives in this repository.
   */
  depositAccountXpub: { value: string } | { ssmParameter: string };
}

/**
 * The limits a stage takes from its capacity model. A model whose tiers break its rule
 * (config/capacity.ts tierProblemsOf) stops synth and `npm start`.
 */
function rateLimitsOf(capacity: StageCapacity) {
  const problems = tierProblemsOf(capacity);
  if (problems.length > 0) throw new Error(`The capacity model's tiers: ${problems.join('; ')}`);
  return {
    capacity,
    throttle: stageThrottleOf(capacity),
    companyRateLimit: capacity.tiers[FIRST_TIER],
  } as const satisfies Pick<StageConfig, 'capacity' | 'throttle' | 'companyRateLimit'>;
}

/** RATE_LIMIT_TIERS (functions/settings/schema.ts): the tiers' figures by name, which GET /v1/company
 * and the dashboard's Overview read to show a company its own. */
function rateLimitTiersSetting(capacity: StageCapacity): string {
  return JSON.stringify(capacity.tiers);
}

/** The figures every stage shares; each stage's own follow. */
const EVERY_STAGE = {
  // Solidification on TRON: 19 of 27 producers (../shared/tron-notes.md, Finality).
  DEPOSIT_REQUIRED_CONFIRMATIONS: '19',
  CONVERSION_SPREAD_BPS: '50',
  // The sandbox chain stands in for mainnet, so it uses the official contract's address too.
  USDT_CONTRACT: MAINNET_USDT_CONTRACT,
  // ~130k energy for a transfer to an empty account at 100 sun each is 13 TRX; 30 TRX leaves room.
  WITHDRAWAL_FEE_LIMIT_SUN: '30000000',
  SWEEP_TOP_UP_SUN: '15000000',
  WEBHOOK_RETRY_SCHEDULE: CONTRACT_RETRY_SCHEDULE,
  WEBHOOK_TIMEOUT_MS: '15000',
} as const;

/** What every stage in AWS shares: KMS signs and seals; the dispatcher's catch-up pass leaves a
 * minute to the table's stream. */
const DEPLOYED = {
  SIGNER: 'kms',
  // OFAC's Sanctions List Service: the whole SDN list in the advanced XML, downloaded daily
  // (functions/screening/screening-refresh.ts).
  SCREENING_LIST_URL: 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN_ADVANCED.XML',
  WEBHOOK_CATCH_UP_MIN_AGE_MS: '60000',
  WEBHOOK_SECRET_SEALER: 'kms',
} as const;

/** The sandbox's money, which the local runtime uses too: low fees and minimums, a fixed rate, the
 * sandbox chain, and an allowlisted address usable at once, so integrators can try the allowlist
 * (production waits 24 h). */
const SANDBOX_MONEY = {
  WITHDRAWAL_FEE_USDT: '1.000000',
  WITHDRAWAL_MINIMUM_USDT: '1.000000',
  WITHDRAWAL_ADDRESS_DELAY_HOURS: '0',
  PRICE_SOURCE: 'static',
  STATIC_USDT_BRL_RATE: '5.40000000',
  CHAIN_ADAPTER: 'sandbox',
  SWEEP_MINIMUM_USDT: '1.000000',
} as const;

const PRODUCTION_CAPACITY: StageCapacity = {
  tiers: {
    standard: { rateLimit: 50, burstLimit: 100 },
    growth: { rateLimit: 200, burstLimit: 400 },
    scale: { rateLimit: 1_000, burstLimit: 2_000 },
  },
  // 2,000 requests a second on each method, which API Gateway throttles apart (a bucket per method,
  // none for the stage): forty companies at the standard tier at once on one route (docs/capacity.md).
  companiesAtPlanRate: 40,
  // Two standard companies' servers behind one address (a shared egress) both reach their limit.
  companiesPerAddress: 2,
  dashboard: { rateLimit: 50, burstLimit: 100 },
  // A delivery waits up to its endpoint's timeout: 50 in flight send several hundred a second to
  // endpoints that answer in a tenth of a second.
  webhookSenderConcurrency: 50,
  lambdaConcurrencyQuota: 1_000,
};
const PRODUCTION_RATE_LIMITS = rateLimitsOf(PRODUCTION_CAPACITY);

/**
 * The sandbox stage's throttles, which the local runtime enforces too: an integrator meets the 429s
 * of the stage they will call on their own machine first. Production's, with lower rates at each
 * tier and fewer webhook deliveries in flight. Benchmarks and test suites that drive one company hard set their own
 * (local/runtime.ts LOAD_TEST_RATE_LIMITS).
 */
const SANDBOX_CAPACITY: StageCapacity = {
  ...PRODUCTION_CAPACITY,
  tiers: { standard: { rateLimit: 10, burstLimit: 20 }, growth: { rateLimit: 50, burstLimit: 100 }, scale: { rateLimit: 100, burstLimit: 200 } },
  // 200 requests a second for all companies together: twenty at the standard tier at once.
  companiesAtPlanRate: 20,
  webhookSenderConcurrency: 5,
};
const SANDBOX_RATE_LIMITS = rateLimitsOf(SANDBOX_CAPACITY);

export const STAGES: Record<StageName, StageConfig> = {
  local: {
    stage: 'local',
    environment: 'sandbox',
    ...SANDBOX_RATE_LIMITS,
    authorizerCacheSeconds: 60,
    protectData: false,
    safeguards: { terminationProtection: false, backupRetentionDays: 35, apiLatencyP99Ms: 3000 },
    logRetentionDays: 1,
    pollerScheduleMinutes: 1,
    waf: null,
    functionEnvironment: {
      ...EVERY_STAGE,
      ...SANDBOX_MONEY,
      RATE_LIMIT_TIERS: rateLimitTiersSetting(SANDBOX_CAPACITY),
      SIGNER: 'local',
      // sha256("cambio local hot wallet"): address TAxAByvCAmh8Dp4XY4KSar2vs24bYzdkK on the sandbox chain.
      LOCAL_HOT_WALLET_KEY: '1b90c9620e3473dc4e21086cfa5b4da1a74f4a1a264ccd3090760d0fc7a16c87',
      // m/44'/195'/0' of the public test mnemonic: sandbox tokens only.
      LOCAL_DEPOSIT_ACCOUNT_XPRV: 'xprv9z1pB5qPNYGMVrGcyXt97Jwd9GBRoNFdhJfxqbHjzrBKeN1GMETuGFi1c73SQkP8kkKz5MVoMtLRcsDWggUcaPF32AXN4qNsNWBoJbaHcQ7',
      // Faster than TRON's 3 s so a local deposit completes in ~20 s, not a minute.
      SANDBOX_BLOCK_INTERVAL_MS: '1000',
      // So an integrator can receive events on their own machine (contract, Webhooks).
      WEBHOOK_ALLOW_LOOPBACK_HTTP: 'true',
      WEBHOOK_CATCH_UP_MIN_AGE_MS: '0',
      WEBHOOK_SECRET_SEALER: 'local',
      // sha256("cambio local webhook sealing key").
      LOCAL_WEBHOOK_SEALING_KEY: '88b4b0ccb525f7fc32486b4c22f6acc4c55580490f899f11d41ef9c2b219a4e8',
    },
    // The public BIP39 test mnemonic ("abandon" x11 + "about"): local sandbox money only.
    depositAccountXpub: { value: TEST_MNEMONIC_ACCOUNT_XPUB },
  },
  sandbox: {
    stage: 'sandbox',
    environment: 'sandbox',
    ...SANDBOX_RATE_LIMITS,
    authorizerCacheSeconds: 60,
    protectData: false,
    safeguards: { terminationProtection: false, backupRetentionDays: 35, apiLatencyP99Ms: 3000 },
    logRetentionDays: 14,
    pollerScheduleMinutes: 1,
    // Every integrator builds against the sandbox: a flood without credentials, or from one address,
    // would stop all of them (its throttle is shared as production's is). One company at the scale
    // tier from one address, 30,000 in any 5 minutes; some $10 a month of WAF (docs/capacity.md).
    waf: { ratePer5Minutes: wafRatePer5MinutesOf(SANDBOX_CAPACITY)! },
    functionEnvironment: {
      ...EVERY_STAGE,
      ...DEPLOYED,
      ...SANDBOX_MONEY,
      RATE_LIMIT_TIERS: rateLimitTiersSetting(SANDBOX_CAPACITY),
      SWEEP_ACCOUNT_XPRV_SECRET: 'cambio/sandbox/deposit-account-xprv',
      SANDBOX_BLOCK_INTERVAL_MS: '3000',
    },
    depositAccountXpub: { ssmParameter: '/cambio/sandbox/deposit-account-xpub' },
  },
  production: {
    stage: 'production',
    environment: 'production',
    ...PRODUCTION_RATE_LIMITS,
    authorizerCacheSeconds: 60,
    protectData: true,
    safeguards: { terminationProtection: true, backupRetentionDays: 35, apiLatencyP99Ms: 2000 },
    logRetentionDays: 365,
    pollerScheduleMinutes: 1,
    // One company at the scale tier from one address (300,000 in any 5 minutes, more than two
    // standard companies' 30,000): a source past that is no company's servers, and is stopped
    // before it takes from the stage's throttle.
    waf: { ratePer5Minutes: wafRatePer5MinutesOf(PRODUCTION_CAPACITY)! },
    functionEnvironment: {
      ...EVERY_STAGE,
      ...DEPLOYED,
      RATE_LIMIT_TIERS: rateLimitTiersSetting(PRODUCTION_CAPACITY),
      // Covers the TRX burnt by a TRC-20 transfer to a fresh address (~13 TRX, tron-notes.md, Cost).
      WITHDRAWAL_FEE_USDT: '3.000000',
      WITHDRAWAL_MINIMUM_USDT: '10.000000',
      PRICE_SOURCE: 'http',
      PRICE_SOURCE_URL: 'https://api.binance.com',
      CHAIN_ADAPTER: 'trongrid',
      SWEEP_ACCOUNT_XPRV_SECRET: 'cambio/production/deposit-account-xprv',
      // Sweeping burns ~13 TRX: not worth it for less than a few dollars.
      SWEEP_MINIMUM_USDT: '20.000000',
      TRONGRID_URL: 'https://api.trongrid.io',
      TRONGRID_API_KEY_SECRET: 'cambio/production/trongrid-api-key',
    },
    depositAccountXpub: { ssmParameter: '/cambio/production/deposit-account-xpub' },
  },
};

/** A stage's configuration, its figures checked against the settings schema (a bad one throws, naming it). */
export function stageConfig(name: string | undefined): StageConfig {
  if (name === 'sandbox' || name === 'production' || name === 'local') {
    checkStageSettings(name, STAGES[name].functionEnvironment);
    return STAGES[name];
  }
  throw new Error(`Unknown stage "${name}": pass -c stage=sandbox or -c stage=production`);
}
