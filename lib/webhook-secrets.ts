import { Lazy, RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { refusedToAllBut } from './key-policy.ts';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import type { SecretPurpose } from '../functions/webhooks/webhook-secrets.ts';
import type { SessionSealingContext } from '../functions/people/dashboard-sessions.ts';
import { ROUTES } from '../functions/routes.ts';
import type { Binder } from './api-function.ts';
import type { StageName } from '../config/stages.ts';

const PURPOSE = 'kms:EncryptionContext:purpose';
const SIGNING: SecretPurpose = 'webhook-signing';
const REPLAY: SecretPurpose = 'idempotent-replay';
const SESSION: SessionSealingContext['purpose'] = 'dashboard-session';

export interface WebhookSecretsProps {
  stage: StageName;
}

/** The route that seals (functions/routes.ts). */
export const CREATE_WEBHOOK_HANDLER = ROUTES.find((route) => route.method === 'POST' && route.path === '/v1/webhooks')!.handler;

/**
 * The KMS key that seals webhook signing secrets (functions/webhooks/webhook-secrets.ts), so the
 * table, its PITR backups and the daily export for finance hold only ciphertext: reading them is
 * not enough to sign webhooks as Cambio.
 *
 * Who may do what, by the encryption context's `purpose` (KMS checks the whole context
 * cryptographically; IAM conditions on `purpose`):
 * - the create-webhook function may Encrypt (any webhook, either purpose) and Decrypt only
 *   `idempotent-replay` values, to replay a POST's answer: it cannot open a stored signing secret;
 * - the webhook sender may Decrypt only `webhook-signing` values, and never Encrypt;
 * - the dashboard API may Encrypt only `webhook-signing` values (Add endpoint, Roll secret), and
 *   Encrypt and Decrypt `dashboard-session` values, bound to a `sessionKey`: the Cognito tokens of
 *   a dashboard session (functions/adapters/dashboard-session-sealer.ts), sealed at sign-in and
 *   opened by the routes that act at the user pool as the person; the session authorizer gets no
 *   right, as it never opens them;
 * - no other function gets any right on the key (test/infra/webhook-secrets.test.ts).
 * Each right comes with the key's id as a binder (`sealing` for POST /v1/webhooks, `opening` for
 * the sender), bound where the stack makes those functions.
 *
 * The key policy is CDK's default (the account's IAM decides) for administering and sealing, but
 * opening is the functions' alone: for each purpose, kms:Decrypt is refused in the key's own policy
 * to every principal but the roles bound to open it, whatever their IAM allows. An administrator
 * (IAM `kms:*`) opening a signing secret could sign events as Cambio to a company's endpoint (a
 * deposit.completed that never happened); a replay copy holds a new webhook's secret too; a
 * session's tokens are a person's dashboard. As the hot wallet keys' Sign (lib/chain-jobs.ts).
 */
export class WebhookSecrets extends Construct {
  readonly key: Key;
  /** POST /v1/webhooks: seals each new secret, and the copy kept for its Idempotency-Key replay. */
  readonly sealing: Binder;
  /** The webhook sender: opens secrets to sign deliveries. */
  readonly opening: Binder;
  /** The dashboard API (Add endpoint, Roll secret): seals new signing secrets, opens none. */
  readonly sealingNew: Binder;
  /** The dashboard API: seals and opens its sessions' Cognito tokens, and nothing of a webhook's. */
  readonly sessionTokens: Binder;

  /** By purpose, the roles bound to open it: the key's policy refuses kms:Decrypt to any other. */
  private readonly openers: Record<SecretPurpose | typeof SESSION, string[]> = { 'webhook-signing': [], 'idempotent-replay': [], 'dashboard-session': [] };

  constructor(scope: Construct, id: string, props: WebhookSecretsProps) {
    super(scope, id);
    this.key = new Key(this, 'Key', {
      description: `Cambio ${props.stage} webhook signing secrets (envelope for the table's copies)`,
      enableKeyRotation: true,
      // Losing it loses every webhook's secret: integrators would have to register again.
      removalPolicy: RemovalPolicy.RETAIN,
      alias: `alias/cambio-${props.stage}-webhook-secrets`,
    });
    const bound = { Null: { 'kms:EncryptionContext:companyId': 'false', 'kms:EncryptionContext:webhookId': 'false' } };
    const keyArn = this.key.keyArn;
    for (const [purpose, roles] of Object.entries(this.openers)) {
      // The roles filled in as the binders are bound, before synthesis reads them.
      const openers = Lazy.list({ produce: () => (roles.length > 0 ? roles : ['arn:aws:iam::000000000000:role/none']) });
      this.key.addToResourcePolicy(refusedToAllBut(`OnlyItsOpenersDecrypt-${purpose}`, 'kms:Decrypt', openers, { StringEquals: { [PURPOSE]: purpose } }));
    }
    const opens = (fn: Parameters<Binder>[0], ...purposes: (keyof typeof this.openers)[]) => purposes.forEach((purpose) => this.openers[purpose].push(fn.role!.roleArn));
    this.sealing = (fn) => {
      fn.addToRolePolicy(
        new PolicyStatement({ actions: ['kms:Encrypt'], resources: [keyArn], conditions: { StringEquals: { [PURPOSE]: [SIGNING, REPLAY] }, ...bound } }),
      );
      fn.addToRolePolicy(new PolicyStatement({ actions: ['kms:Decrypt'], resources: [keyArn], conditions: { StringEquals: { [PURPOSE]: REPLAY }, ...bound } }));
      opens(fn, REPLAY);
      return { WEBHOOK_SECRET_KMS_KEY_ID: keyArn };
    };
    this.sealingNew = (fn) => {
      fn.addToRolePolicy(new PolicyStatement({ actions: ['kms:Encrypt'], resources: [keyArn], conditions: { StringEquals: { [PURPOSE]: SIGNING }, ...bound } }));
      return { WEBHOOK_SECRET_KMS_KEY_ID: keyArn };
    };
    this.sessionTokens = (fn) => {
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: ['kms:Encrypt', 'kms:Decrypt'],
          resources: [keyArn],
          conditions: { StringEquals: { [PURPOSE]: SESSION }, Null: { 'kms:EncryptionContext:sessionKey': 'false' } },
        }),
      );
      opens(fn, SESSION);
      return { WEBHOOK_SECRET_KMS_KEY_ID: keyArn };
    };
    this.opening = (fn) => {
      fn.addToRolePolicy(new PolicyStatement({ actions: ['kms:Decrypt'], resources: [keyArn], conditions: { StringEquals: { [PURPOSE]: SIGNING }, ...bound } }));
      opens(fn, SIGNING);
      return { WEBHOOK_SECRET_KMS_KEY_ID: keyArn };
    };
  }
}
