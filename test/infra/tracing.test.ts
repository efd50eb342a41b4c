import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { AUTHORIZER, DASHBOARD_API, DASHBOARD_DOWNLOADS, DASHBOARD_SIMULATOR, SESSION_AUTHORIZER, ROUTES, lambdaName, JOBS } from '../../functions/routes.ts';
import { addCambioStack } from '../../lib/cambio-app.ts';
import { cambioFunctions, isAppUploadFunction } from '../support/stack-functions.ts';

/**
 * X-Ray across the stack: API Gateway starts each request's trace and every function joins it
 * (active tracing). Active tracing grants X-Ray's two write actions on `*`, which cdk-nag's
 * AwsSolutions-IAM5 flags; lib/api-function.ts acknowledges that on every function's role, so this
 * test is what keeps any other action on `*` from passing under that acknowledgment.
 */
const FUNCTIONS = [...ROUTES, AUTHORIZER, DASHBOARD_API, DASHBOARD_SIMULATOR, ...DASHBOARD_DOWNLOADS, SESSION_AUTHORIZER, ...Object.values(JOBS)];
const XRAY_WRITES = ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'];
/** Actions on `*` beyond X-Ray's, each acknowledged with its own reason in lib/cambio-stack.ts. */
const ALSO_ON_EVERY_RESOURCE: Record<string, string[]> = {
  [JOBS.webhookDispatcher.handler]: ['dynamodb:ListStreams'],
  [JOBS.financeExportCheck.handler]: ['dynamodb:ListExports'],
  [JOBS.usageKeyProvisioner.handler]: ['dynamodb:ListStreams'],
};

describe.each(['sandbox', 'production'] as const)('X-Ray tracing on Cambio-%s', (stage) => {
  const template = Template.fromStack(addCambioStack(new App({ context: { stage, 'aws:cdk:bundling-stacks': [] } })));
  const functions = Object.values(cambioFunctions(template.findResources('AWS::Lambda::Function')));
  const functionFor = (handler: string) => functions.find((fn) => String(fn.Properties.FunctionName).endsWith(`-${lambdaName(handler)}`));
  /** The actions a role's policies grant on `*`. */
  const actionsOnEveryResource = (role: string) =>
    Object.values(template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: role }] } }))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
      .filter((statement) => [statement.Resource].flat().includes('*'))
      .flatMap((statement) => [statement.Action].flat());

  it('traces every function actively, so each joins the trace that invoked it', () => {
    expect(functions).toHaveLength(FUNCTIONS.length);
    for (const { handler } of FUNCTIONS) expect(functionFor(handler)?.Properties.TracingConfig, handler).toEqual({ Mode: 'Active' });
  });

  it("traces the API stage, where a request's trace starts before the authorizer and the handler, and names it in the access log", () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', { StageName: stage, TracingEnabled: true });
    const v1Api = Object.keys(template.findResources('AWS::ApiGateway::RestApi', { Properties: { Name: `cambio-${stage}` } }))[0];
    const apiStage = Object.values(template.findResources('AWS::ApiGateway::Stage')).find((candidate) => candidate.Properties.RestApiId.Ref === v1Api);
    expect(JSON.parse(apiStage!.Properties.AccessLogSetting.Format)).toMatchObject({ requestId: '$context.requestId', xrayTraceId: '$context.xrayTraceId' });
  });

  it("grants on * nothing but X-Ray's writes, and the two list actions acknowledged where they are granted", () => {
    for (const { handler } of FUNCTIONS) {
      const role = functionFor(handler)!.Properties.Role['Fn::GetAtt'][0] as string;

      expect(actionsOnEveryResource(role).sort(), handler).toEqual([...XRAY_WRITES, ...(ALSO_ON_EVERY_RESOURCE[handler] ?? [])].sort());
    }
  });

  it("grants CDK's dashboard upload nothing on * but CloudFront's invalidations", () => {
    const [uploader] = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([id]) => isAppUploadFunction(id));
    const role = uploader![1].Properties.Role['Fn::GetAtt'][0] as string;

    expect(actionsOnEveryResource(role).sort()).toEqual(['cloudfront:CreateInvalidation', 'cloudfront:GetInvalidation']);
  });

  it("keeps integrators' webhook URLs out of the sender's traces (no HTTP subsegment, no trace header sent to them)", () => {
    expect(functionFor(JOBS.webhookSender.handler)!.Properties.Environment.Variables).toMatchObject({ POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS: 'false' });
    for (const { handler } of FUNCTIONS.filter((fn) => fn !== JOBS.webhookSender)) {
      expect(functionFor(handler)!.Properties.Environment.Variables, handler).not.toHaveProperty('POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS');
    }
  });
});
