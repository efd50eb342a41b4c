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
