import type { Role } from '../people/team.ts';

/**
 * The dashboard's mails: an invitation (../shared/dashboard.md, Team), and the link to choose a
 * new password (functions/people/password-reset.ts). An invitation's mail is a convenience on top
 * of the link the page shows the inviter once: when a stage has no mail sender, or the mail is
 * refused, the link in the page still works, so a failed mail never fails the invitation.
 */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** What delivers a mail: SES in AWS, a folder of .eml files locally (functions/adapters/mail/). */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export interface InvitationToMail {
  to: string;
  /** The company's name as its people wrote it: user input, escaped in the HTML part. */
  companyName: string;
  role: Role;
  /** Who invited them, or null for `company:create`'s first Owner. */
  invitedBy: string | null;
  link: string;
  expiresAt: string;
}

export function invitationMail(invitation: InvitationToMail): Mail {
  // A name is one line of text: no control character may shape the body. It is never in the
  // subject, which a mail program shows before anyone opens the mail: a company's name is anything
  // its maker typed ("URGENT: your bank account is locked"), so the body quotes it as what it is.
  const company = oneLine(invitation.companyName);
  const who = invitation.invitedBy ? `${invitation.invitedBy} invited you` : 'You are invited';
  const expires = `${invitation.expiresAt.slice(0, 16).replace('T', ' ')} UTC`;
  const intro = `${who} to join a company on Cambio as ${articled(invitation.role)}.`;
  const named = `The company's name, as its people wrote it: "${company}".`;
  const ignore = `The link works once, until ${expires}. If you did not expect this invitation, ignore this mail: nothing happens unless the link is opened.`;
  const text = [intro, named, '', 'Open this link to choose your password and join:', invitation.link, '', ignore].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">',
    `<p>${escapeHtml(intro)}<br>${escapeHtml(named)}</p>`,
    `<p><a href="${escapeHtml(invitation.link)}">Accept the invitation</a></p>`,
    `<p>${escapeHtml(ignore)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: invitation.to, subject: 'Your invitation to join a company on Cambio', text, html };
}

/** The link to choose a new password, to the address of the account: nothing in it comes from a request but the address. */
export function passwordResetMail(reset: { to: string; link: string; expiresAt: string }): Mail {
  const expires = `${reset.expiresAt.slice(0, 16).replace('T', ' ')} UTC`;
  const ignore = 'If you did not ask for it, ignore this mail: your password stays as it is, and nobody can use the link but whoever reads your mail.';
  const text = [
    'Someone asked to reset the password of your Cambio dashboard account, ' + reset.to + '.',
    '',
    'Open this link to choose a new password:',
    reset.link,
    '',
    `The link works once, until ${expires}. Choosing a new password signs you out everywhere. ${ignore}`,
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">',
    `<p>Someone asked to reset the password of your Cambio dashboard account, ${escapeHtml(reset.to)}.</p>`,
    `<p><a href="${escapeHtml(reset.link)}">Choose a new password</a></p>`,
    `<p>The link works once, until ${escapeHtml(expires)}. Choosing a new password signs you out everywhere. ${escapeHtml(ignore)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: reset.to, subject: 'Reset your Cambio password', text, html };
}

/** A sign-up's link to prove the address (functions/people/email-verification.ts): nothing in it
 * comes from the request but the address, so the company's name a stranger typed is never mailed. */
