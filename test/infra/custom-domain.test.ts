import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { addCambioStack } from '../../lib/cambio-app.ts';

/** Issue #18, item 1: the API on the operator's domain (README, Custom domain). */
const CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/0f3c6f3e-1111-4222-8333-444455556666';
const DOMAIN = { domainName: 'api.cambio.example', certificateArn: CERTIFICATE };
const ZONE = { hostedZoneId: 'Z0123456789ABCDEFGHIJ', hostedZoneName: 'cambio.example' };
/** The dashboard on the operator's domain: CloudFront with an ACM certificate from us-east-1. */
const DASHBOARD_DOMAIN = { dashboardDomainName: 'dashboard.cambio.example', dashboardCertificateArn: CERTIFICATE };

type Resource = { Properties: Record<string, any> };
const synth = (stage: string, context: Record<string, string>) =>
  Template.fromStack(addCambioStack(new App({ context: { stage, 'aws:cdk:bundling-stacks': [], ...context } })));
const resources = (template: Template, type: string) => template.findResources(type) as Record<string, Resource>;

describe.each(['sandbox', 'production'] as const)('Cambio-%s custom domain', (stage) => {
  let plain: Template;
  let withDomain: Template;
  let withZone: Template;

  beforeAll(() => {
    plain = synth(stage, {});
    withDomain = synth(stage, DOMAIN);
    withZone = synth(stage, { ...DOMAIN, ...ZONE });
  }, 180_000);

  it('without domainName keeps the execute-api URL and creates no domain', () => {
    plain.resourceCountIs('AWS::ApiGateway::DomainName', 0);
    plain.resourceCountIs('AWS::ApiGateway::BasePathMapping', 0);
    expect(JSON.stringify(plain.findOutputs('ApiUrl').ApiUrl!.Value)).toContain('.execute-api.');
  });

  it('with domainName and certificateArn is a regional domain on TLS 1.2 with that certificate', () => {
    const domains = Object.values(resources(withDomain, 'AWS::ApiGateway::DomainName')).map((domain) => domain.Properties);

    expect(domains).toEqual([
      expect.objectContaining({
        DomainName: DOMAIN.domainName,
        RegionalCertificateArn: CERTIFICATE,
        EndpointConfiguration: { Types: ['REGIONAL'] },
        SecurityPolicy: 'TLS_1_2',
      }),
    ]);
  });

  it("maps the stage at the domain's root, so /v1/… reaches the same resources, and outputs ApiUrl as https://<domain>/v1", () => {
    const [mapping] = Object.values(resources(withDomain, 'AWS::ApiGateway::BasePathMapping')).map((resource) => resource.Properties);
    const apiId = Object.keys(resources(withDomain, 'AWS::ApiGateway::RestApi'))[0];
    const stageId = Object.keys(resources(withDomain, 'AWS::ApiGateway::Stage'))[0];

    expect(mapping!.BasePath).toBeUndefined();
    expect(mapping!.RestApiId).toEqual({ Ref: apiId });
    expect(mapping!.Stage).toEqual({ Ref: stageId });
    expect(withDomain.findOutputs('ApiUrl').ApiUrl!.Value).toBe(`https://${DOMAIN.domainName}/v1`);
  });

  it('writes no DNS record without a hosted zone, and outputs where the CNAME must point', () => {
    withDomain.resourceCountIs('AWS::Route53::RecordSet', 0);
    const domainId = Object.keys(resources(withDomain, 'AWS::ApiGateway::DomainName'))[0];
    expect(withDomain.findOutputs('ApiDomainTarget').ApiDomainTarget!.Value).toEqual({ 'Fn::GetAtt': [domainId, 'RegionalDomainName'] });
  });

  it('with hostedZoneId writes the alias A record for the domain in that zone', () => {
    const records = Object.values(resources(withZone, 'AWS::Route53::RecordSet')).map((record) => record.Properties);
    const domainId = Object.keys(resources(withZone, 'AWS::ApiGateway::DomainName'))[0];

    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ Name: `${DOMAIN.domainName}.`, Type: 'A', HostedZoneId: ZONE.hostedZoneId });
    expect(records[0]!.AliasTarget.DNSName).toEqual({ 'Fn::GetAtt': [domainId, 'RegionalDomainName'] });
  });

  describe('the dashboard', () => {
    let withDashboardDomain: Template;
    let withDashboardZone: Template;
    const distributionOf = (template: Template) => Object.entries(resources(template, 'AWS::CloudFront::Distribution'))[0]!;
    const dashboardOrigin = (template: Template) =>
      Object.values(resources(template, 'AWS::Lambda::Function')).find((fn) => String(fn.Properties.FunctionName).endsWith('-DashboardApi'))!.Properties.Environment.Variables.DASHBOARD_ORIGIN;

    beforeAll(() => {
      withDashboardDomain = synth(stage, DASHBOARD_DOMAIN);
      withDashboardZone = synth(stage, { ...DASHBOARD_DOMAIN, ...ZONE });
    }, 180_000);

    it("without dashboardDomainName serves on the distribution's own domain", () => {
      const [distributionId, distribution] = distributionOf(plain);
      expect(distribution.Properties.DistributionConfig.Aliases).toBeUndefined();
      expect(JSON.stringify(plain.findOutputs('DashboardUrl').DashboardUrl!.Value)).toContain(distributionId);
      expect(JSON.stringify(dashboardOrigin(plain))).toContain(distributionId);
      expect(plain.findOutputs('DashboardDomainTarget')).toEqual({});
    });

    it('with dashboardDomainName and dashboardCertificateArn serves the domain on TLS 1.2 (SNI) with that certificate', () => {
      const [, distribution] = distributionOf(withDashboardDomain);
      expect(distribution.Properties.DistributionConfig.Aliases).toEqual([DASHBOARD_DOMAIN.dashboardDomainName]);
      expect(distribution.Properties.DistributionConfig.ViewerCertificate).toEqual({
        AcmCertificateArn: CERTIFICATE,
        MinimumProtocolVersion: 'TLSv1.2_2021',
        SslSupportMethod: 'sni-only',
      });
    });

    it('makes the domain the one origin: DashboardUrl, the origin the dashboard API accepts changes from, and the redirect from the other name', () => {
      expect(withDashboardDomain.findOutputs('DashboardUrl').DashboardUrl!.Value).toBe(`https://${DASHBOARD_DOMAIN.dashboardDomainName}/dashboard/`);
      expect(dashboardOrigin(withDashboardDomain)).toBe(`https://${DASHBOARD_DOMAIN.dashboardDomainName}`);
      const [viewerRequest] = Object.values(resources(withDashboardDomain, 'AWS::CloudFront::Function')).map((fn) => fn.Properties.FunctionCode as string);
      expect(viewerRequest).toContain(`"https://${DASHBOARD_DOMAIN.dashboardDomainName}"`);
    });

    it('writes no DNS record without a hosted zone, and outputs where the CNAME must point', () => {
      withDashboardDomain.resourceCountIs('AWS::Route53::RecordSet', 0);
      const [distributionId] = distributionOf(withDashboardDomain);
      expect(withDashboardDomain.findOutputs('DashboardDomainTarget').DashboardDomainTarget!.Value).toEqual({ 'Fn::GetAtt': [distributionId, 'DomainName'] });
    });

    it('with hostedZoneId writes the alias A and AAAA records for the domain, to the distribution', () => {
      const records = Object.values(resources(withDashboardZone, 'AWS::Route53::RecordSet')).map((record) => record.Properties);
      const [distributionId] = distributionOf(withDashboardZone);

      expect(records.map((record) => record.Type).sort()).toEqual(['A', 'AAAA']);
      for (const record of records) {
        expect(record).toMatchObject({ Name: `${DASHBOARD_DOMAIN.dashboardDomainName}.`, HostedZoneId: ZONE.hostedZoneId });
        expect(record.AliasTarget.DNSName).toEqual({ 'Fn::GetAtt': [distributionId, 'DomainName'] });
      }
    });
  });
});

