import { CfnOutput, Stack } from 'aws-cdk-lib';
import { DomainName, EndpointType, SecurityPolicy, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
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
    const { domainName, certificateArn, hostedZone } = props.settings;
    this.domain = new DomainName(this, 'Domain', {
      domainName,
      certificate: Certificate.fromCertificateArn(this, 'Certificate', certificateArn),
      endpointType: EndpointType.REGIONAL,
      securityPolicy: SecurityPolicy.TLS_1_2,
    });
    // No base path: the stage's own resources start with /v1, as the contract's paths do.
    this.domain.addBasePathMapping(props.api, { stage: props.api.deploymentStage });
    if (hostedZone) {
      new ARecord(this, 'AliasRecord', {
        zone: HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId: hostedZone.id, zoneName: hostedZone.name }),
        recordName: `${domainName}.`,
        target: RecordTarget.fromAlias(new ApiGatewayDomain(this.domain)),
      });
    }
    new CfnOutput(Stack.of(this), 'ApiDomainTarget', {
      value: this.domain.domainNameAliasDomainName,
      description: hostedZone ? `Where the alias record for ${domainName} points` : `Point a CNAME (or alias) record for ${domainName} here`,
    });
    this.url = `https://${domainName}/v1`;
  }
}
