import { Stack } from 'aws-cdk-lib';
import { ConfigurationSet, SuppressionReasons } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

/**
 * The stage's mail through SES (context `mailFrom`): one configuration set that every send names,
 * made once per stack by the first function that mails (lib/binders.ts mailSending).
 *
 * - SES keeps addresses that bounced or complained off it (the configuration set's suppression),
 *   so an invitation to a mistyped address bounces once, not on every `Resend`.
 * - It publishes the configuration set's reputation metrics, and the stack alarms on the account's
 *   bounce and complaint rates (lib/observability.ts MailBounceRate, MailComplaintRate): SES reviews
 *   an account at a 5 % bounce or 0.1 % complaint rate and may pause its sending, and with it
 *   invitations, password resets, webhook alerts and the API key and withdrawal notices.
 */
export class StageMail extends Construct {
  /** The stack's one StageMail. */
  static of(scope: Construct): StageMail {
    const stack = Stack.of(scope);
    return (stack.node.tryFindChild('Mail') as StageMail | undefined) ?? new StageMail(stack, 'Mail');
  }

  readonly configurationSet: ConfigurationSet;

  private constructor(scope: Construct, id: string) {
    super(scope, id);
    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
      reputationMetrics: true,
    });
  }
}
