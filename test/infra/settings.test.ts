import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { FUNCTION_SETTINGS } from '../../functions/settings/functions.ts';
import { isOptional, type SettingName } from '../../functions/settings/schema.ts';
import { DASHBOARD_ROUTES, lambdaName } from '../../functions/routes.ts';
import { CambioFunction } from '../../lib/api-function.ts';
import { value } from '../../lib/binders.ts';
import { addCambioStack } from '../../lib/cambio-app.ts';
import { CambioStack } from '../../lib/cambio-stack.ts';
import { NO_DEPLOYMENT_SETTINGS } from '../../lib/deployment-settings.ts';
import { STAGES } from '../../config/stages.ts';
import { cambioFunctions } from '../support/stack-functions.ts';

const noBundling = { 'aws:cdk:bundling-stacks': [] };

/**
 * Each function is given its settings slice (functions/settings/functions.ts) and nothing else:
 * lib/api-function.ts sets the slice's stage figures and what its binders pass.
 */
describe.each(['sandbox', 'production'] as const)('function environments on Cambio-%s', (stage) => {
  const template = Template.fromStack(addCambioStack(new App({ context: { stage, ...noBundling } })));
  const functions = Object.values(cambioFunctions(template.findResources('AWS::Lambda::Function'))) as { Properties: { FunctionName: string; Environment: { Variables: Record<string, unknown> } } }[];
  // The dashboard routes' modules run inside the dashboard API's one Lambda (functions/handlers/dashboard/api.ts).
  const deployed = Object.keys(FUNCTION_SETTINGS).filter((handler) => !DASHBOARD_ROUTES.some((route) => route.handler === handler));
  const byHandler = deployed.map((handler) => {
    const fn = functions.find((candidate) => candidate.Properties.FunctionName === `Cambio-${stage}-${lambdaName(handler)}`);
    return [handler, fn] as const;
  });

  it('makes one function per slice, and no function without one', () => {
    expect(byHandler.filter(([, fn]) => fn === undefined).map(([handler]) => handler)).toEqual([]);
    expect(functions).toHaveLength(deployed.length);
  });

  it.each(deployed)('gives %s exactly its slice: every variable it reads that has a value, none it does not', (handler) => {
    const fn = byHandler.find(([name]) => name === handler)![1]!;
    const slice = FUNCTION_SETTINGS[handler as keyof typeof FUNCTION_SETTINGS] as readonly SettingName[];
    const given = Object.keys(fn.Properties.Environment.Variables).sort();
    // Optional settings a stage leaves unset (DYNAMODB_ENDPOINT is local only; STATIC_USDT_BRL_RATE
    // is for PRICE_SOURCE=static) are the only names of the slice a function may go without.
    const figures = STAGES[stage].functionEnvironment as Record<string, string | undefined>;
    const expected = slice.filter((name) => !isOptional(name) || figures[name] !== undefined || ALWAYS_BOUND.has(name)).sort();

    expect(given).toEqual([...new Set(expected)].sort());
  });
});

/** Optional settings the stack binds on every deployed stage (a key's id, a queue's URL, Node's options). */
const ALWAYS_BOUND = new Set<SettingName>(['NODE_OPTIONS', 'SIGNER_KMS_KEY_ID', 'WEBHOOK_SECRET_KMS_KEY_ID', 'WEBHOOK_QUEUE_URL', 'WEBHOOK_DLQ_URL', 'POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS', 'DASHBOARD_ORIGIN']);

describe('the function construct', () => {
  it('refuses a binder that gives a setting outside the slice', () => {
    const stack = new Stack(new App({ context: noBundling }));

    expect(
      () => new CambioFunction(stack, { handler: 'company/get-company', config: STAGES.sandbox, depositAccountXpub: 'xpub', bind: [value('PRICE_SOURCE_URL', 'https://example.com')] }),
    ).toThrow('company/get-company is given PRICE_SOURCE_URL, which its settings slice does not name');
  });

  it('fails the synth when nothing gives a required setting of the slice', () => {
    const app = new App({ context: noBundling });
    const stack = new Stack(app, 'Unbound');
    new CambioFunction(stack, { handler: 'company/get-company', config: STAGES.sandbox, depositAccountXpub: 'xpub' });

    expect(() => app.synth()).toThrow(/company\/get-company reads TABLE_NAME .* but no stage figure or binder gives it a value/);
  });

  it('refuses a handler with no settings slice', () => {
    const stack = new Stack(new App({ context: noBundling }));

    expect(() => new CambioFunction(stack, { handler: 'company/unknown', config: STAGES.sandbox, depositAccountXpub: 'xpub' })).toThrow('company/unknown has no settings slice');
  });

  it("stops the synth on a bad stage figure, naming the stage and the variable", () => {
    const config = { ...STAGES.sandbox, functionEnvironment: { ...STAGES.sandbox.functionEnvironment, WITHDRAWAL_FEE_LIMIT_SUN: '30 TRX' } };

    expect(() => new CambioStack(new App({ context: noBundling }), 'Cambio-sandbox', { config, settings: NO_DEPLOYMENT_SETTINGS })).toThrow(
      'Stage sandbox: WITHDRAWAL_FEE_LIMIT_SUN must be a whole number from 1000000 to 1000000000, got "30 TRX"',
    );
  });
});
