import { AssetHashType, CfnOutput, DockerImage, Duration, Lazy, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AuthorizationType, EndpointType, IdentitySource, LambdaIntegration, RequestAuthorizer, ResponseTransferMode, RestApi, type IResource } from 'aws-cdk-lib/aws-apigateway';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { AccountRecovery, FeaturePlan, Mfa, UserPool, UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { Asset } from 'aws-cdk-lib/aws-s3-assets';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { RecordTarget } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import { Construct } from 'constructs';
import { PASSWORD_POLICY } from '../functions/people/team.ts';
import { DASHBOARD_GATEWAY_RESPONSES } from '../functions/http/gateway-responses.ts';
import { answerInTheEnvelope } from './gateway-responses.ts';
import { DASHBOARD_API, DASHBOARD_DOWNLOADS, DASHBOARD_ROUTES, DASHBOARD_SIMULATOR, DOWNLOAD_TIMEOUT_SECONDS, SESSION_AUTHORIZER, type DashboardRouteSpec } from '../functions/routes.ts';
import { buildDashboard, DASHBOARD_SRC } from '../dashboard/build.ts';
import { DASHBOARD_CACHE_CONTROL, DASHBOARD_PAGE, DASHBOARD_SECURITY_HEADERS } from '../dashboard/serving.ts';
import { CambioFunction, functionLogging, type Binder } from './api-function.ts';
import { mailSending, tableRead, tableReadWrite, userPool, value } from './binders.ts';
import { destinationReadsOf } from './networks/registry.ts';
import type { CustomDomainSettings } from './deployment-settings.ts';
import { dashboardViewerRequest } from './dashboard-edge.ts';
import { DashboardOriginKey } from './dashboard-origin-key.ts';
import { domainAliases } from './custom-domain.ts';
import { accept } from './nag-suppressions.ts';
import type { StageConfig } from '../config/stages.ts';
import { DASHBOARD_DOWNLOAD_CONCURRENCY } from '../config/capacity.ts';

/** How long CloudFront waits for the dashboard API's answer, and between its packets. */
export const DASHBOARD_ORIGIN_READ_TIMEOUT_SECONDS = 60;

export interface DashboardProps {
  config: StageConfig;
  /** Context dashboardDomainName and dashboardCertificateArn (lib/deployment-settings.ts), or null for CloudFront's own domain. */
  domain: CustomDomainSettings | null;
  /** Context dashboardWebAclArn: a CloudFront web ACL (us-east-1) in front of the app and its API, or null. */
  webAclArn: string | null;
  table: Table;
  depositAccountXpub: string;
  /** What the Webhooks pages need beyond the table: sealing new secrets, the delivery queue. */
  webhookBinders: Binder[];
  /** Sealing and opening its sessions' Cognito tokens (functions/adapters/dashboard-session-sealer.ts). */
  sessionTokens: Binder;
  /** Context mailFrom: Team → Invite member mails the link through SES from it; null mails nothing. */
  mailFrom: string | null;
}

/**
 * The dashboard (../shared/dashboard.md, Where it runs): its people in a Cognito user pool, its API
 * (DASHBOARD_ROUTES) on a REST API of its own behind the session authorizer, and its static app in
 * a private S3 bucket; one CloudFront distribution serves both on one HTTPS origin, so the
 * SameSite=Strict session cookies reach the API, with the app's security headers and SPA routing.
 * `cdk deploy` builds the app and uploads it (appUpload), so one command deploys the whole stage.
 */
export class Dashboard extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  readonly api: RestApi;
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  private readonly domain: CustomDomainSettings | null;
  /** Every function of the dashboard, for the stack's per-function alarms (lib/observability.ts). */
  readonly functions: CambioFunction[] = [];

  constructor(scope: Construct, id: string, props: DashboardProps) {
    super(scope, id);
    const { config } = props;
    const stack = Stack.of(this);
    this.domain = props.domain;

    this.userPool = new UserPool(this, 'People', {
      userPoolName: `cambio-${config.stage}-dashboard`,
      // Only the dashboard API makes users (AdminCreateUser): sandbox sign-up and invitations.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      passwordPolicy: {
        minLength: PASSWORD_POLICY.minLength,
        requireLowercase: PASSWORD_POLICY.requireLowercase,
        requireUppercase: PASSWORD_POLICY.requireUppercase,
        requireDigits: PASSWORD_POLICY.requireDigits,
        requireSymbols: PASSWORD_POLICY.requireSymbols,
        tempPasswordValidity: Duration.days(1),
      },
      // A person may turn on an authenticator app; Cognito locks out repeated failed sign-ins by itself.
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { sms: false, otp: true },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      featurePlan: FeaturePlan.ESSENTIALS,
      deletionProtection: config.protectData,
      removalPolicy: config.protectData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.client = this.userPool.addClient('DashboardClient', {
      userPoolClientName: 'dashboard',
      generateSecret: false,
      authFlows: { userPassword: true },
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
    });

    this.bucket = new Bucket(this, 'App', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // cdk deploy fills it (appUpload) and a non-empty bucket cannot be deleted, so deleting the
      // stack leaves it behind with the built app alone, as the export bucket stays behind with its
      // files, rather than stopping halfway. (autoDeleteObjects would add a Lambda for a few KB.)
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.api = this.dashboardApi(props);
    const originKey = new DashboardOriginKey(this, 'OriginKey', { api: this.api, stage: config.stage });

    // SPA routing, and with a custom domain the redirect to it (lib/dashboard-edge.ts).
    const spaRouting = new CloudFrontFunction(this, 'SpaRouting', {
      comment: 'Dashboard SPA routing: app paths to index.html',
      code: FunctionCode.fromInline(dashboardViewerRequest(props.domain?.domainName ?? null)),
    });
    const headers = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: DASHBOARD_SECURITY_HEADERS['Content-Security-Policy'], override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
    });
    this.distribution = new Distribution(this, 'Cdn', {
      comment: `Cambio ${config.stage} dashboard`,
      ...(props.domain
        ? {
            domainNames: [props.domain.domainName],
            certificate: Certificate.fromCertificateArn(this, 'Certificate', props.domain.certificateArn),
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      webAclId: props.webAclArn ?? undefined,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        functionAssociations: [{ function: spaRouting, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        'dashboard/api/*': {
          // By the API's id and the stage's name, not the stage resource: the functions read the
          // distribution's domain (DASHBOARD_ORIGIN), so the distribution must not wait for them.
          // readTimeout is also the longest silence CloudFront allows within an answer: at its default
          // 30 s it cut a statement off while it read the ledger since its first day before its
          // first row. 60 s is the most without a quota increase.
          origin: new HttpOrigin(`${this.api.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
            originPath: `/${config.stage}`,
            customHeaders: originKey.originHeaders,
            readTimeout: Duration.seconds(DASHBOARD_ORIGIN_READ_TIMEOUT_SECONDS),
          }),
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          // Cookies, Origin and the CSRF header reach the API; Host stays API Gateway's. The policy
          // adds CloudFront's viewer headers, CloudFront-Viewer-Address among them.
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: headers,
        },
      },
    });

    this.appUpload(config);

    if (props.domain) {
      // The distribution answers over IPv6 too: AAAA beside A.
      domainAliases(this, {
        domain: props.domain,
        target: RecordTarget.fromAlias(new CloudFrontTarget(this.distribution)),
        targetName: this.distribution.distributionDomainName,
        outputId: 'DashboardDomainTarget',
        ipv6: true,
      });
    }
    const dashboardUrl = `${this.origin}/dashboard/`;
    new CfnOutput(stack, 'DashboardUrl', { value: dashboardUrl, description: 'The dashboard: sign up (sandbox) or accept an invitation, then Integrations → API keys' });
    new CfnOutput(stack, 'DashboardBucketName', { value: this.bucket.bucketName, description: "The app's files, under dashboard/; cdk deploy uploads them" });
    new CfnOutput(stack, 'DashboardUserPoolId', { value: this.userPool.userPoolId });

    accept(this.bucket, 'AwsSolutions-S1', 'The bucket holds the built app only, read by CloudFront alone through origin access control; every request is already in CloudFront, and the app holds no data worth an access log of its own.');
    accept(this.distribution, 'AwsSolutions-CFR1', 'The dashboard serves companies wherever they are; there is no country to refuse.');
    if (!props.webAclArn) {
      accept(this.distribution, 'AwsSolutions-CFR2', 'A CloudFront web ACL must live in us-east-1, apart from the stage, so it is attached with context dashboardWebAclArn rather than made here; without one the dashboard API throttles per stage and Cognito locks out repeated sign-in failures.');
    }
    accept(this.distribution, 'AwsSolutions-CFR3', 'CloudFront standard logs need an ACL-enabled bucket; the API behaviour is logged by API Gateway and every handler, and the static app has nothing to audit.');
    if (!props.domain) {
      accept(this.distribution, 'AwsSolutions-CFR4', "Without dashboardDomainName the distribution uses CloudFront's default *.cloudfront.net certificate, whose minimum TLS version cannot be set; with a custom domain it is TLSv1.2_2021 (README, Custom domain).");
    }
    accept(this.userPool, 'AwsSolutions-COG2', 'MFA is optional (TOTP), as issue #16 asks: each person may turn it on; sandbox sign-up must work with a password alone.');
    accept(this.userPool, 'AwsSolutions-COG3', "Threat protection (the PLUS plan) is billed per user; Cognito's built-in lockout after failed sign-ins covers the dashboard's throttling requirement.");
    accept(this.userPool, 'AwsSolutions-COG8', 'The PLUS feature plan is what threat protection needs (see COG3); ESSENTIALS has the password policy, lockout and TOTP the dashboard uses.');
  }

  /** Where people reach the dashboard: its custom domain, or the distribution's own. */
  private get origin(): string {
    return `https://${this.domain?.domainName ?? this.distribution.distributionDomainName}`;
  }

  /**
   * The app, built by `cdk synth` (CDK local bundling runs dashboard/build.ts, as the
   * functions' bundles run esbuild) and copied under dashboard/ by CDK's BucketDeployment.
   * The hashed scripts and styles go first, cached for a year; index.html follows with no-cache,
   * and CloudFront's copies of /dashboard/* are invalidated, so a page never names a file not yet
   * uploaded and the next visit gets the new app. Nothing is pruned: a tab still open on the
   * previous index.html keeps loading its own script and stylesheet (about 60 KB a deploy).
   */
  private appUpload(config: StageConfig): void {
    const app = new Asset(this, 'AppBuild', {
      path: DASHBOARD_SRC,
      assetHashType: AssetHashType.OUTPUT,
      bundling: {
        // Never pulled: the local build always succeeds or throws (CDK asks for an image anyway).
        image: DockerImage.fromRegistry('node:22'),
        local: {
          tryBundle: (outputDir) => {
            buildDashboard(outputDir);
            return true;
          },
        },
      },
    });
    const built = Source.bucket(app.bucket, app.s3ObjectKey);
    // CDK's upload function logs as the stage's functions do, through a role of its own.
    const { logGroup, role } = functionLogging(this, 'AppUpload', config);
    const upload = { destinationBucket: this.bucket, destinationKeyPrefix: 'dashboard/', prune: false, role, logGroup };
    const files = new BucketDeployment(this, 'AppFiles', {
      ...upload,
      sources: [built],
      exclude: [DASHBOARD_PAGE],
      cacheControl: [CacheControl.fromString(DASHBOARD_CACHE_CONTROL.asset)],
    });
    const page = new BucketDeployment(this, 'AppPage', {
      ...upload,
      sources: [built],
      exclude: ['*'],
      include: [DASHBOARD_PAGE],
      cacheControl: [CacheControl.fromString(DASHBOARD_CACHE_CONTROL.page)],
      distribution: this.distribution,
      distributionPaths: ['/dashboard/*'],
    });
    page.node.addDependency(files);

    // BucketDeployment grants these itself (grantRead of the asset, grantReadWrite of the bucket,
    // invalidations on *); the role is this upload function's alone and runs only during a deploy.
    const bucketId = Stack.of(this).getLogicalId(this.bucket.node.defaultChild as CfnBucket);
    const cdkAssets = 'arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*';
    const reasons: Record<string, string> = {
      'Action::s3:GetObject*': "CDK's BucketDeployment reads the app's zip from CDK's asset bucket (grantRead) and the app bucket's files (grantReadWrite); both buckets hold only deploy artefacts and the built app.",
      'Action::s3:GetBucket*': "CDK's BucketDeployment reads the location of the asset bucket and the app bucket (grantRead); the role is the deploy-time upload function's alone.",
      'Action::s3:List*': "CDK's BucketDeployment lists what is already under dashboard/ to sync against it; the role is the deploy-time upload function's alone.",
      [`Resource::${cdkAssets}`]: "The app's zip is an object of CDK's bootstrap asset bucket, named by its hash at synth; CDK grants read on the bucket's objects, as it does to CloudFormation for every asset.",
      'Action::s3:DeleteObject*': "Part of CDK's grantReadWrite on the app bucket; the upload never prunes (prune: false), and the bucket holds nothing but the built app.",
      'Action::s3:Abort*': "Part of CDK's grantReadWrite on the app bucket, so the AWS CLI's multipart uploads of the app can clean up after a failure.",
      [`Resource::<${bucketId}.Arn>/*`]: "The upload writes the app's files under dashboard/ of the app bucket, which holds nothing else; CDK grants on the bucket's objects.",
      'Resource::*': "CloudFront invalidations (CreateInvalidation, GetInvalidation) after the upload, so the next visit gets the new index.html; CDK's BucketDeployment grants them on *. test/infra/tracing.test.ts checks nothing else is.",
    };
    for (const [finding, reason] of Object.entries(reasons)) accept(role, `AwsSolutions-IAM5[${finding}]`, reason);
  }

  private dashboardApi(props: DashboardProps): RestApi {
    const { config } = props;
    const api = new RestApi(this, 'Api', {
      restApiName: `cambio-${config.stage}-dashboard`,
      description: `Cambio dashboard API (${config.stage}), behind the dashboard's CloudFront distribution`,
      endpointTypes: [EndpointType.REGIONAL],
      // Every method: the key only the distribution holds (./dashboard-origin-key.ts).
      defaultMethodOptions: { apiKeyRequired: true },
      cloudWatchRole: false,
      deployOptions: { stageName: config.stage, throttlingRateLimit: config.capacity.dashboard.rateLimit, throttlingBurstLimit: config.capacity.dashboard.burstLimit, tracingEnabled: true },
    });
    // The distribution is made after the API its behaviour points at: its domain is read lazily.
    const origin = value('DASHBOARD_ORIGIN', Lazy.string({ produce: () => this.origin }));
    const make = (handler: string, ...bind: Binder[]) => {
      const fn = new CambioFunction(this, { handler, config, depositAccountXpub: props.depositAccountXpub, bind });
      this.functions.push(fn);
      return fn;
    };
    // It reads the person's last sign-out (functions/people/sign-outs.ts) and nothing else.
    const sessionAuthorizer = make(SESSION_AUTHORIZER.handler, tableRead(props.table), userPool(this.userPool, this.client));
    const authorizer = new RequestAuthorizer(this, 'SessionAuthorizer', {
      handler: sessionAuthorizer,
      identitySources: SESSION_AUTHORIZER.identityHeaders.map((header) => IdentitySource.header(header)),
      resultsCacheTtl: Duration.seconds(SESSION_AUTHORIZER.cacheSeconds),
    });
    // One function serves every route of DASHBOARD_ROUTES (functions/handlers/dashboard/api.ts says why), with the union of
    // their needs: the table (DASHBOARD_ROUTES' tableAccess) and making people in the pool
    // (sign-up, accepting an invitation) or setting their password (a reset by mail). One integration, one invoke permission for all methods.
    const routesFunction = make(
      DASHBOARD_API.handler,
      DASHBOARD_ROUTES.some((route) => route.tableAccess === 'readWrite') ? tableReadWrite(props.table) : tableRead(props.table),
      // A password reset finds the account by its address, sets the new password and revokes the person's refresh tokens;
      // a sign-up or invitation to an address never verified deletes the account that only claimed it.
      userPool(this.userPool, this.client, 'cognito-idp:AdminCreateUser', 'cognito-idp:AdminSetUserPassword', 'cognito-idp:AdminGetUser', 'cognito-idp:AdminUserGlobalSignOut', 'cognito-idp:AdminDeleteUser'),
      origin,
      // New withdrawal and the allowlist read a destination some network reads on the chain (a Solana token account).
      ...destinationReadsOf(config),
      ...props.webhookBinders,
      // Sign-in seals a session's Cognito tokens, the routes that act as the person open them.
      props.sessionTokens,
      ...(props.mailFrom ? [mailSending(props.mailFrom)] : []),
    );
    const integration = new LambdaIntegration(routesFunction, { proxy: true, scopePermissionToMethod: false });
    const methodAuth = (route: DashboardRouteSpec) =>
      route.auth === 'session' ? { authorizer, authorizationType: AuthorizationType.CUSTOM } : { authorizationType: AuthorizationType.NONE };
    for (const route of DASHBOARD_ROUTES) resourceFor(api.root, route.path).addMethod(route.method, integration, methodAuth(route));
    // The simulator pays on every network's sandbox chain, whose clients would weigh on every other
    // route's cold start (functions/routes.ts DASHBOARD_SIMULATOR): a function of its own, given the
    // table and the chain settings its slice names (stage figures, no secret: it pays only on the
    // local runtime's nodes and on the table's sandbox TRON chain). One invoke permission, not a
    // method-scoped pair: API Gateway routes this one method to it.
    const simulator = make(DASHBOARD_SIMULATOR.handler, DASHBOARD_SIMULATOR.tableAccess === 'readWrite' ? tableReadWrite(props.table) : tableRead(props.table), origin);
    resourceFor(api.root, DASHBOARD_SIMULATOR.path).addMethod(
      DASHBOARD_SIMULATOR.method,
      new LambdaIntegration(simulator, { proxy: true, scopePermissionToMethod: false }),
      methodAuth(DASHBOARD_SIMULATOR),
    );
    // Downloads stream (functions/http/dashboard-download.ts): a function each, invoked with
    // InvokeWithResponseStream, so a file of any length goes out as it is read, past the 10 MB and
    // 29 s limits of a buffered answer (a stream may last 15 minutes). The timeout is what a large
    // export takes to read at DynamoDB's pace, not what a click should wait for. So the dashboard's
    // throttle does not bound how many run at once: each has a ceiling of its own, reserved
    // (config/capacity.ts DASHBOARD_DOWNLOAD_CONCURRENCY), or a person scripting downloads could
    // hold the account's concurrency that every company's /v1 functions share.
    for (const route of DASHBOARD_DOWNLOADS) {
      const download = new CambioFunction(this, {
        handler: route.handler,
        config,
        depositAccountXpub: props.depositAccountXpub,
        bind: [route.tableAccess === 'readWrite' ? tableReadWrite(props.table) : tableRead(props.table), origin],
        timeout: Duration.seconds(DOWNLOAD_TIMEOUT_SECONDS),
        reservedConcurrentExecutions: DASHBOARD_DOWNLOAD_CONCURRENCY,
      });
      this.functions.push(download);
      resourceFor(api.root, route.path).addMethod(
        route.method,
        // The stage's invoke permission alone, as the /v1 routes' (lib/cambio-stack.ts).
        new LambdaIntegration(download, { proxy: true, allowTestInvoke: false, responseTransferMode: ResponseTransferMode.STREAM, timeout: Duration.seconds(DOWNLOAD_TIMEOUT_SECONDS) }),
        { authorizer, authorizationType: AuthorizationType.CUSTOM },
      );
    }
    // A missing or expired session, and whatever else API Gateway answers by itself (a throttle, a
    // handler that timed out), answers in the envelope, as the local runtime does.
    answerInTheEnvelope(api, DASHBOARD_GATEWAY_RESPONSES, (spec) => `Gateway${spec.type}`);
    accept(api, 'AwsSolutions-APIG2', "Requests are validated by each handler (valibot, functions/http/dashboard-route.ts) so that refusals carry the envelope and field paths the page shows.");
    accept(api, 'AwsSolutions-APIG4', 'Sign-up, sign-in, the session refresh and sign-out, and accepting an invitation are how a person gets a session, so they cannot require one; each checks the request origin (CSRF) and its own cookie or token. Every other method has the session authorizer.');
    accept(api, 'AwsSolutions-COG4', "The session is an HttpOnly cookie, which API Gateway's Cognito authorizer cannot read (it takes a bearer token from one header); the session authorizer verifies the same Cognito access token with aws-jwt-verify (docs/dashboard-api.md).");
    accept(api.deploymentStage, 'AwsSolutions-APIG1', "Every request reaches it through the dashboard's CloudFront distribution and each handler logs one line (functions/http/access-log.ts); access logs would need the account-level CloudWatch role that the /v1 API already sets up.");
    accept(api.deploymentStage, 'AwsSolutions-APIG3', 'The dashboard API is reached through CloudFront; stage throttling limits it, and Cognito locks out repeated sign-in failures.');
    accept(api.deploymentStage, 'AwsSolutions-APIG6', 'Execution logs would record request headers, the session cookie among them; each handler logs one line instead.');
    return api;
  }
}

function resourceFor(root: IResource, path: string): IResource {
  return path
    .split('/')
    .filter((segment) => segment !== '')
    .reduce<IResource>((parent, segment) => parent.getResource(segment) ?? parent.addResource(segment), root);
}