describe('custom domain settings', () => {
  it.each([
    [{ certificateArn: CERTIFICATE }, /domainName and certificateArn go together/],
    [{ ...DOMAIN, certificateArn: 'not-an-arn' }, /certificateArn/],
    [{ ...DOMAIN, domainName: 'https://api.cambio.example' }, /domainName/],
    [{ hostedZoneId: ZONE.hostedZoneId }, /need domainName/],
    [{ ...DOMAIN, hostedZoneName: ZONE.hostedZoneName }, /hostedZoneName needs hostedZoneId/],
    [{ dashboardDomainName: DASHBOARD_DOMAIN.dashboardDomainName }, /dashboardDomainName and dashboardCertificateArn go together/],
    [{ ...DASHBOARD_DOMAIN, dashboardCertificateArn: CERTIFICATE.replace('us-east-1', 'sa-east-1') }, /dashboardCertificateArn is in sa-east-1; it must be in us-east-1/],
    [{ ...DASHBOARD_DOMAIN, dashboardDomainName: 'Dashboard.cambio.example' }, /dashboardDomainName/],
    [{ ...DOMAIN, ...DASHBOARD_DOMAIN, dashboardDomainName: DOMAIN.domainName }, /must differ/],
  ])('refuses %j', (context, message) => {
    expect(() => synth('sandbox', context)).toThrow(message);
  });

  it("defaults the zone's name to the domain's parent", () => {
    const template = synth('sandbox', { ...DOMAIN, hostedZoneId: ZONE.hostedZoneId });
    const [record] = Object.values(resources(template, 'AWS::Route53::RecordSet')).map((resource) => resource.Properties);
    expect(record).toMatchObject({ Name: `${DOMAIN.domainName}.`, HostedZoneId: ZONE.hostedZoneId });
  });

  it('takes one hosted zone for both domains, each record under its own name', () => {
    const template = synth('sandbox', { ...DOMAIN, ...DASHBOARD_DOMAIN, hostedZoneId: ZONE.hostedZoneId });
    const records = Object.values(resources(template, 'AWS::Route53::RecordSet')).map((resource) => resource.Properties);
    expect(records.map((record) => `${record.Type} ${record.Name}`).sort()).toEqual([`A ${DOMAIN.domainName}.`, `A ${DASHBOARD_DOMAIN.dashboardDomainName}.`, `AAAA ${DASHBOARD_DOMAIN.dashboardDomainName}.`]);
    for (const record of records) expect(record.HostedZoneId).toBe(ZONE.hostedZoneId);
  });
});
