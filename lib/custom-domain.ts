import { CfnOutput, Stack } from 'aws-cdk-lib';
import { DomainName, EndpointType, SecurityPolicy, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { AaaaRecord, ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayDomain } from 'aws-cdk-lib/aws-route53-targets';
import { Construct } from 'constructs';
import type { CustomDomainSettings } from './deployment-settings.ts';

export interface ApiCustomDomainProps {
  api: RestApi;
  settings: CustomDomainSettings;
}

/**
 * The API on a domain of the operator's (README, Custom domain): a regional API Gateway custom
 * domain with the stage mapped at its root, so `https://<domain>/v1/company` reaches the same
 * `/v1/company` resource as the execute-api URL does, and `ApiUrl` is `https://<domain>/v1`.
 * The certificate is ACM's, in the stack's region (a regional domain cannot use one from
 * us-east-1 elsewhere); it is imported, never created, because validating it needs the DNS owner.
 * With a hosted zone the alias record is written too; without one, `ApiDomainTarget` says what the
 * operator's CNAME must point at.
 */
export class ApiCustomDomain extends Construct {
  readonly domain: DomainName;
  /** The base URL integrators use: the contract's `/v1` on the custom domain. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ApiCustomDomainProps) {
    super(scope, id);
    const { domainName, certificateArn } = props.settings;
    this.domain = new DomainName(this, 'Domain', {
      domainName,
      certificate: Certificate.fromCertificateArn(this, 'Certificate', certificateArn),
      endpointType: EndpointType.REGIONAL,
      securityPolicy: SecurityPolicy.TLS_1_2,
    });
    // No base path: the stage's own resources start with /v1, as the contract's paths do.
    this.domain.addBasePathMapping(props.api, { stage: props.api.deploymentStage });
    domainAliases(this, {
      domain: props.settings,
      target: RecordTarget.fromAlias(new ApiGatewayDomain(this.domain)),
      targetName: this.domain.domainNameAliasDomainName,
      outputId: 'ApiDomainTarget',
      ipv6: false,
    });
    this.url = `https://${domainName}/v1`;
  }
}

/**
 * A custom domain's DNS, for the API's domain and the dashboard's: with a hosted zone, its alias
 * records to `target` (A, and AAAA where the target answers over IPv6 too); either way an output
 * (`outputId`) naming `targetName`, where the records point or where the operator's CNAME must.
 */
export function domainAliases(scope: Construct, props: { domain: CustomDomainSettings; target: RecordTarget; targetName: string; outputId: string; ipv6: boolean }): void {
  const { domainName, hostedZone } = props.domain;
  if (hostedZone) {
    const zone = HostedZone.fromHostedZoneAttributes(scope, 'Zone', { hostedZoneId: hostedZone.id, zoneName: hostedZone.name });
    new ARecord(scope, 'AliasRecord', { zone, recordName: `${domainName}.`, target: props.target });
    if (props.ipv6) new AaaaRecord(scope, 'AliasRecordIpv6', { zone, recordName: `${domainName}.`, target: props.target });
  }
  new CfnOutput(Stack.of(scope), props.outputId, {
    value: props.targetName,
    description: hostedZone
      ? props.ipv6
        ? `Where the alias records for ${domainName} point`
        : `Where the alias record for ${domainName} points`
      : `Point a CNAME (or alias) record for ${domainName} here`,
  });
}
