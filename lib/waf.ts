import { Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { credentialForms, type Environment } from '../functions/api-keys/api-keys.ts';
import { gatewayResponse } from '../functions/http/gateway-responses.ts';
import { MAX_BODY_BYTES } from '../functions/http/route.ts';
import { AUTHORIZER, ROUTES, SESSION_AUTHORIZER } from '../functions/routes.ts';

/** What API Gateway forwards of a body to WAF: its default, 16 KB, which is the contract's limit. */
const BODY_INSPECTION_LIMIT = 'KB_16';

export interface ApiFirewallProps {
  stage: Stage;
  /** Requests one IP may send in any 5 minutes (WAF's window) before it is answered 429. */
  ratePer5Minutes: number;
  /** Whose credentials the stage issues: the form its keys and secrets take. */
  environment: Environment;
}

/**
 * The /v1 routes' paths (functions/routes.ts) as one regular expression, behind the stage's name
 * where the execute-api URL carries it (`/production/v1/…`; a custom domain's mapping has none).
 * A path no route has is left to API Gateway, which answers it 404 NOT_FOUND as before.
 */
export function routePathsPattern(): string {
  const paths = [...new Set(ROUTES.map((route) => route.path.replace(/\{[^}]+\}/g, '[^/]+')))];
  return `^(/[^/]+)?(${paths.join('|')})$`;
}

/** WAF's longest regular expression in a regex match statement. */
export const WAF_REGEX_MAX_LENGTH = 512;

/**
 * The labels AWS's common rule set (AWSManagedRulesCommonRuleSet) adds, as AWS lists them for each
 * rule (https://docs.aws.amazon.com/waf/latest/developerguide/aws-managed-rule-groups-baseline.html#aws-managed-rule-groups-baseline-crs).
 * A label is not its rule's name: NoUserAgent_HEADER labels `…:NoUserAgent_Header`.
 */
export const CORE_RULE_SET_NAMESPACE = 'awswaf:managed:aws:core-rule-set:';

/** The rules that only count, by rule name, with the label each adds. */
export const COUNTED_CORE_RULES = {
  // Refuses bodies over 8 KB; the contract allows 16 KiB and the handlers enforce that (api-contract.md).
  SizeRestrictions_BODY: 'SizeRestrictions_Body',
  // Would refuse server-to-server clients that send no User-Agent, which the contract does not require.
  NoUserAgent_HEADER: 'NoUserAgent_Header',
} as const;

/** The labels of the rules that block, every rule of the set but the two counted ones. */
export const ENFORCED_CORE_RULE_LABELS = [
  'BadBots_Header',
  'SizeRestrictions_QueryString',
  'SizeRestrictions_Cookie_Header',
  'SizeRestrictions_URIPath',
  'EC2MetaDataSSRF_Body',
  'EC2MetaDataSSRF_Cookie',
  'EC2MetaDataSSRF_URIPath',
  'EC2MetaDataSSRF_QueryArguments',
  'GenericLFI_QueryArguments',
  'GenericLFI_URIPath',
  'GenericLFI_Body',
  'RestrictedExtensions_URIPath',
  'RestrictedExtensions_QueryArguments',
  'GenericRFI_QueryArguments',
  'GenericRFI_Body',
  'GenericRFI_URIPath',
  'CrossSiteScripting_Cookie',
  'CrossSiteScripting_QueryArguments',
  'CrossSiteScripting_Body',
  'CrossSiteScripting_URIPath',
] as const;

const label = (name: string) => ({ labelMatchStatement: { scope: 'LABEL', key: `${CORE_RULE_SET_NAMESPACE}${name}` } });

