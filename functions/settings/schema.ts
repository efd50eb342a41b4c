import * as v from 'valibot';
import { parseAmount, parseFeeAmount } from '#functions/shared/money';
import { MAX_SPREAD_BPS, parseRate } from '#functions/conversions/pricing';
import { CONTRACT_RETRY_SCHEDULE, parseRetrySchedule } from '#functions/webhooks/retry-schedule';
import { NETWORK_STAGE_SETTINGS } from '#functions/networks/settings-registry';
import { EVM_NETWORK_NAMES } from '#functions/networks/names';
import { RATE_LIMIT_TIERS, type RateLimitTier } from '#functions/api-keys/rate-limits';

/**
 * Every setting a Cambio function reads, one valibot schema each: its type, range and default.
 * Settings reach a function as environment variables (all strings); each function parses only its
 * own slice (functions/settings/functions.ts) once at cold start, and a bad value fails there with
 * a message naming the variable. The same schema checks config/stages.ts's figures at synth (`cdk
 * synth` fails on a bad one) and when the local runtime starts. README, Configuration, says how to
 * add a setting.
 */

/** Parses with a domain function, whose own message says what is wrong. */
const parsedBy = <T>(parse: (value: string) => T) =>
  v.pipe(
    v.string(),
    v.rawTransform<string, T>(({ dataset, addIssue, NEVER }) => {
      try {
        return parse(dataset.value);
      } catch (error) {
        addIssue({ message: `is invalid: ${(error as Error).message}` });
        return NEVER;
      }
    }),
  );

