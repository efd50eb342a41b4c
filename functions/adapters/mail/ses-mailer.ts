import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import type { Mail, Mailer } from '#functions/mail/mail';
import { awsClient } from '../aws-clients.ts';

/**
 * Mails through Amazon SES (v2 API) from an address of an identity verified in the stage's region
 * (README, Deploying: `mailFrom`). The stack grants the functions that mail (the dashboard API, the
 * webhook sender) ses:SendEmail on that identity alone. Until SES grants the account production access, it delivers only to verified addresses.
 */
export class SesMailer implements Mailer {
  private readonly client = awsClient(new SESv2Client({}));

  /** `configurationSet`: the stage's (lib/stage-mail.ts), so SES suppresses addresses that bounced
   * or complained and counts this mail in the reputation the stack alarms on. */
  constructor(
    private readonly from: string,
    private readonly configurationSet?: string,
  ) {}

  async send(mail: Mail): Promise<void> {
    await this.client.send(
      new SendEmailCommand({
        FromEmailAddress: this.from,
        ...(this.configurationSet && { ConfigurationSetName: this.configurationSet }),
        Destination: { ToAddresses: [mail.to] },
        Content: {
          Simple: {
            Subject: { Data: mail.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: mail.text, Charset: 'UTF-8' }, Html: { Data: mail.html, Charset: 'UTF-8' } },
          },
        },
      }),
    );
  }
}
