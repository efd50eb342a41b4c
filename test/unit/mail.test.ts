import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { apiKeyMail, invitationMail, passwordResetMail, webhookFailureMail, withdrawalAllowlistMail, withdrawalLimitMail, type InvitationToMail } from '#functions/mail/mail';
import { mailerFrom } from '#adapters/mail/from-settings';
import { OutboxMailer } from '#adapters/mail/outbox-mailer';
import { SesMailer } from '#adapters/mail/ses-mailer';
import { parseSettings } from '#functions/settings/schema';
import { SLICES } from '#functions/settings/functions';

const invitation: InvitationToMail = {
  to: 'dev@acme.example',
  companyName: 'Acme Pagamentos',
  role: 'Developer',
  invitedBy: 'owner@acme.example',
  link: 'https://dashboard.acme.example/dashboard/accept-invitation?token=abc_DEF-123',
  expiresAt: '2026-12-03T10:15:30.123Z',
};

describe('the invitation mail', () => {
  it('says who invites whom to which company in which role, with the link and when it lapses', () => {
    const mail = invitationMail(invitation);

    expect(mail.to).toBe('dev@acme.example');
    expect(mail.subject).toBe('Your invitation to join a company on Cambio');
    expect(mail.text.split('\n')).toEqual([
      'owner@acme.example invited you to join a company on Cambio as a Developer.',
      'The company\'s name, as its people wrote it: "Acme Pagamentos".',
      '',
      'Open this link to choose your password and join:',
      invitation.link,
      '',
      'The link works once, until 2026-12-03 10:15 UTC. If you did not expect this invitation, ignore this mail: nothing happens unless the link is opened.',
    ]);
    expect(mail.html).toContain(`<a href="${invitation.link}">Accept the invitation</a>`);
  });

  it('words a first Owner’s invitation, and a role that takes “an”', () => {
    expect(invitationMail({ ...invitation, role: 'Owner', invitedBy: null }).text).toMatch(/^You are invited to join a company on Cambio as an Owner\.\n/);
    expect(invitationMail({ ...invitation, role: 'Admin' }).text).toContain(' as an Admin.');
  });

  it('keeps a company name out of the subject, and quotes it in the body as one line of text, escaped in the HTML', () => {
    const mail = invitationMail({ ...invitation, companyName: 'URGENT: your bank account is locked <img src=x onerror=alert(1)>\r\nBcc: all@victim.example' });

    expect(mail.subject).toBe('Your invitation to join a company on Cambio');
    expect(mail.html).toContain('&quot;URGENT: your bank account is locked &lt;img src=x onerror=alert(1)&gt; Bcc: all@victim.example&quot;');
    expect(mail.html).not.toContain('<img');
    expect(mail.text.split('\n')[1]).toBe('The company\'s name, as its people wrote it: "URGENT: your bank account is locked <img src=x onerror=alert(1)> Bcc: all@victim.example".');
  });
});

describe('the password reset mail', () => {
  it('goes to the account’s address with the link, when it lapses, and what to do if it was not you', () => {
    const link = 'https://dashboard.acme.example/dashboard/reset-password?token=0b6f1c4e-7a1d-4c8e-9f2a-3d5e6f708192.abc_DEF';

    const mail = passwordResetMail({ to: 'dev@acme.example', link, expiresAt: '2026-11-26T03:04:05.678Z' });

    expect(mail).toMatchObject({ to: 'dev@acme.example', subject: 'Reset your Cambio password' });
    expect(mail.text.split('\n')).toEqual([
      'Someone asked to reset the password of your Cambio dashboard account, dev@acme.example.',
      '',
      'Open this link to choose a new password:',
      link,
      '',
      'The link works once, until 2026-11-26 03:04 UTC. Choosing a new password signs you out everywhere. If you did not ask for it, ignore this mail: your password stays as it is, and nobody can use the link but whoever reads your mail.',
    ]);
    expect(mail.html).toContain(`<a href="${link}">Choose a new password</a>`);
  });
});

