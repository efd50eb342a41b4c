import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { CambioStack } from '../../lib/cambio-stack.ts';
import { NO_DEPLOYMENT_SETTINGS } from '../../lib/deployment-settings.ts';
import { STAGES } from '../../config/stages.ts';

/**
 * The sandbox stage's template with `settings` added to its functions' environment: a stage that
 * opens what the sandbox does not yet (a network's EVM_NETWORKS or SOLANA figure). Not bundled, and
 * without a deployment's settings, as the infra tests build it.
 */
export function sandboxTemplateWith(settings: Record<string, string>): Template {
  return Template.fromStack(sandboxStackWith(settings));
}

/** The sandbox stage's stack with `settings` added, as sandboxTemplateWith builds it: for its alarms'
 * template too (./alarms-template.ts). */
export function sandboxStackWith(settings: Record<string, string>): CambioStack {
  const config = { ...STAGES.sandbox, functionEnvironment: { ...STAGES.sandbox.functionEnvironment, ...settings } };
  return new CambioStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Cambio-sandbox', { config, settings: NO_DEPLOYMENT_SETTINGS });
}