/**
 * AWS WAF in front of a deployed API stage (config/stages.ts `waf`). Every refusal wears the
 * contract's envelope (docs/api-notes.md, Everywhere):
 *
 * - a per-IP rate rule answers 429 RATE_LIMITED, like API Gateway's own throttling;
 * - a request to a /v1 route without a key and a secret of the stage's form answers 401 AUTH_FAILED,
 *   as the authorizer would: API Gateway counts every request against the stage's throttle, which
 *   every company shares, before its authorizer refuses one, so a flood of requests without
 *   credentials (a scanner, a misconfigured client) would have taken every company's capacity
 *   (docs/capacity.md). A well-formed key that is wrong or revoked still reaches the authorizer,
 *   at most the per-IP rate from each address;
 * - a body over the contract's 16 KiB answers 413 PAYLOAD_TOO_LARGE, as the handlers do: without it a
 *   body between Lambda's 6 MB payload limit and API Gateway's 10 MB never reached a handler, and
 *   the gateway answered 500 INTERNAL_ERROR for the caller's mistake (WAF sees the first 16 KB of a
 *   body; a longer one is `oversize`, and the rule matches it as such);
 * - AWS's common rule set runs with its result overridden to count, so its matches only add labels,
 *   and the rule after it blocks on those labels with 403 FORBIDDEN (WAF's documented way to give a
 *   managed rule group a custom response). SizeRestrictions_BODY and NoUserAgent_HEADER only count
 *   (COUNTED_CORE_RULES): their labels alone block nothing.
 *
 * Inside the group a counted rule does not stop evaluation but a blocking one does, so a request can
 * carry a counted label and a blocking one together (an attack with no User-Agent, or in a body over
 * 8 KB). The block rule therefore matches each blocking rule's label by name, and, for rules AWS adds
 * to the set later, any label of its namespace on a request that carries neither counted label.
 */
/** The headers that carry a credential (the API secret, the dashboard's session cookie), lower case
 * as WAF matches them: never shown in a sampled request. The API key alone proves nothing. */
const SECRET_HEADERS = [AUTHORIZER.identityHeaders[1], ...SESSION_AUTHORIZER.identityHeaders].map((header) => header.toLowerCase());

/** What the per-IP rate rule's 429 asks a client to wait: WAF counts an address over a sliding 5
 * minutes, so a minute lets enough of its count age out to be worth a try. */
export const PER_IP_RETRY_AFTER_SECONDS = 60;

