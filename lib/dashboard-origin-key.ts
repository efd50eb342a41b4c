import { Stack } from 'aws-cdk-lib';
import { ApiKey, ResponseType, UsagePlan, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { errorEnvelope } from '../functions/http/envelope.ts';
import { accept } from './nag-suppressions.ts';

/** The header API Gateway reads an API key from, which CloudFront adds to every request it forwards. */
export const ORIGIN_KEY_HEADER = 'x-api-key';

/**
 * The dashboard API answers only requests that came through the dashboard's CloudFront
 * distribution. Its execute-api URL is public, and a request sent there directly would pass by
 * the distribution's web ACL, and could name any viewer in CloudFront-Viewer-Address, the header
 * sign-in limits and the audit log take the person's address from (functions/http/viewer-address.ts).
 * So every method requires an API key that only the distribution holds: a value generated into
 * Secrets Manager at deploy, given to API Gateway as the key and to CloudFront as a header it adds
 * to every request to the API, over any a viewer sent. CloudFormation reads it by dynamic reference,
 * so it is in neither the template nor cdk.out. Without it, API Gateway refuses with 403 in the
 * envelope before any function runs.
 */
export class DashboardOriginKey extends Construct {
  /** What CloudFront adds to each request to the API (the HttpOrigin's customHeaders). */
  readonly originHeaders: Record<string, string>;

  constructor(scope: Construct, id: string, props: { api: RestApi; stage: string }) {
    super(scope, id);
    const value = new Secret(this, 'Value', {
      description: `Cambio ${props.stage}: the key CloudFront adds to requests to the dashboard API`,
      // API Gateway takes 20 to 128 characters; letters and digits need no escaping in a header.
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
    });
    const key = new ApiKey(this, 'Key', {
      description: 'Held by the dashboard\'s CloudFront distribution alone (lib/dashboard-origin-key.ts)',
      value: value.secretValue.unsafeUnwrap(),
    });
    // A key works only through a usage plan of the stage; no throttle of its own beyond the stage's.
    const plan = new UsagePlan(this, 'Plan', {
      name: `${Stack.of(this).stackName}-dashboard-edge`,
      description: 'The dashboard distribution\'s key: the stage throttle alone limits it',
      apiStages: [{ api: props.api, stage: props.api.deploymentStage }],
    });
    plan.addApiKey(key);
    props.api.addGatewayResponse('GatewayINVALID_API_KEY', {
      type: ResponseType.INVALID_API_KEY,
      statusCode: '403',
      responseHeaders: { 'Content-Type': "'application/json'" },
      templates: { 'application/json': errorEnvelope('FORBIDDEN', "The dashboard API answers through the dashboard's own address only") },
    });
    this.originHeaders = { [ORIGIN_KEY_HEADER]: value.secretValue.unsafeUnwrap() };
    accept(value, 'AwsSolutions-SMG4', 'The value only proves a request came through the distribution; rotating it would need CloudFront and the API key changed in step, which a redeploy with a new secret does.');
  }
}
