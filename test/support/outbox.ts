import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * The mails the local runtime wrote to its outbox (functions/adapters/mail/outbox-mailer.ts) for
 * `to`, oldest first, read back as a mail program reads them: headers, then each base64 part.
 */
export function mailsTo(outboxDir: string, to: string): OutboxMail[] {
  if (!existsSync(outboxDir)) return [];
  return readdirSync(outboxDir)
    .filter((file) => file.endsWith('.eml'))
    .sort()
    .map((file) => parseMail(file, readFileSync(join(outboxDir, file), 'utf8')))
    .filter((mail) => mail.to === to);
}

function parseMail(file: string, message: string): OutboxMail {
  const [head = '', ...rest] = message.split('\r\n\r\n');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(head)?.[1] ?? '';
  const subject = /^=\?UTF-8\?B\?(.*)\?=$/.exec(header('Subject'))?.[1];
  const body = rest.join('\r\n\r\n');
  const part = (type: string) => {
    const match = new RegExp(`Content-Type: ${type}; charset=UTF-8\\r\\nContent-Transfer-Encoding: base64\\r\\n\\r\\n([A-Za-z0-9+/=\\r\\n]+?)\\r\\n--`).exec(body);
    return match ? Buffer.from(match[1]!.replace(/\r\n/g, ''), 'base64').toString('utf8') : '';
  };
  return { file, to: header('To'), subject: subject ? Buffer.from(subject, 'base64').toString('utf8') : header('Subject'), text: part('text/plain'), html: part('text/html') };
}

/** The invitation link in a mail's text part. */
export const linkIn = (mail: OutboxMail): string | undefined => /^https?:\/\/\S+\/accept-invitation\?token=[\w-]+$/m.exec(mail.text)?.[0];

/** The sign-up's link to confirm the address in a mail's text part. */
export const verifyLinkIn = (mail: OutboxMail): string | undefined => /^https?:\/\/\S+\/verify-email\?token=[\w.-]+$/m.exec(mail.text)?.[0];