describe('the webhook failure mail', () => {
  const failure = { to: 'dev@acme.example', companyName: 'Acme <Pagamentos>\nBcc: x@y', url: 'https://hooks.acme.example/cambio?a=1&b=2', eventId: 'evt_01JA0000000000000000000000', eventType: 'deposit.completed' };

  it('names the event, the endpoint and why, says what to do, and that it mails once a day', () => {
    const mail = webhookFailureMail({ ...failure, reason: 'all 10 tries failed; the last: HTTP 500', disabled: false });

    expect(mail.subject).toBe('Webhook deliveries failing: https://hooks.acme.example/cambio?a=1&b=2');
    expect(mail.text.split('\n')).toEqual([
      "Cambio could not deliver event evt_01JA0000000000000000000000 (deposit.completed) to Acme <Pagamentos> Bcc: x@y's webhook endpoint https://hooks.acme.example/cambio?a=1&b=2: all 10 tries failed; the last: HTTP 500.",
      '',
      'The event is kept: once the endpoint answers 2xx again, Webhooks → the endpoint → Resend in the dashboard sends it (or npm run events:redeliver for many).',
      '',
      'We mail about an endpoint at most once a day, to its company’s Owners, Admins and Developers.',
    ]);
    expect(mail.html).toContain('Acme &lt;Pagamentos&gt; Bcc: x@y');
    expect(mail.html).toContain('cambio?a=1&amp;b=2');
  });

  it('says, while still retrying, when the next and the last tries are and that nothing is lost', () => {
    const mail = webhookFailureMail({ ...failure, reason: 'its 5 tries so far failed; the last: HTTP 500', disabled: false, retrying: { nextAttemptAt: '2026-11-26T12:00:00.000Z', lastTryBy: '2026-11-29T08:00:00.000Z' } });

    expect(mail.subject).toBe('Webhook deliveries failing: https://hooks.acme.example/cambio?a=1&b=2');
    expect(mail.text.split('\n')[2]).toBe(
      'Cambio keeps retrying it and the events after it: the next try at 2026-11-26T12:00:00.000Z, the last about 2026-11-29T08:00:00.000Z. Once the endpoint answers 2xx, they are delivered; nothing is lost meanwhile.',
    );
    expect(mail.text).not.toContain('Resend');
  });

  it('says a 410 disabled the endpoint and how to enable it', () => {
    const mail = webhookFailureMail({ ...failure, reason: 'it answered 410 Gone', disabled: true });

    expect(mail.subject).toBe('Webhook endpoint disabled: https://hooks.acme.example/cambio?a=1&b=2');
    expect(mail.text).toContain('Webhooks → the endpoint → Enable sends it events again');
  });
});

