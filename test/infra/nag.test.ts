import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { addCambioStack } from '../../lib/cambio-app.ts';

/**
 * cdk-nag's AwsSolutions pack over each deployable stage: no finding may stand unless it is
 * acknowledged with a reason (lib/nag-suppressions.ts), and the acknowledgments are exactly the
 * ones listed here, so a new one is a reviewed decision, not a silent escape.
 */
const ACKNOWLEDGED = [
  'AwsSolutions-L1',
  'AwsSolutions-IAM5[Resource::<TableCD117FA1.Arn>/index/*]',
  'AwsSolutions-APIG2',
  'AwsSolutions-COG4',
  'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
  'AwsSolutions-APIG6',
  'AwsSolutions-IAM5[Resource::*]',
  'AwsSolutions-IAM5[Resource::<FinanceExportBucketE16ECBFF.Arn>/exports/*]',
  // The daily ledger files (lib/finance-export.ts): the job writes ledger/*, finance reads it through Athena.
  'AwsSolutions-IAM5[Resource::<FinanceExportBucketE16ECBFF.Arn>/ledger/*]',
  'AwsSolutions-IAM5[Resource::<FinanceExportBucketE16ECBFF.Arn>/athena-results/*]',
  'AwsSolutions-IAM5[Resource::<TableCD117FA1.Arn>/export/*]',
  'AwsSolutions-SQS3',
  'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:apigateway:<AWS::Region>::/tags/*]',
  // A company's key taken out of a tier's usage plan, by its id (lib/rate-limits.ts): one per tier.
  'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:apigateway:<AWS::Region>::/usageplans/<CompanyRateLimitsDefaultPlanE8A50B83>/keys/*]',
  'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:apigateway:<AWS::Region>::/usageplans/<CompanyRateLimitsGrowthPlan652E851C>/keys/*]',
  'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:apigateway:<AWS::Region>::/usageplans/<CompanyRateLimitsScalePlanBDBE964E>/keys/*]',
  'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]',
  // The dashboard (lib/dashboard.ts): its API, bucket, distribution and user pool.
  'AwsSolutions-APIG1',
  'AwsSolutions-APIG3',
  'AwsSolutions-APIG4',
  'AwsSolutions-CFR1',
  'AwsSolutions-CFR2',
  'AwsSolutions-CFR3',
  'AwsSolutions-CFR4',
  'AwsSolutions-COG2',
  'AwsSolutions-COG3',
  'AwsSolutions-COG8',
  'AwsSolutions-S1',
  'AwsSolutions-SMG4',
  // CDK's upload of the built dashboard app during cdk deploy (lib/dashboard.ts, appUpload).
  'AwsSolutions-IAM5[Action::s3:GetObject*]',
  'AwsSolutions-IAM5[Action::s3:GetBucket*]',
  'AwsSolutions-IAM5[Action::s3:List*]',
  'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]',
  'AwsSolutions-IAM5[Action::s3:DeleteObject*]',
  'AwsSolutions-IAM5[Action::s3:Abort*]',
  'AwsSolutions-IAM5[Resource::<DashboardApp8DA987EF.Arn>/*]',
];
/** Production's /v1 API has WAF; the sandbox's says why it has none (APIG3 is acknowledged on both
 * stages anyway, for the dashboard API behind CloudFront). */
const SANDBOX_ONLY: string[] = [];

describe.each(['sandbox', 'production'] as const)('cdk-nag AwsSolutions on Cambio-%s', (stage) => {
  const stack = addCambioStack(new App({ context: { stage, 'aws:cdk:bundling-stacks': [] } }));

  it('reports no unacknowledged finding', () => {
    const report = new AwsSolutionsChecks().validateScope(stack);

    const findings = report.violations.map((violation) => `${violation.ruleName} at ${violation.violatingResources.map((resource) => resource.constructPath).join(', ')}`);
    expect(findings).toEqual([]);
  });

  it('acknowledges only the listed findings, each with a reason that names the decision', () => {
    const acknowledged = acknowledgments(stack);

    expect(Object.keys(acknowledged).sort()).toEqual([...ACKNOWLEDGED, ...(stage === 'sandbox' ? SANDBOX_ONLY : [])].sort());
    for (const [id, reason] of Object.entries(acknowledged)) expect(reason.length, id).toBeGreaterThan(60);
  });
});

describe("cdk-nag AwsSolutions with the dashboard's own domain or web ACL", () => {
  const production = (context: Record<string, string>) => addCambioStack(new App({ context: { stage: 'production', 'aws:cdk:bundling-stacks': [], ...context } }));

  it("meets CFR4 (TLS 1.2 at the viewer) instead of acknowledging it: the certificate is the operator's, not *.cloudfront.net", () => {
    const stack = production({ dashboardDomainName: 'dashboard.cambio.example', dashboardCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0f3c6f3e-1111-4222-8333-444455556666' });

    expect(new AwsSolutionsChecks().validateScope(stack).violations).toEqual([]);
    expect(Object.keys(acknowledgments(stack))).not.toContain('AwsSolutions-CFR4');
  });

  it('meets CFR2 (a web ACL) instead of acknowledging it when dashboardWebAclArn gives one', () => {
    const stack = production({ dashboardWebAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/cambio-dashboard/a1b2c3d4-5678-90ab-cdef-EXAMPLE11111' });

    expect(new AwsSolutionsChecks().validateScope(stack).violations).toEqual([]);
    expect(Object.keys(acknowledgments(stack))).not.toContain('AwsSolutions-CFR2');
  });
});

function acknowledgments(root: IConstruct): Record<string, string> {
  const found: Record<string, string> = {};
  for (const construct of root.node.findAll()) {
    for (const entry of construct.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      for (const [key, reason] of Object.entries(entry.data as Record<string, string>)) {
        const id = key.replace(/^annotation::/i, '');
        // aws-cdk-lib acknowledges some of its own CloudFormation lint rules; only cdk-nag's are ours.
        if (id.startsWith('AwsSolutions-')) found[id] = reason;
      }
    }
  }
  return found;
}
