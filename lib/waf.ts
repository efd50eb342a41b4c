import { Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { gatewayResponse } from '../functions/http/gateway-responses.ts';

export interface ApiFirewallProps {
  stage: Stage;
  /** Requests one IP may send in any 5 minutes (WAF's window) before it is answered 429. */
  ratePer5Minutes: number;
}

/**
 * AWS WAF in front of the API stage (production: lib/stages.ts `waf`): AWS's managed common rule set
 * and a per-IP rate rule whose refusal wears the contract's 429 RATE_LIMITED envelope, like API
 * Gateway's own throttling. Two rules of the common set are only counted, not enforced:
 * SizeRestrictions_BODY refuses bodies over 8 KB where the contract allows 16 KiB (the handlers
 * enforce that limit, api-contract.md), and NoUserAgent_HEADER would refuse server-to-server
 * clients that send no User-Agent, which the contract does not require.
 */
export class ApiFirewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiFirewallProps) {
    super(scope, id);
    const metricPrefix = Stack.of(this).stackName;
    const throttled = gatewayResponse('THROTTLED');
    const visibility = (name: string) => ({ cloudWatchMetricsEnabled: true, metricName: `${metricPrefix}-${name}`, sampledRequestsEnabled: true });

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('api'),
      customResponseBodies: { RateLimited: { contentType: 'APPLICATION_JSON', content: throttled.body } },
      rules: [
        {
          name: 'PerIpRate',
          priority: 0,
          statement: { rateBasedStatement: { limit: props.ratePer5Minutes, aggregateKeyType: 'IP' } },
          action: { block: { customResponse: { responseCode: throttled.status, customResponseBodyKey: 'RateLimited' } } },
          visibilityConfig: visibility('per-ip-rate'),
        },
        {
          name: 'AwsCommonRuleSet',
          priority: 1,
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              ruleActionOverrides: ['SizeRestrictions_BODY', 'NoUserAgent_HEADER'].map((name) => ({ name, actionToUse: { count: {} } })),
            },
          },
          overrideAction: { none: {} },
          visibilityConfig: visibility('common-rule-set'),
        },
      ],
    });
    new CfnWebACLAssociation(this, 'StageAssociation', { resourceArn: props.stage.stageArn, webAclArn: this.webAcl.attrArn });
  }
}