export function emailVerificationMail(verification: { to: string; link: string; expiresAt: string }): Mail {
  const expires = `${verification.expiresAt.slice(0, 16).replace('T', ' ')} UTC`;
  const intro = `Someone signed up for a Cambio sandbox account with this address, ${verification.to}.`;
  const after = `The link works once, until ${expires}, and asks for the password chosen at sign-up. If it was not you, ignore this mail: the account cannot be used without the link.`;
  const text = [intro, '', 'Open this link to confirm your email and sign in:', verification.link, '', after].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">',
    `<p>${escapeHtml(intro)}</p>`,
    `<p><a href="${escapeHtml(verification.link)}">Confirm your email</a></p>`,
    `<p>${escapeHtml(after)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: verification.to, subject: 'Confirm your email for Cambio', text, html };
}

/** To the holder of an address someone tried to sign up with again: the sign-up's answer does not say so. */
export function signUpAttemptMail(to: string, signInUrl: string): Mail {
  return noticeMail(to, 'Someone tried to create a Cambio account with your address', [
    `Someone tried to create a Cambio account with your address, ${to}, which already has one. Nothing was created.`,
    `If it was you, sign in at ${signInUrl}, or choose Forgot your password? there to reset it. If it was not, you need do nothing.`,
  ]);
}

/** A webhook endpoint that gave up on an event (its last try failed, or it answered 410 Gone), to one of the people who manage it. */
export function webhookFailureMail(failure: {
  to: string;
  companyName: string;
  url: string;
  eventId: string;
  eventType: string;
  reason: string;
  disabled: boolean;
  /** Still retrying: the next try, and about when the last. */
  retrying?: { nextAttemptAt: string; lastTryBy: string } | null;
}): Mail {
  const company = oneLine(failure.companyName);
  const what = failure.disabled
    ? `Cambio disabled ${company}'s webhook endpoint ${failure.url}: it answered 410 Gone to event ${failure.eventId} (${failure.eventType}), and no event is sent to it until it is enabled again.`
    : `Cambio could not deliver event ${failure.eventId} (${failure.eventType}) to ${company}'s webhook endpoint ${failure.url}: ${failure.reason}.`;
  const next = failure.disabled
    ? 'In the dashboard, Webhooks → the endpoint → Enable sends it events again; then Resend on an event sends that one.'
    : failure.retrying
      ? `Cambio keeps retrying it and the events after it: the next try at ${failure.retrying.nextAttemptAt}, the last about ${failure.retrying.lastTryBy}. Once the endpoint answers 2xx, they are delivered; nothing is lost meanwhile.`
      : 'The event is kept: once the endpoint answers 2xx again, Webhooks → the endpoint → Resend in the dashboard sends it (or npm run events:redeliver for many).';
  const once = 'We mail about an endpoint at most once a day, to its company’s Owners, Admins and Developers.';
  return noticeMail(failure.to, failure.disabled ? `Webhook endpoint disabled: ${oneLine(failure.url)}` : `Webhook deliveries failing: ${oneLine(failure.url)}`, [what, next, once]);
}

/** What changed on a company's withdrawal allowlist: an address added, or the allowlist turning off. */
export type AllowlistChange = { kind: 'address-added'; network: string; address: string; label: string; from: string } | { kind: 'turning-off'; from: string };

/** To a company's Owners and Admins on every change that widens where its money may go: the
 * waiting period is theirs to stop one they did not make. */
export function withdrawalAllowlistMail(notice: { to: string; companyName: string; by: string; change: AllowlistChange }): Mail {
  const company = oneLine(notice.companyName);
  const what =
    notice.change.kind === 'address-added'
      ? `${notice.by} added ${notice.change.address} on ${notice.change.network} (${oneLine(notice.change.label)}) to ${company}'s withdrawal allowlist. Withdrawals to it on ${notice.change.network} are accepted from ${notice.change.from}.`
      : `${notice.by} asked to turn off ${company}'s withdrawal allowlist. It holds until ${notice.change.from}; after that, withdrawals may go to any address.`;
  const stop =
    notice.change.kind === 'address-added'
      ? 'If you did not expect this, remove the address before then: dashboard, Integrations → Withdrawal addresses → Remove. Then check your team and API keys.'
      : 'If you did not expect this, turn it on again before then: dashboard, Integrations → Withdrawal addresses → Turn on allowlist. Then check your team and API keys.';
  const who = 'We mail every such change to the company’s Owners and Admins.';
  const subject = notice.change.kind === 'address-added' ? `Withdrawal address added to ${company}` : `Withdrawal allowlist turning off for ${company}`;
  return noticeMail(notice.to, subject, [what, stop, who]);
}

/** To a company's Owners and Admins when its daily withdrawal limit is raised or removed, which
 * waits the stage's period so one they did not make can be undone. */
export function withdrawalLimitMail(notice: { to: string; companyName: string; by: string; dailyLimit: string; from: string }): Mail {
  const company = oneLine(notice.companyName);
  const what =
    notice.dailyLimit === 'none'
      ? `${notice.by} asked to remove ${company}'s daily withdrawal limit. The current limit holds until ${notice.from}.`
      : `${notice.by} asked to raise ${company}'s daily withdrawal limit to ${notice.dailyLimit} USDT, from ${notice.from}. The current limit holds until then.`;
  const stop = 'If you did not expect this, save the limit you want before then: dashboard, Integrations → Daily withdrawal limit. Then check your team and API keys.';
  const who = 'We mail every raise or removal to the company’s Owners and Admins.';
  return noticeMail(notice.to, `Daily withdrawal limit ${notice.dailyLimit === 'none' ? 'removal' : 'raise'} for ${company}`, [what, stop, who]);
}

