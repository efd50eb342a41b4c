import { AnyPrincipal, Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';

/**
 * A statement for a KMS key's own policy refusing `action` to every principal but `roles` (role
 * ARNs, `aws:PrincipalArn`), where `when` holds: the key policy CDK writes lets the account's IAM
 * decide, and no IAM Allow (an administrator's `kms:*`) overrides a Deny. The hot wallet keys' Sign
 * (lib/chain-jobs.ts) and the webhook secrets key's Decrypt, by purpose (lib/webhook-secrets.ts).
 */
export function refusedToAllBut(sid: string, action: string, roles: string[], when: Record<string, Record<string, unknown>> = {}): PolicyStatement {
  return new PolicyStatement({
    sid,
    effect: Effect.DENY,
    principals: [new AnyPrincipal()],
    actions: [action],
    resources: ['*'],
    conditions: { ...when, ArnNotEquals: { 'aws:PrincipalArn': roles } },
  });
}
