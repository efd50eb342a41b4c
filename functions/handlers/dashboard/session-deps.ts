import { closeSession, identityTokenOf, liveSessionOf, openSession, type DashboardSession } from '#functions/people/dashboard-sessions';
import type { SessionTokens } from '#functions/people/identity';
import { DynamoDashboardSessions } from '#adapters/dynamo/dashboard-session-store';
import { DynamoSignOuts } from '#adapters/dynamo/sign-out-store';
import { sessionTokenSealerFrom } from '#adapters/dashboard-session-sealer';
import { dynamoFrom } from '#adapters/runtime';
import { userPoolFrom } from '#adapters/cognito/from-settings';
import { sessionCookies } from '#http/cookies';
import { functionSettings } from '#functions/settings/functions';

/** What the routes that open, use or end a dashboard session share (functions/people/dashboard-sessions.ts). */
// Each of them has the people slice and the sealer's (functions/settings/functions.ts).
const settings = functionSettings('dashboard/sign-in');
const { db, tableName } = dynamoFrom(settings);
const { identity } = userPoolFrom(settings);
export const sessions = new DynamoDashboardSessions(db, tableName);
export const signOuts = new DynamoSignOuts(db, tableName);
/** Seals a session's Cognito tokens when it opens or renews them, opens them for a route that acts as the person. */
const sealer = sessionTokenSealerFrom(settings);

/** A session for the tokens a sign-in just gave, and the cookies that name it. */
export async function openedSessionCookies(tokens: SessionTokens, secureCookies: boolean): Promise<string[]> {
  return sessionCookies(await openSession({ sessions, sealer }, tokens), secureCookies);
}

/** The Cognito access token behind the session cookie (`session`, when already read), for the user-pool calls made as the person:
 * the only place a session's tokens are opened. */
export const identityToken = (cookieValue: string | undefined, session?: DashboardSession): Promise<string> =>
  identityTokenOf({ sessions, sealer, refresh: (refreshToken) => identity.refresh(refreshToken) }, cookieValue, { session });

/** The cookie's session, unless it has expired or a sign-out has ended it. */
export const liveSession = (cookieValue: string | undefined) => liveSessionOf({ sessions, signOuts }, cookieValue);
export const endSession = (cookieValue: string | undefined) => closeSession(sessions, cookieValue);