export interface ApiKeyNotice {
  to: string;
  companyName: string;
  change: 'created' | 'rolled' | 'allowedIps' | 'revoked';
  /** Who did it, from which address, when. */
  by: string;
  from: string;
  at: string;
  key: { keyId: string; name: string; access: 'full' | 'read'; allowedIps: string[] | null };
}

/** A new API key, a new secret for one, or a change of where one may be used from. */
export function apiKeyMail(notice: ApiKeyNotice): Mail {
  const company = oneLine(notice.companyName);
  const key = `"${oneLine(notice.key.name)}" (${notice.key.keyId})`;
  const scope = `${notice.key.access === 'read' ? 'read-only' : 'full'} access, from ${notice.key.allowedIps ? notice.key.allowedIps.join(', ') : 'any address'}`;
  const did = {
    created: `created the API key ${key} for ${company}, with ${scope}`,
    rolled: `issued a new secret for ${company}'s API key ${key}, which has ${scope}`,
    allowedIps: `changed where ${company}'s API key ${key} may be used from: it now has ${scope}`,
    revoked: `revoked ${company}'s API key ${key}: the API refuses every request made with it, within a minute`,
  }[notice.change];
  const what = `${notice.by} ${did}, at ${notice.at} from ${notice.from}.`;
  const stop =
    notice.change === 'revoked'
      ? 'If you did not expect this, check your team and its sign-ins in the audit log, and create a new key for the systems that used this one: dashboard, Integrations → API keys.'
      : 'If you did not expect this, revoke the key now: dashboard, Integrations → API keys → Revoke. Then check your team and its sign-ins in the audit log.';
  const who = 'We mail every new key, new secret, change of allowed IPs and revocation to the company’s Owners and Admins.';
  const subject = { created: 'New API key', rolled: 'New API key secret', allowedIps: 'API key allowed IPs changed', revoked: 'API key revoked' }[notice.change];
  return noticeMail(notice.to, `${subject} for ${company}`, [what, stop, who]);
}

/** A company's two-factor rule now stops this member: until they turn it on, the dashboard shows
 * them only their Account. To each member without it, when an Owner requires it. */
export function twoFactorRequiredMail(notice: { to: string; companyName: string; by: string }): Mail {
  const company = oneLine(notice.companyName);
  const what = `${notice.by} made ${company} require two-factor sign-in of every member on Cambio.`;
  const next = 'Until you turn it on, the dashboard shows you only your Account: there, Set up two-factor sign-in adds an authenticator app in a minute. If you already use one, sign in again with its code.';
  const who = 'We mail this to every member who does not have it on yet.';
  return noticeMail(notice.to, `${company} requires two-factor sign-in`, [what, next, who]);
}

/** Cambio's support turned off the person's second factor (two-factor-reset.ts): told at the address
 * itself, so a reset someone talked support into reaches the person it was done to. */
export function twoFactorResetMail(notice: { to: string; at: string }): Mail {
  const when = `${notice.at.slice(0, 16).replace('T', ' ')} UTC`;
  const what = `Cambio's support turned off two-factor sign-in on your Cambio dashboard account, ${notice.to}, at ${when}, and signed you out everywhere.`;
  const next = 'Sign in with your password, then set up your authenticator app again under Account. A company that requires two-factor sign-in shows you only your Account until you do.';
  const ifNot = 'If you did not ask for this, someone else may know your password: reset it now (Forgot your password? on the sign-in page) and tell Cambio\'s support.';
  return noticeMail(notice.to, 'Two-factor sign-in was turned off on your Cambio account', [what, next, ifNot]);
}

/** A notice of a few paragraphs, as plain text and as HTML (escaped: names in it are user input). */
function noticeMail(to: string, subject: string, paragraphs: string[]): Mail {
  const text = paragraphs.join('\n\n');
  const html = ['<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">', ...paragraphs.map((line) => `<p>${escapeHtml(line)}</p>`), '</body></html>'].join('\n');
  return { to, subject, text, html };
}

const oneLine = (value: string): string => value.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim();

const articled = (role: Role): string => `${/^[AEIOU]/.test(role) ? 'an' : 'a'} ${role}`;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