describe('the withdrawal allowlist mail', () => {
  const notice = { to: 'owner@acme.example', companyName: 'Acme\r\nBcc: x@y', by: 'admin@acme.example' };

  it('names the address, its network, its label, who added it and when it is usable, and how to stop it, on one-line headers', () => {
    const mail = withdrawalAllowlistMail({ ...notice, change: { kind: 'address-added', network: 'TRON', address: 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH', label: '<b>Treasury</b>', from: '2026-11-27T10:00:00.000Z' } });

    expect(mail.subject).toBe('Withdrawal address added to Acme Bcc: x@y');
    expect(mail.text).toContain("admin@acme.example added TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH on TRON (<b>Treasury</b>) to Acme Bcc: x@y's withdrawal allowlist. Withdrawals to it on TRON are accepted from 2026-11-27T10:00:00.000Z.");
    expect(mail.text).toContain('Integrations → Withdrawal addresses → Remove');
    expect(mail.html).toContain('(&lt;b&gt;Treasury&lt;/b&gt;)');
    expect(mail.html).not.toContain('<b>Treasury');
  });

  it('says until when a turn-off still holds, and how to turn it on again', () => {
    const mail = withdrawalAllowlistMail({ ...notice, change: { kind: 'turning-off', from: '2026-11-27T10:00:00.000Z' } });

    expect(mail.subject).toBe('Withdrawal allowlist turning off for Acme Bcc: x@y');
    expect(mail.text).toContain('It holds until 2026-11-27T10:00:00.000Z');
    expect(mail.text).toContain('Turn on allowlist');
  });
});

describe('the daily withdrawal limit mail', () => {
  it('says who raised or removed it, from when, and how to undo it, on one-line headers', () => {
    const raise = withdrawalLimitMail({ to: 'owner@acme.example', companyName: 'Acme\r\nBcc: x@y', by: 'admin@acme.example', dailyLimit: '5000.000000', from: '2026-11-27T10:00:00.000Z' });
    expect(raise.subject).toBe('Daily withdrawal limit raise for Acme Bcc: x@y');
    expect(raise.text).toContain("admin@acme.example asked to raise Acme Bcc: x@y's daily withdrawal limit to 5000.000000 USDT, from 2026-11-27T10:00:00.000Z.");
    expect(raise.text).toContain('Integrations → Daily withdrawal limit');
    const removal = withdrawalLimitMail({ to: 'owner@acme.example', companyName: 'Acme', by: 'admin@acme.example', dailyLimit: 'none', from: '2026-11-27T10:00:00.000Z' });
    expect(removal.subject).toBe('Daily withdrawal limit removal for Acme');
    expect(removal.text).toContain('The current limit holds until 2026-11-27T10:00:00.000Z.');
  });
});

describe('the API key mails', () => {
  const notice = { to: 'owner@acme.example', by: 'dev@acme.example', from: '203.0.113.9', at: '2026-11-26T10:00:00.000Z' };
  it('say who made, rolled or re-fenced which key, its access and addresses, from where, and how to revoke it, on one-line headers, escaped', () => {
    const key = { keyId: 'ck_test_abc', name: 'Bot <b>', access: 'read' as const, allowedIps: ['203.0.113.0/24', '2001:db8::/32'] };
    const created = apiKeyMail({ ...notice, companyName: 'Acme\r\nBcc: x@y', change: 'created', key });
    expect(created.subject).toBe('New API key for Acme Bcc: x@y');
    expect(created.text.split('\n')[0]).toBe(
      'dev@acme.example created the API key "Bot <b>" (ck_test_abc) for Acme Bcc: x@y, with read-only access, from 203.0.113.0/24, 2001:db8::/32, at 2026-11-26T10:00:00.000Z from 203.0.113.9.',
    );
    expect(created.text).toContain('Integrations → API keys → Revoke');
    expect(created.html).toContain('&quot;Bot &lt;b&gt;&quot;');
    expect(created.html).not.toContain('<b>');
    const rolled = apiKeyMail({ ...notice, companyName: 'Acme', change: 'rolled', key: { ...key, access: 'full', allowedIps: null } });
    expect(rolled.subject).toBe('New API key secret for Acme');
    expect(rolled.text).toContain('issued a new secret for Acme\'s API key "Bot <b>" (ck_test_abc), which has full access, from any address');
    expect(apiKeyMail({ ...notice, companyName: 'Acme', change: 'allowedIps', key }).subject).toBe('API key allowed IPs changed for Acme');
    const revoked = apiKeyMail({ ...notice, companyName: 'Acme', change: 'revoked', key });
    expect(revoked.subject).toBe('API key revoked for Acme');
    expect(revoked.text).not.toContain('revoke the key now');
  });
});

describe('the mailers', () => {
  const ses = mockClient(SESv2Client);
  afterEach(() => ses.reset());

  it('SES: one SendEmail from the configured address to the invited person, text and HTML in UTF-8', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    const mail = invitationMail(invitation);

    await new SesMailer('no-reply@acme.example').send(mail);

    const calls = ses.commandCalls(SendEmailCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      FromEmailAddress: 'no-reply@acme.example',
      Destination: { ToAddresses: ['dev@acme.example'] },
      Content: {
        Simple: {
          Subject: { Data: mail.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: mail.text, Charset: 'UTF-8' }, Html: { Data: mail.html, Charset: 'UTF-8' } },
        },
      },
    });
  });

  it('SES: a refusal reaches the caller, which keeps the invitation and says the mail did not go', async () => {
    ses.on(SendEmailCommand).rejects(Object.assign(new Error('Email address is not verified'), { name: 'MessageRejected' }));

    await expect(new SesMailer('no-reply@acme.example').send(invitationMail(invitation))).rejects.toThrow('not verified');
  });

  it('SES: names the stage’s configuration set when the stack binds one, so SES suppresses bounced addresses', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-2' });
    await new SesMailer('no-reply@acme.example', 'Cambio-production-mail').send(invitationMail(invitation));
    expect(ses.commandCalls(SendEmailCommand)[0]!.args[0].input).toMatchObject({ FromEmailAddress: 'no-reply@acme.example', ConfigurationSetName: 'Cambio-production-mail' });
  });

  const settings = (env: Record<string, string>) => parseSettings(SLICES.mail, env);

  it('chooses SES where the stack binds MAIL_FROM, the outbox on the local stage, and none otherwise', () => {
    expect(mailerFrom(settings({ STAGE: 'production', MAIL_FROM: 'no-reply@acme.example' }))).toBeInstanceOf(SesMailer);
    expect(mailerFrom(settings({ STAGE: 'local', LOCAL_OUTBOX_DIR: '/tmp/outbox' }))).toBeInstanceOf(OutboxMailer);
    expect(mailerFrom(settings({ STAGE: 'sandbox' }))).toBeNull();
  });

  it('refuses the outbox on a deployed stage, and a MAIL_FROM that is not an address', () => {
    expect(() => mailerFrom(settings({ STAGE: 'production', LOCAL_OUTBOX_DIR: '/tmp/outbox', MAIL_FROM: 'no-reply@acme.example' }))).toThrow('LOCAL_OUTBOX_DIR is for the local stage only');
    expect(() => settings({ STAGE: 'production', MAIL_FROM: 'Acme <no-reply@acme.example>' })).toThrow('MAIL_FROM is not an email address');
  });
});
