import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Mail, Mailer } from '#functions/mail/mail';

/**
 * The local runtime's mail: each mail a MIME message in a .eml file of the outbox folder (`npm
 * start`: .data/outbox/), which any mail program opens. Nothing leaves the machine, and no line of
 * the log carries the mail, whose link is as good as a password until it is used.
 */
export class OutboxMailer implements Mailer {
  constructor(
    private readonly dir: string,
    private readonly from = 'Cambio (local) <no-reply@cambio.localhost>',
  ) {}

  async send(mail: Mail): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const boundary = `cambio-${randomBytes(12).toString('hex')}`;
    const message = [
      `From: ${this.from}`,
      `To: ${mail.to}`,
      `Subject: =?UTF-8?B?${Buffer.from(mail.subject, 'utf8').toString('base64')}?=`,
      `Date: ${new Date().toUTCString()}`,
      'MIME-Version: 1.0',
      `Content-Type: multipart/alternative; boundary="${boundary}"`,
      '',
      `--${boundary}`,
      'Content-Type: text/plain; charset=UTF-8',
      'Content-Transfer-Encoding: base64',
      '',
      base64Lines(mail.text),
      `--${boundary}`,
      'Content-Type: text/html; charset=UTF-8',
      'Content-Transfer-Encoding: base64',
      '',
      base64Lines(mail.html),
      `--${boundary}--`,
      '',
    ].join('\r\n');
    // Sorted by time when listed; the random part keeps two mails of one millisecond apart.
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
    await writeFile(join(this.dir, name), message, { mode: 0o600 });
  }
}

const base64Lines = (text: string): string => Buffer.from(text, 'utf8').toString('base64').replace(/.{76}/g, '$&\r\n');
