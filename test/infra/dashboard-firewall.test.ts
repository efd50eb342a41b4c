import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { addCambioStack } from '../../lib/cambio-app.ts';

/**
 * The dashboard's web ACL (README, Deploying): CloudFront takes only a web ACL of scope CLOUDFRONT,
 * which lives in us-east-1, so the stage attaches one made there (by hand, a stack of the
 * operator's, or AWS Firewall Manager) rather than making it in its own region.
 */
const WEB_ACL = 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/cambio-dashboard/a1b2c3d4-5678-90ab-cdef-EXAMPLE11111';
const stack = (context: Record<string, string>) => addCambioStack(new App({ context: { stage: 'production', 'aws:cdk:bundling-stacks': [], ...context } }));
const distributionConfig = (template: Template) => Object.values(template.findResources('AWS::CloudFront::Distribution'))[0]!.Properties.DistributionConfig;

describe("the dashboard's web ACL", () => {
  it('is attached to the distribution, in front of the app and the dashboard API, when dashboardWebAclArn is given', () => {
    expect(distributionConfig(Template.fromStack(stack({ dashboardWebAclArn: WEB_ACL }))).WebACLId).toBe(WEB_ACL);
    expect(distributionConfig(Template.fromStack(stack({}))).WebACLId).toBeUndefined();
  });

  it.each([
    ['a regional web ACL', WEB_ACL.replace('us-east-1:', 'sa-east-1:').replace('global/', 'regional/')],
    ['another service', 'arn:aws:waf::123456789012:webacl/a1b2c3d4'],
    ['a bare id', 'a1b2c3d4-5678-90ab-cdef-EXAMPLE11111'],
  ])('refuses %s', (_, arn) => {
    expect(() => stack({ dashboardWebAclArn: arn })).toThrow(/dashboardWebAclArn .* is not the ARN of a CloudFront web ACL/);
  });
});

/**
 * The dashboard API answers only what came through the distribution (lib/dashboard-origin-key.ts):
 * a request to its public execute-api URL would pass by the web ACL above and could name any viewer
 * in CloudFront-Viewer-Address, where sign-in limits and the audit log read the person's address.
 */
describe("the dashboard API's origin key", () => {
  const template = Template.fromStack(stack({}));
  const resources = (type: string) => template.findResources(type) as Record<string, { Properties: any }>;
  const [dashboardApiId] = Object.entries(resources('AWS::ApiGateway::RestApi')).find(([, api]) => /-dashboard$/.test(api.Properties.Name))!;
  const onDashboardApi = (resource: { Properties: any }) => resource.Properties.RestApiId?.Ref === dashboardApiId;

  it('is required by every method of the dashboard API', () => {
    const methods = Object.values(resources('AWS::ApiGateway::Method')).filter(onDashboardApi);
    expect(methods.length).toBeGreaterThan(40);
    expect(methods.filter((method) => method.Properties.ApiKeyRequired !== true).map((method) => `${method.Properties.HttpMethod} ${JSON.stringify(method.Properties.ResourceId)}`)).toEqual([]);
  });

  it('is the value CloudFront adds to every request to the API, read from Secrets Manager at deploy, never written in the template', () => {
    const behaviour = distributionConfig(template).CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === 'dashboard/api/*');
    const origin = distributionConfig(template).Origins.find((o: { Id: string }) => o.Id === behaviour.TargetOriginId);
    const header = origin.OriginCustomHeaders.find((h: { HeaderName: string }) => h.HeaderName === 'x-api-key');
    const [key] = Object.values(resources('AWS::ApiGateway::ApiKey')).filter((k) => JSON.stringify(k.Properties.Value).includes('resolve:secretsmanager'));
    const secretOf = (value: unknown) => JSON.stringify(value).match(/"Ref":"(\w+)"/)?.[1];

    expect(JSON.stringify(header.HeaderValue)).toContain('{{resolve:secretsmanager:');
    expect(secretOf(header.HeaderValue)).toBe(secretOf(key!.Properties.Value));
    expect(resources('AWS::SecretsManager::Secret')[secretOf(key!.Properties.Value)!]!.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
  });

  it('works on the dashboard stage through a usage plan, and a request without it is refused 403 in the envelope', () => {
    const plans = Object.entries(resources('AWS::ApiGateway::UsagePlan')).filter(([, plan]) => plan.Properties.ApiStages.some((s: { ApiId: { Ref: string } }) => s.ApiId.Ref === dashboardApiId));
    expect(plans).toHaveLength(1);
    const keysOfPlan = Object.values(resources('AWS::ApiGateway::UsagePlanKey')).filter((k) => k.Properties.UsagePlanId.Ref === plans[0]![0]);
    expect(keysOfPlan).toHaveLength(1);
    const refused = Object.values(resources('AWS::ApiGateway::GatewayResponse')).find((r) => onDashboardApi(r) && r.Properties.ResponseType === 'INVALID_API_KEY')!;
    expect(refused.Properties.StatusCode).toBe('403');
    expect(JSON.parse(refused.Properties.ResponseTemplates['application/json'])).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
  });
});