const text = v.pipe(v.string(), v.nonEmpty('is empty'));
const url = v.pipe(v.string(), v.check((value) => URL.canParse(value), 'is not a URL'));
const wholeNumber = (min: number, max: number) => {
  const range = `must be a whole number from ${min} to ${max}`;
  return v.pipe(v.string(), v.regex(/^\d{1,16}$/, range), v.transform(Number), v.minValue(min, range), v.maxValue(max, range));
};
const oneOf = <const T extends readonly [string, ...string[]]>(values: T, message = `must be one of ${values.join(', ')}`) => v.picklist(values, message);
const usdt = parsedBy((value) => parseAmount(value, 'USDT'));
/** A fee may be waived: zero is allowed where parseAmount refuses it. */
const usdtOrZero = parsedBy(parseFeeAmount);
const hex32 = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/i, 'must be 32 bytes of hex'));
/** A rate limit's figures: whole requests a second, and a burst at least that. */
const rateLimit = v.pipe(
  v.strictObject({ rateLimit: v.pipe(v.number(), v.integer(), v.minValue(1)), burstLimit: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
  v.check((limit) => limit.burstLimit >= limit.rateLimit, 'has a burst below its rate'),
);
/** Every tier's figures, by name (functions/api-keys/rate-limits.ts RATE_LIMIT_TIERS). */
const rateLimitTiers = v.pipe(
  v.string(),
  v.parseJson(undefined, 'is not JSON'),
  v.strictObject(Object.fromEntries(RATE_LIMIT_TIERS.map((tier) => [tier, rateLimit])) as Record<RateLimitTier, typeof rateLimit>, `must give ${RATE_LIMIT_TIERS.join(', ')} each {rateLimit, burstLimit}`),
);
/** Only the literal `true` turns a flag on; anything else is refused rather than read as off. */
const flag = v.pipe(oneOf(['true', 'false']), v.transform((value) => value === 'true'));

export const STAGE_NAMES = ['local', 'sandbox', 'production'] as const;
export const PRICE_SOURCES = ['static', 'http'] as const;
export const CHAIN_ADAPTERS = ['sandbox', 'trongrid'] as const;
export const SIGNERS = ['kms', 'secrets-manager', 'local'] as const;
export const SEALERS = ['kms', 'local'] as const;
export const DEFAULT_SPREAD_BPS = 50;

/**
 * What config/stages.ts sets per stage (`functionEnvironment`). Optional entries are those a stage
 * may leave out; the rules below say which choice needs which.
 */
export const STAGE_SETTINGS = {
  /** Charged on each withdrawal, on top of its amount; USDT as a decimal string (0 waives it). */
  WITHDRAWAL_FEE_USDT: usdtOrZero,
  WITHDRAWAL_MINIMUM_USDT: usdt,
  /** How long an address added to a company's withdrawal allowlist waits before it is usable, and a
   * turn-off, or a raise or removal of its daily withdrawal limit, before it takes effect
   * (functions/withdrawals/withdrawal-allowlist.ts, withdrawal-limit.ts): up to 7 days. */
  WITHDRAWAL_ADDRESS_DELAY_HOURS: v.optional(wholeNumber(0, 168), '24'),
  /** How long after signing in a person may issue API keys, change where one may be used from, or
   * invite and re-role members without giving their password again (functions/people/step-up.ts). */
  DASHBOARD_RECENT_SIGN_IN_SECONDS: v.optional(wholeNumber(1, 86_400), '900'),
  /** Sign-up and Send the link again answer no sooner than this many ms after the request, whether
   * or not the address has an account, so their timing tells nobody who has one
   * (functions/people/sign-up.ts). Only tests that are not about it lower it. */
  SIGN_UP_ANSWER_MS: v.optional(wholeNumber(0, 10_000), '1000'),
  /** Blocks on top of a transfer's before a deposit counts (19: TRON's solidification). */
  DEPOSIT_REQUIRED_CONFIRMATIONS: wholeNumber(1, 100),
  /** No default on purpose: a stage that forgot it must fail, not quote on a fixed sandbox rate. */
  PRICE_SOURCE: oneOf(PRICE_SOURCES),
  /** Kept as written: the static price source parses it again as its rate. */
  STATIC_USDT_BRL_RATE: v.optional(parsedBy((value) => (parseRate(value), value))),
  PRICE_SOURCE_URL: v.optional(url),
  /** Basis points taken off the mid rate. */
  CONVERSION_SPREAD_BPS: v.optional(wholeNumber(0, MAX_SPREAD_BPS), String(DEFAULT_SPREAD_BPS)),
  /** `sandbox`: blocks kept in the stage's table (functions/networks/tron/sandbox-chain.ts); `trongrid`: TRON. */
  CHAIN_ADAPTER: oneOf(CHAIN_ADAPTERS),
  ...NETWORK_STAGE_SETTINGS,
  SANDBOX_BLOCK_INTERVAL_MS: v.optional(wholeNumber(10, 60_000)),
  TRONGRID_URL: v.optional(url),
  /** Secrets Manager id of the TRON-PRO-API-KEY. */
  TRONGRID_API_KEY_SECRET: v.optional(text),
  /** Where the hot wallet key lives (functions/adapters/signer/from-settings.ts). */
  SIGNER: oneOf(SIGNERS, 'must be kms, secrets-manager or local'),
  /** The local runtime's hot wallet: a key for sandbox tokens only, never for real money. */
  LOCAL_HOT_WALLET_KEY: v.optional(hex32),
  /** Cap in sun on the TRX one USDT transfer may burn (../shared/tron-notes.md, Sending): 1 to 1 000 TRX. */
  WITHDRAWAL_FEE_LIMIT_SUN: wholeNumber(1_000_000, 1_000_000_000),
  /** The local runtime's deposit account xprv (the public test mnemonic); deployed stages name a secret. */
  LOCAL_DEPOSIT_ACCOUNT_XPRV: v.optional(v.pipe(v.string(), v.startsWith('xprv', 'is not an xprv'))),
  SWEEP_ACCOUNT_XPRV_SECRET: v.optional(text),
  /** Below this a deposit address is not worth its TRX top-up. */
  SWEEP_MINIMUM_USDT: usdt,
  /** TRX (in sun) a deposit address should hold before its USDT is swept (a top-up sends what it lacks): up to 100 TRX. */
  SWEEP_TOP_UP_SUN: wholeNumber(1, 100_000_000),
  /** Honoured on the local stage only: webhooks may target http:// loopback. */
  WEBHOOK_ALLOW_LOOPBACK_HTTP: v.optional(flag, 'false'),
  /** Waits between webhook tries, e.g. `5s,5m,30m` (functions/webhooks/webhook-delivery.ts); the contract's by default. */
  WEBHOOK_RETRY_SCHEDULE: v.optional(parsedBy(parseRetrySchedule), CONTRACT_RETRY_SCHEDULE),
  /** How long a receiver has to answer. */
  WEBHOOK_TIMEOUT_MS: v.optional(wholeNumber(1, 60_000), '15000'),
  /** The dispatcher's catch-up pass takes events undispatched for at least this long: 0 where that
   * pass is the only dispatcher (local), a minute where the stream dispatches first. */
  WEBHOOK_CATCH_UP_MIN_AGE_MS: v.optional(wholeNumber(0, 3_600_000), '60000'),
  /** What seals webhook signing secrets (functions/adapters/webhook-secrets/from-settings.ts). */
  WEBHOOK_SECRET_SEALER: oneOf(SEALERS, 'must be kms or local'),
  /** The local runtime's AES-256 sealing key: sandbox data only, never a deployed stage's. */
  LOCAL_WEBHOOK_SEALING_KEY: v.optional(hex32),
  /** Each rate limit tier's figures on the stage, by name: config/stages.ts writes them from the
   * capacity model (config/capacity.ts), so what a company is shown is what its usage plan enforces. */
  RATE_LIMIT_TIERS: rateLimitTiers,
  /** Where the screening refresh job downloads OFAC's sdn_advanced.xml daily (functions/screening/
   * screening-refresh.ts): OFAC's own Sanctions List Service on a deployed stage, or a mirror. The
   * local stage runs no such job (its list is the shipped snapshot, config/screening/). */
  SCREENING_LIST_URL: v.optional(url),
};

/** What the stack (or the local runtime) sets from what it made: names, ids, URLs. */
export const BOUND_SETTINGS = {
  /** `local`, `sandbox` or `production`: metric dimension, and the guard on local-only settings. */
  STAGE: oneOf(STAGE_NAMES),
  /** `sandbox` or `production` (functions/api-keys/api-keys.ts Environment): self sign-up is sandbox-only. */
  STAGE_ENVIRONMENT: oneOf(['sandbox', 'production']),
  /** Read by Node, not by Cambio: source maps for stack traces. */
  NODE_OPTIONS: v.optional(v.string()),
  TABLE_NAME: text,
  /** DynamoDB Local's URL: the local runtime and tests only. */
  DYNAMODB_ENDPOINT: v.optional(url),
  /** The BIP44 account xpub (m/44'/195'/0') deposit addresses derive from. */
  DEPOSIT_ACCOUNT_XPUB: v.pipe(v.string(), v.startsWith('xpub', 'is not an xpub')),
  /** The hot wallet's KMS key on TRON (SIGNER=kms). */
  SIGNER_KMS_KEY_ID: v.optional(text),
  /** Each open EVM network's hot wallet KMS key (SIGNER=kms), a JSON object from network name to
   * key id: one key per network, so a key's grant or loss touches one chain. */
  EVM_SIGNER_KMS_KEY_IDS: v.optional(
    v.pipe(v.string(), v.parseJson(undefined, 'is not JSON'), v.record(v.picklist(EVM_NETWORK_NAMES, `names a network other than ${EVM_NETWORK_NAMES.join(', ')}`), text)),
    '{}',
  ),
  /** The hot wallet key's secret (SIGNER=secrets-manager). */
  SIGNER_SECRET_ID: v.optional(text),
  /** The KMS key that seals webhook secrets (WEBHOOK_SECRET_SEALER=kms). */
  WEBHOOK_SECRET_KMS_KEY_ID: v.optional(text),
  /** The webhook queue and its dead-letter queue; unset on the local stage, whose queue is in-process. */
  WEBHOOK_QUEUE_URL: v.optional(url),
  WEBHOOK_DLQ_URL: v.optional(url),
  /** Read by Powertools' tracer: the webhook sender turns it off so no integrator's URL is traced. */
  POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS: v.optional(oneOf(['true', 'false'])),
  COGNITO_USER_POOL_ID: text,
  COGNITO_CLIENT_ID: text,
  /** The local Cognito emulator's endpoint and issuer; in AWS both follow from the pool id. */
  COGNITO_ENDPOINT: v.optional(url),
  COGNITO_ISSUER: v.optional(url),
  /** The CloudFront URL that fronts the dashboard; locally the API's own host serves it. */
  DASHBOARD_ORIGIN: v.optional(url),
  /** The address the stage mails from through SES (context `mailFrom`): invitations, password resets, webhook alerts; unset, nothing is mailed. */
  MAIL_FROM: v.optional(v.pipe(v.string(), v.regex(/^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/, 'is not an email address'))),
  /** The SES configuration set every send names (lib/stage-mail.ts: bounce and complaint suppression, reputation metrics). */
  MAIL_CONFIGURATION_SET: v.optional(text),
  /** The local runtime's outbox: its mail is written there as .eml files, and nothing leaves the machine. */
  LOCAL_OUTBOX_DIR: v.optional(text),
  /** The usage plan of each rate limit tier on the stage (lib/rate-limits.ts), a JSON object from
   * tier to plan id: the usage key provisioner puts a company's key in its tier's. */
  USAGE_PLAN_IDS: v.pipe(
    v.string(),
    v.parseJson(undefined, 'is not JSON'),
    v.strictObject(Object.fromEntries(RATE_LIMIT_TIERS.map((tier) => [tier, text])) as Record<RateLimitTier, typeof text>, `must name a plan for each of ${RATE_LIMIT_TIERS.join(', ')}`),
  ),
  EXPORT_TABLE_ARN: v.pipe(v.string(), v.regex(/^arn:aws[a-z-]*:dynamodb:/, 'is not a DynamoDB table ARN')),
  /** The export bucket: the ledger job reads exports from it and writes ledger/YYYY/MM/DD.csv to it. */
  LEDGER_BUCKET: text,
};

export const SETTINGS = { ...STAGE_SETTINGS, ...BOUND_SETTINGS };
export type SettingName = keyof typeof SETTINGS;
export type StageSettingName = keyof typeof STAGE_SETTINGS;
/** A function's parsed slice: each named setting with its type (an optional one may be undefined). */
export type Settings<K extends SettingName> = { readonly [P in K]: v.InferOutput<(typeof SETTINGS)[P]> };
/** The figures config/stages.ts writes: strings (the choices typed by their allowed values), the optional ones optional. */
export type StageFigures = v.InferInput<v.ObjectSchema<typeof STAGE_SETTINGS, undefined>>;

export type Environment = Readonly<Record<string, string | undefined>>;

/** Whether a setting may be left unset (it is optional or has a default). */
export function isOptional(name: SettingName): boolean {
  return SETTINGS[name].type === 'optional';
}

/**
 * Parses the named settings from an environment, all problems at once, each naming its variable.
 * An empty string counts as unset, as in a shell.
 */
export function parseSettings<K extends SettingName>(names: readonly K[], env: Environment): Settings<K> {
  const parsed: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const name of new Set(names)) {
    const raw = env[name] === '' ? undefined : env[name];
    if (raw === undefined && !isOptional(name)) {
      problems.push(`Missing required environment variable ${name}`);
      continue;
    }
    const result = v.safeParse(SETTINGS[name] as v.GenericSchema<string | undefined, unknown>, raw);
    if (result.success) parsed[name] = result.output;
    else problems.push(`${name} ${result.issues[0].message}, got ${JSON.stringify(raw)}`);
  }
  if (problems.length > 0) throw new SettingsError(problems);
  return parsed as Settings<K>;
}

export class SettingsError extends Error {
  override name = 'SettingsError';
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

/** A setting that one choice makes necessary (STATIC_USDT_BRL_RATE with PRICE_SOURCE=static). */
export function needed<T>(value: T | undefined, name: SettingName, because: string): T {
  if (value === undefined) throw new SettingsError([`Missing required environment variable ${name} (${because})`]);
  return value;
}

/** Which choice needs which setting, and what a deployed stage may never carry. */
const STAGE_RULES: { when: (figures: Environment) => boolean; need: StageSettingName; because: string }[] = [
  { when: (f) => f.PRICE_SOURCE === 'static', need: 'STATIC_USDT_BRL_RATE', because: 'PRICE_SOURCE=static' },
  { when: (f) => f.PRICE_SOURCE === 'http', need: 'PRICE_SOURCE_URL', because: 'PRICE_SOURCE=http' },
  { when: (f) => f.CHAIN_ADAPTER === 'sandbox', need: 'SANDBOX_BLOCK_INTERVAL_MS', because: 'CHAIN_ADAPTER=sandbox' },
  { when: (f) => f.CHAIN_ADAPTER === 'trongrid', need: 'TRONGRID_URL', because: 'CHAIN_ADAPTER=trongrid' },
  { when: (f) => f.SIGNER === 'local', need: 'LOCAL_HOT_WALLET_KEY', because: 'SIGNER=local' },
  { when: (f) => f.WEBHOOK_SECRET_SEALER === 'local', need: 'LOCAL_WEBHOOK_SEALING_KEY', because: 'WEBHOOK_SECRET_SEALER=local' },
  { when: (f) => f.LOCAL_DEPOSIT_ACCOUNT_XPRV === undefined, need: 'SWEEP_ACCOUNT_XPRV_SECRET', because: 'the sweeper signs with the deposit account key' },
];

/** Keys in this repository, or behaviour meant for one machine: never on a deployed stage. */
const LOCAL_ONLY: { name: StageSettingName; value?: string }[] = [
  { name: 'LOCAL_HOT_WALLET_KEY' },
  { name: 'LOCAL_DEPOSIT_ACCOUNT_XPRV' },
  { name: 'LOCAL_WEBHOOK_SEALING_KEY' },
  { name: 'SIGNER', value: 'local' },
  { name: 'WEBHOOK_SECRET_SEALER', value: 'local' },
  { name: 'WEBHOOK_ALLOW_LOOPBACK_HTTP', value: 'true' },
];

/** SOLANA's keys in this repository: every function's environment, and so the CloudFormation
 * template, carries SOLANA whole, and the sweeper prefers localDepositSeed to depositSeedSecret. */
const SOLANA_LOCAL_ONLY = ['localHotWalletKey', 'localDepositSeed'] as const;

/** What SOLANA (JSON, unparsed: a malformed one is parseSettings' problem) may not say on a deployed
 * stage, and the secret the sweeper needs there in place of the local seed. */
function deployedSolanaProblems(solana: string | undefined): string[] {
  if (solana === undefined || solana === '') return [];
  let figures: unknown;
  try {
    figures = JSON.parse(solana);
  } catch {
    return [];
  }
  if (figures === null || typeof figures !== 'object') return [];
  const network = figures as Record<string, unknown>;
  const problems = SOLANA_LOCAL_ONLY.filter((key) => network[key] !== undefined).map((key) => `SOLANA.${key} is for the local stage only`);
  if (network.depositSeedSecret === undefined) problems.push('Missing SOLANA.depositSeedSecret (the sweeper reads the deposit seed from it on a deployed stage)');
  return problems;
}

/**
 * Checks a stage's figures (config/stages.ts) against the schema and the rules between settings.
 * Throws one error listing every problem, each naming the stage and the variable: `cdk synth`
 * and `npm start` stop on it.
 */
export function checkStageSettings(stage: (typeof STAGE_NAMES)[number], figures: Partial<StageFigures>): Settings<StageSettingName> {
  const env = figures as Environment;
  const problems: string[] = [];
  let parsed: Settings<StageSettingName> | undefined;
  try {
    parsed = parseSettings(Object.keys(STAGE_SETTINGS) as StageSettingName[], env);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    problems.push(...error.problems);
  }
  for (const rule of STAGE_RULES) {
    if (rule.when(env) && (env[rule.need] ?? '') === '') problems.push(`Missing required environment variable ${rule.need} (${rule.because})`);
  }
  if (stage !== 'local') {
    // The stack grants the signing jobs their hot wallet's KMS keys alone, and no stage setting names
    // a secret for SecretsManagerSigner to read: on a deployed stage every signature would fail.
    if (env.SIGNER === 'secrets-manager') problems.push('SIGNER=secrets-manager: the stack makes and grants KMS keys for the hot wallets, and names no secret for this signer; use SIGNER=kms');
    for (const { name, value } of LOCAL_ONLY) {
      if (env[name] !== undefined && (value === undefined || env[name] === value)) problems.push(`${name}${value ? `=${value}` : ''} is for the local stage only`);
    }
    problems.push(...deployedSolanaProblems(env.SOLANA));
  }
  for (const name of Object.keys(env)) if (!(name in STAGE_SETTINGS)) problems.push(`${name} is not a stage setting (functions/settings/schema.ts)`);
  if (problems.length > 0) throw new SettingsError(problems.map((problem) => `Stage ${stage}: ${problem}`));
  return parsed!;
}
