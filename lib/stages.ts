import type { Environment } from '#domain/api-keys';

/**
 * Per-stage configuration: the only thing that differs between `cdk deploy -c stage=sandbox` and
 * `-c stage=production`. `local` is what `npm start` runs with.
 */
export type StageName = 'local' | 'sandbox' | 'production';

export interface StageConfig {
  stage: StageName;
  environment: Environment;
  /** API Gateway stage throttling (steady requests per second and burst), also applied locally. */
  throttle: { rateLimit: number; burstLimit: number };
  /** How long API Gateway caches an authorizer answer per (key, secret) pair. */
  authorizerCacheSeconds: number;
  /** Table deletion protection and RETAIN on stack deletion. */
  protectData: boolean;
  logRetentionDays: number;
  /** How often the chain pollers run. */
  pollerScheduleMinutes: number;
}

export const STAGES: Record<StageName, StageConfig> = {
  local: {
    stage: 'local',
    environment: 'sandbox',
    throttle: { rateLimit: 5000, burstLimit: 10000 },
    authorizerCacheSeconds: 60,
    protectData: false,
    logRetentionDays: 1,
    pollerScheduleMinutes: 1,
  },
  sandbox: {
    stage: 'sandbox',
    environment: 'sandbox',
    throttle: { rateLimit: 50, burstLimit: 100 },
    authorizerCacheSeconds: 60,
    protectData: false,
    logRetentionDays: 14,
    pollerScheduleMinutes: 1,
  },
  production: {
    stage: 'production',
    environment: 'production',
    throttle: { rateLimit: 200, burstLimit: 400 },
    authorizerCacheSeconds: 60,
    protectData: true,
    logRetentionDays: 365,
    pollerScheduleMinutes: 1,
  },
};

export function stageConfig(name: string | undefined): StageConfig {
  if (name === 'sandbox' || name === 'production' || name === 'local') return STAGES[name];
  throw new Error(`Unknown stage "${name}": pass -c stage=sandbox or -c stage=production`);
}
