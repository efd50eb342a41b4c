import type { Mailer } from '#functions/mail/mail';
import type { SliceSettings } from '#functions/settings/functions';
import { OutboxMailer } from './outbox-mailer.ts';
import { SesMailer } from './ses-mailer.ts';

/**
 * How a stage mails (invitations, password resets, webhook alerts), or null where it does not (then
 * Team cannot invite, and no reset or alert is offered): SES from MAIL_FROM where
 * the stack binds it (context `mailFrom`), the outbox folder on the local stage, which the local
 * runtime sets.
 */
export function mailerFrom(settings: SliceSettings<'mail'>): Mailer | null {
  if (settings.LOCAL_OUTBOX_DIR !== undefined) {
    if (settings.STAGE !== 'local') throw new Error('LOCAL_OUTBOX_DIR is for the local stage only');
    return new OutboxMailer(settings.LOCAL_OUTBOX_DIR);
  }
  return settings.MAIL_FROM === undefined ? null : new SesMailer(settings.MAIL_FROM, settings.MAIL_CONFIGURATION_SET);
}
