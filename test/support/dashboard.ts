import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { companyPartition } from '#adapters/dynamo/items/item';
import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LocalRuntime } from '#local/runtime';
import { totpCode } from '#local/totp';
import { linkIn, mailsTo, verifyLinkIn } from './outbox.ts';

/**
 * A browser's side of the dashboard API through a real socket: a cookie jar, the page's Origin,
 * and the CSRF token echoed from its cookie, as the app does. `forge` turns each off, for the
 * tests that show a request without them is refused.
 */
export interface DashboardCall {
  status: number;
  body: any;
  setCookies: string[];
}

export function dashboardBrowser(runtime: LocalRuntime) {
  const origin = new URL(runtime.apiUrl).origin;
  const jar = new Map<string, string>();
  async function call(
    method: string,
    path: string,
    options: { body?: unknown; origin?: string | null; csrf?: string | null; cookies?: boolean } = {},
  ): Promise<DashboardCall> {
    const headers: Record<string, string> = {};
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const sentOrigin = options.origin === undefined ? origin : options.origin;
    if (sentOrigin !== null) headers.Origin = sentOrigin;
    const csrf = options.csrf === undefined ? jar.get('cambio_csrf') : options.csrf;
    if (csrf && method !== 'GET') headers['X-CSRF-Token'] = csrf;
    if (options.cookies !== false && jar.size) headers.Cookie = cookieHeader(jar);
    const response = await fetch(`${origin}/dashboard/api${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const [name = '', value = ''] = pair.split('=');
      if (attributes.includes('Max-Age=0')) jar.delete(name);
      else jar.set(name, value);
    }
    return { status: response.status, body: await response.json().catch(() => undefined), setCookies };
  }
  return { call, jar, origin };
}

/** A jar's cookies as a request's Cookie header. */
export const cookieHeader = (jar: Map<string, string>): string => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

export const STRONG_PASSWORD = 'Correct-Horse-42';

/** The authenticator app's code of the next 30 s step: accepted now (a step either side is), and not
 * the code `totpCode(secret)` gives, for a second code within the step, as each is used once. */
export const nextTotpCode = (secret: string): string => totpCode(secret, Date.now() + 30_000);

/** The test playing a person's authenticator app: each call a code accepted now that it has not given
 * before (this step's, the next's, the last's), as each code is used once per person. */
export function authenticatorApp(secret: string) {
  const given = new Set<string>();
  return async (): Promise<string> => {
    for (;;) {
      // The code shown now, else the next step's: each is accepted (a step either side) for at least
      // the 30 s after it is given. The step before, which an app would show no longer, would be
      // accepted only until this step ends: on a loaded machine the request could arrive after.
      for (const offset of [0, 30_000]) {
        const code = totpCode(secret, Date.now() + offset);
        if (given.has(code)) continue;
        given.add(code);
        return code;
      }
      // Both given: the person waits for the app to show a new one.
      await new Promise((resolve) => setTimeout(resolve, 30_000 - (Date.now() % 30_000) + 50));
    }
  };
}

export function uniqueEmail(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.com`;
}

/** A signed-up sandbox Owner who followed the mailed link to confirm the address, signed in. */
export async function signedUpOwner(runtime: LocalRuntime, companyName = 'Acme') {
  const browser = dashboardBrowser(runtime);
  const email = uniqueEmail('owner');
  const signUp = await browser.call('POST', '/sign-up', { body: { companyName, email, password: STRONG_PASSWORD } });
  if (signUp.status !== 202) throw new Error(`sign-up failed: ${JSON.stringify(signUp.body)}`);
  const verified = await browser.call('POST', '/sign-up/verify', { body: { token: verifyTokenMailedTo(runtime, email), password: STRONG_PASSWORD } });
  if (verified.status !== 200) throw new Error(`email confirmation failed: ${JSON.stringify(verified.body)}`);
  // Followed, as its reader would have: tests that count what the Owner is mailed see only what came after.
  for (const mail of mailsTo(runtime.outboxDir, email)) if (verifyLinkIn(mail)) rmSync(join(runtime.outboxDir, mail.file));
  const me = await browser.call('GET', '/me');
  return { browser, email, companyId: me.body.data.companies[0].id as string };
}

/** A signed-up Owner with two-factor sign-in on, and the test playing their authenticator app. */
export async function signedUpOwnerWithTwoFactor(runtime: LocalRuntime, companyName: string) {
  const owner = await signedUpOwner(runtime, companyName);
  const { secret } = (await owner.browser.call('POST', '/me/two-factor/setup', { body: {} })).body.data as { secret: string };
  const app = authenticatorApp(secret);
  const confirmed = await owner.browser.call('POST', '/me/two-factor/confirm', { body: { code: await app() } });
  if (confirmed.status !== 200) throw new Error(`two-factor set-up failed: ${JSON.stringify(confirmed.body)}`);
  return { ...owner, secret, app };
}

/** The token of the newest confirmation link mailed to `email` (outbox.ts). */
export function verifyTokenMailedTo(runtime: LocalRuntime, email: string): string {
  const link = mailsTo(runtime.outboxDir, email).map(verifyLinkIn).filter(Boolean).at(-1);
  if (!link) throw new Error(`no confirmation link was mailed to ${email}`);
  return new URL(link).searchParams.get('token')!;
}

/** The token of the newest invitation link mailed to `email`: the invited person's mailbox is the
 * only place it goes (the inviter's answer never holds it). */
export function invitationTokenMailedTo(runtime: LocalRuntime, email: string): string {
  const link = mailsTo(runtime.outboxDir, email).map(linkIn).filter(Boolean).at(-1);
  if (!link) throw new Error(`no invitation link was mailed to ${email}`);
  return new URL(link).searchParams.get('token')!;
}

/** Invited by `inviter` with `role` and joined through the mailed link, as a new person, signed in. */
export async function invitedMember(runtime: LocalRuntime, inviter: ReturnType<typeof dashboardBrowser>, companyId: string, role: string) {
  const email = uniqueEmail(role.toLowerCase());
  const invited = await inviter.call('POST', `/companies/${companyId}/team/invitations`, { body: { email, role, password: STRONG_PASSWORD } });
  if (invited.status !== 201) throw new Error(`invitation failed: ${JSON.stringify(invited.body)}`);
  const browser = dashboardBrowser(runtime);
  const accepted = await browser.call('POST', '/invitations/accept', { body: { token: invitationTokenMailedTo(runtime, email), password: STRONG_PASSWORD } });
  if (accepted.status !== 200) throw new Error(`accept failed: ${JSON.stringify(accepted.body)}`);
  const personId = (await browser.call('GET', '/me')).body.data.personId as string;
  return { browser, email, personId };
}

/** Every item in a company's partition: what "nothing written" is checked against. */
export async function companyItems(db: DynamoDBDocumentClient, runtime: LocalRuntime, companyId: string) {
  const { Items = [] } = await db.send(
    new QueryCommand({ TableName: runtime.tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': companyPartition(companyId) }, ConsistentRead: true }),
  );
  return Items;
}
