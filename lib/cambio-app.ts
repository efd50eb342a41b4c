import type { App } from 'aws-cdk-lib';
import { CambioStack } from './cambio-stack.ts';
import { deploymentSettings } from './deployment-settings.ts';
import { stageConfig, type StageConfig } from '../config/stages.ts';

const DEPLOYABLE = ['sandbox', 'production'] as const;

/** Reads `-c stage=…` and adds that stage's stack, `Cambio-<stage>`. `local` is `npm start`'s, never deployed. */
export function addCambioStack(app: App): CambioStack {
  const config = deployableStage(app.node.tryGetContext('stage'));
  return new CambioStack(app, `Cambio-${config.stage}`, {
    config,
    settings: deploymentSettings(app.node),
    description: `Cambio ${config.stage}: REST API, single DynamoDB table, webhook queues`,
    // Unset on a machine without AWS credentials: the stack is then environment-agnostic and
    // `cdk synth` works offline.
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
    terminationProtection: config.safeguards.terminationProtection,
  });
}

export function deployableStage(stage: unknown): StageConfig {
  if (typeof stage !== 'string' || !(DEPLOYABLE as readonly string[]).includes(stage)) {
    const given = stage === undefined ? 'No stage given' : `Unknown stage ${JSON.stringify(stage)}`;
    throw new Error(`${given}: pass -c stage=sandbox or -c stage=production`);
  }
  return stageConfig(stage);
}