export class ApiFirewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiFirewallProps) {
    super(scope, id);
    const metricPrefix = Stack.of(this).stackName;
    const throttled = gatewayResponse('THROTTLED');
    const refused = gatewayResponse('WAF_FILTERED');
    const tooLarge = gatewayResponse('REQUEST_TOO_LARGE');
    const unauthorized = gatewayResponse('UNAUTHORIZED');
    const forms = credentialForms(props.environment);
    const headerOfForm = (header: string, form: string) => ({
      regexMatchStatement: { regexString: form, // singleHeader is untyped JSON in the L1 construct: CDK passes it as written, so CloudFormation's
      // own casing (`Name`).
      fieldToMatch: { singleHeader: { Name: header.toLowerCase() } }, textTransformations: [{ priority: 0, type: 'NONE' }] },
    });
    const visibility = (name: string) => ({ cloudWatchMetricsEnabled: true, metricName: `${metricPrefix}-${name}`, sampledRequestsEnabled: true });

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('api'),
      customResponseBodies: {
        RateLimited: { contentType: 'APPLICATION_JSON', content: throttled.body },
        Refused: { contentType: 'APPLICATION_JSON', content: refused.body },
        TooLarge: { contentType: 'APPLICATION_JSON', content: tooLarge.body },
        AuthFailed: { contentType: 'APPLICATION_JSON', content: unauthorized.body },
      },
      associationConfig: { requestBody: { API_GATEWAY: { defaultSizeInspectionLimit: BODY_INSPECTION_LIMIT } } },
      // Sampled requests (kept 3 hours, GetSampledRequests) carry every header as sent: an API
      // secret, or a dashboard session cookie, read there would pay out. The web ACL's data
      // protection replaces them with REDACTED wherever WAF shows a request (samples, logs),
      // as the stage keeps no execution logs for the same reason (cambio-stack.ts).
      dataProtectionConfig: { dataProtections: SECRET_HEADERS.map((header) => ({ field: { fieldType: 'SINGLE_HEADER', fieldKeys: [header] }, action: 'SUBSTITUTION' })) },
      rules: [
        {
          name: 'PerIpRate',
          priority: 0,
          statement: { rateBasedStatement: { limit: props.ratePer5Minutes, aggregateKeyType: 'IP' } },
          // Retry-After, as every 429 of the contract's: a client's own backoff (seconds) would only
          // meet the block again while the address's 5-minute count stays over.
          action: { block: { customResponse: { responseCode: throttled.status, customResponseBodyKey: 'RateLimited', responseHeaders: [{ name: 'Retry-After', value: String(PER_IP_RETRY_AFTER_SECONDS) }] } } },
          visibilityConfig: visibility('per-ip-rate'),
        },
        {
          name: 'BodyOver16KiB',
          priority: 1,
          statement: {
            sizeConstraintStatement: {
              fieldToMatch: { body: { oversizeHandling: 'MATCH' } },
              comparisonOperator: 'GT',
              size: MAX_BODY_BYTES,
              textTransformations: [{ priority: 0, type: 'NONE' }],
            },
          },
          action: { block: { customResponse: { responseCode: tooLarge.status, customResponseBodyKey: 'TooLarge' } } },
          visibilityConfig: visibility('body-over-16kib'),
        },
        {
          name: 'CredentialsNotOfStageForm',
          priority: 2,
          statement: {
            andStatement: {
              statements: [
                // Decoded as API Gateway routes it: `/v1/%64eposits` is /v1/deposits.
                { regexMatchStatement: { regexString: routePathsPattern(), fieldToMatch: { uriPath: {} }, textTransformations: [{ priority: 0, type: 'URL_DECODE' }] } },
                // A header missing matches no expression: refused, as API Gateway refuses it.
                { notStatement: { statement: { andStatement: { statements: [headerOfForm(AUTHORIZER.identityHeaders[0], forms.apiKey), headerOfForm(AUTHORIZER.identityHeaders[1], forms.apiSecret)] } } } },
              ],
            },
          },
          action: { block: { customResponse: { responseCode: unauthorized.status, customResponseBodyKey: 'AuthFailed' } } },
          visibilityConfig: visibility('credentials-not-of-stage-form'),
        },
        {
          name: 'AwsCommonRuleSet',
          priority: 3,
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              // Count, not block, inside the group too: a blocking rule would end the group's
              // evaluation before the rules after it could add their labels.
              ruleActionOverrides: Object.keys(COUNTED_CORE_RULES).map((name) => ({ name, actionToUse: { count: {} } })),
            },
          },
          overrideAction: { count: {} },
          visibilityConfig: visibility('common-rule-set'),
        },
        {
          name: 'AwsCommonRuleSetBlock',
          priority: 4,
          statement: {
            orStatement: {
              statements: [
                ...ENFORCED_CORE_RULE_LABELS.map(label),
                {
                  andStatement: {
                    statements: [
                      { labelMatchStatement: { scope: 'NAMESPACE', key: CORE_RULE_SET_NAMESPACE } },
                      ...Object.values(COUNTED_CORE_RULES).map((counted) => ({ notStatement: { statement: label(counted) } })),
                    ],
                  },
                },
              ],
            },
          },
          action: { block: { customResponse: { responseCode: refused.status, customResponseBodyKey: 'Refused' } } },
          visibilityConfig: visibility('common-rule-set-block'),
        },
      ],
    });
    new CfnWebACLAssociation(this, 'StageAssociation', { resourceArn: props.stage.stageArn, webAclArn: this.webAcl.attrArn });
  }
}
