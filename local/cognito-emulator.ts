import { createHash, createPrivateKey, createPublicKey, createSign, createVerify, generateKeyPairSync, randomBytes, randomUUID, scryptSync, timingSafeEqual, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { base32 } from '@scure/base';
import { passwordProblems } from '#functions/people/team';
import { totpMatches } from './totp.ts';
import { writeAtomically } from './data-folder.ts';

/**
 * The few actions of Cognito's user pool API the dashboard uses (AdminCreateUser,
 * AdminSetUserPassword, AdminGetUser and AdminUserGlobalSignOut for a password reset, AdminDeleteUser
 * (and AdminSetUserMFAPreference, an operator's change tests make)
 * for a sign-up whose address was never verified, ChangePassword, InitiateAuth with USER_PASSWORD_AUTH and REFRESH_TOKEN_AUTH, GlobalSignOut;
 * for two-factor sign-in AssociateSoftwareToken, VerifySoftwareToken, SetUserMFAPreference, GetUser
 * and RespondToAuthChallenge with SOFTWARE_TOKEN_MFA) and the pool's JWKS,
 * over Cognito's own wire protocol (JSON 1.1, `X-Amz-Target`), so the dashboard runs the real
 * @aws-sdk/client-cognito-identity-provider and aws-jwt-verify against it.
 *
 * Why not the npm package cognito-local: it pulls in aws-sdk v2 (end of support), express and
 * ~40 MB of dependencies for a 700-action surface we use five of, signs every token with one key
 * committed to its repository, and has no lockout after failed sign-ins, which we must show.
 *
 * Local only: admin actions are not authenticated (it listens on loopback), and access tokens are
 * not checked for revocation after GlobalSignOut, as aws-jwt-verify in AWS does not either.
 */
export const LOCAL_USER_POOL_ID = 'local_cambio';
export const LOCAL_CLIENT_ID = 'cambiodashboardlocal';
const ACCESS_TOKEN_SECONDS = 3600;
/** A sign-in's challenge session lives 3 minutes, as Cognito's does, and answers once. */
const CHALLENGE_SESSION_MS = 3 * 60_000;
/** Cognito's lockout: five failures are free, then 1 s doubling up to 15 minutes. */
const FREE_FAILURES = 5;
const MAX_LOCKOUT_MS = 15 * 60_000;
const UNKNOWN_USER_HASH = `${'0'.repeat(32)}:${'0'.repeat(128)}`;

interface User {
  username: string;
  sub: string;
  passwordHash: string;
  confirmed: boolean;
  failures: number;
  lockedUntil: number;
  /** Wrong authenticator codes, counted apart from passwords: a right password (which whoever is
   * guessing codes has) must not clear them. Absent in state files written without it. */
  codeFailures?: number;
  codeLockedUntil?: number;
  /** Base32 TOTP secret handed out by AssociateSoftwareToken, until VerifySoftwareToken proves it. */
  pendingTotpSecret?: string;
  totpSecret?: string;
  /** SetUserMFAPreference turned SOFTWARE_TOKEN_MFA on: sign-in asks for a code. */
  totpEnabled?: boolean;
}

interface State {
  privateKeyPem: string;
  users: Record<string, User>;
  /** sha256 of each live refresh token → username. */
  refreshTokens: Record<string, string>;
  /** sha256 of each live refresh token → the authentication it came from, which Cognito carries
   * into every access token refreshed from it (`origin_jti`, `auth_time`). Absent in state files
   * written without it: those tokens refresh as a new authentication. */
  refreshTokenOrigins?: Record<string, { originJti: string; authTime: number }>;
}

export interface CognitoEmulator {
  endpoint: string;
  userPoolId: string;
  clientId: string;
  issuer: string;
  stop(): Promise<void>;
}

class CognitoError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/** A state file the emulator cannot read: the start stops and says which, and what removing it costs. */
export class CognitoStateUnreadable extends Error {
  constructor(file: string, why: string) {
    super(
      `${file} is unreadable (${why}). It holds the local dashboard's users (passwords, two-factor secrets, sessions): ` +
        `restore it from a copy if you have one, or remove the whole data folder to start afresh. ` +
        `Removing only ${file} starts with no users, and the people the table holds can then no longer sign in.`,
    );
  }
}

export async function startCognitoEmulator(options: { dataDir: string | null }): Promise<CognitoEmulator> {
  const file = options.dataDir ? join(options.dataDir, 'cognito.json') : null;
  const state: State = file && existsSync(file) ? readState(file) : newState();
  // Written beside and renamed over at every change: a kill -9 mid-write leaves the last whole state.
  const save = () => {
    if (file) writeAtomically(file, JSON.stringify(state), { mode: 0o600 });
  };
  save();
  const privateKey = createPrivateKey(state.privateKeyPem);
  const publicKey = createPublicKey(privateKey);
  const kid = hash(publicKey.export({ format: 'pem', type: 'spki' }) as string).slice(0, 16);
  let issuer = '';
  /** sha256 of each open SOFTWARE_TOKEN_MFA challenge session → its user and deadline (memory only). */
  const challenges = new Map<string, { username: string; expiresAt: number }>();

  const actions: Record<string, (input: Record<string, any>) => unknown> = {
    AdminCreateUser: (input) => {
      checkPool(input.UserPoolId);
      const username = String(input.Username ?? '').toLowerCase();
      if (!username) throw new CognitoError('InvalidParameterException', 'Username is required');
      if (state.users[username]) throw new CognitoError('UsernameExistsException', 'User account already exists');
      checkPassword(String(input.TemporaryPassword ?? ''));
      const user: User = { username, sub: randomUUID(), passwordHash: hashPassword(String(input.TemporaryPassword)), confirmed: false, failures: 0, lockedUntil: 0 };
      state.users[username] = user;
      save();
      return { User: { Username: username, Attributes: [{ Name: 'sub', Value: user.sub }, { Name: 'email', Value: username }], UserStatus: 'FORCE_CHANGE_PASSWORD', Enabled: true } };
    },
    AdminSetUserPassword: (input) => {
      const user = adminUser(input);
      checkPassword(String(input.Password ?? ''));
      user.passwordHash = hashPassword(String(input.Password));
      // A permanent password confirms the user, as in Cognito (FORCE_CHANGE_PASSWORD → CONFIRMED).
      if (input.Permanent === true) user.confirmed = true;
      save();
      return {};
    },
    AdminGetUser: (input) => {
      const user = adminUser(input);
      return { Username: user.username, UserAttributes: [{ Name: 'sub', Value: user.sub }, { Name: 'email', Value: user.username }], UserStatus: user.confirmed ? 'CONFIRMED' : 'FORCE_CHANGE_PASSWORD', Enabled: true, UserMFASettingList: user.totpEnabled ? ['SOFTWARE_TOKEN_MFA'] : [] };
    },
    // An operator's call with the pool's IAM credentials (the console's "MFA" setting of a user): the
    // second factor changed where Cambio does not see it; the next sign-in shows it (sign-in.ts).
    AdminSetUserMFAPreference: (input) => setMfaPreference(adminUser(input), input),
    AdminDeleteUser: (input) => {
      const user = adminUser(input);
      revokeRefreshTokens(user.username);
      delete state.users[user.username];
      save();
      return {};
    },
    AdminUserGlobalSignOut: (input) => {
      const user = adminUser(input);
      revokeRefreshTokens(user.username);
      return {};
    },
    InitiateAuth: (input) => {
      checkClient(input.ClientId);
      const parameters = (input.AuthParameters ?? {}) as Record<string, string>;
      if (input.AuthFlow === 'USER_PASSWORD_AUTH') {
        const user = passwordAuth(parameters.USERNAME ?? '', parameters.PASSWORD ?? '');
        // As Cognito's AssociateSoftwareToken reference says: a token associated and not verified,
        // in a pool that does not require MFA, lets the user sign in on the password alone.
        if (!user.totpEnabled || user.pendingTotpSecret) return { ChallengeParameters: {}, AuthenticationResult: issueTokens(user) };
        const session = randomBytes(64).toString('base64url');
        challenges.set(hash(session), { username: user.username, expiresAt: Date.now() + CHALLENGE_SESSION_MS });
        return { ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: session, ChallengeParameters: { USER_ID_FOR_SRP: user.username } };
      }
      if (input.AuthFlow === 'REFRESH_TOKEN_AUTH') {
        const username = state.refreshTokens[hash(parameters.REFRESH_TOKEN ?? '')];
        const user = username ? state.users[username] : undefined;
        if (!user) throw new CognitoError('NotAuthorizedException', 'Invalid Refresh Token');
        const origin = state.refreshTokenOrigins?.[hash(parameters.REFRESH_TOKEN ?? '')] ?? newOrigin();
        return { ChallengeParameters: {}, AuthenticationResult: { AccessToken: accessToken(user, origin), IdToken: idToken(user), ExpiresIn: ACCESS_TOKEN_SECONDS, TokenType: 'Bearer' } };
      }
      throw new CognitoError('InvalidParameterException', `AuthFlow ${String(input.AuthFlow)} is not supported by the local emulator`);
    },
    RespondToAuthChallenge: (input) => {
      checkClient(input.ClientId);
      if (input.ChallengeName !== 'SOFTWARE_TOKEN_MFA') throw new CognitoError('InvalidParameterException', `ChallengeName ${String(input.ChallengeName)} is not supported by the local emulator`);
      const sessionHash = hash(String(input.Session ?? ''));
      const challenge = challenges.get(sessionHash);
      // Answered once, right or wrong: a wrong code means signing in again, so codes cannot be guessed on one password.
      challenges.delete(sessionHash);
      const user = challenge && challenge.expiresAt > Date.now() ? state.users[challenge.username] : undefined;
      if (!user || String(input.ChallengeResponses?.USERNAME ?? '').toLowerCase() !== user.username) {
        throw new CognitoError('NotAuthorizedException', 'Invalid session for the user, session is expired.');
      }
      if (Date.now() < (user.codeLockedUntil ?? 0)) throw new CognitoError('NotAuthorizedException', 'Password attempts exceeded');
      if (!user.totpSecret || !totpMatches(user.totpSecret, String(input.ChallengeResponses?.SOFTWARE_TOKEN_MFA_CODE ?? ''))) {
        user.codeFailures = (user.codeFailures ?? 0) + 1;
        user.codeLockedUntil = lockoutAfter(user.codeFailures);
        save();
        throw new CognitoError('CodeMismatchException', 'Invalid code received for user');
      }
      user.codeFailures = 0;
      user.codeLockedUntil = 0;
      save();
      return { ChallengeParameters: {}, AuthenticationResult: issueTokens(user) };
    },
    AssociateSoftwareToken: (input) => {
      const user = userOfAccessToken(input.AccessToken);
      user.pendingTotpSecret = base32.encode(randomBytes(20));
      save();
      return { SecretCode: user.pendingTotpSecret };
    },
    VerifySoftwareToken: (input) => {
      const user = userOfAccessToken(input.AccessToken);
      if (!user.pendingTotpSecret) throw new CognitoError('InvalidParameterException', 'User has not set up software token mfa');
      if (!totpMatches(user.pendingTotpSecret, String(input.UserCode ?? ''))) throw new CognitoError('EnableSoftwareTokenMFAException', 'Code mismatch');
      user.totpSecret = user.pendingTotpSecret;
      delete user.pendingTotpSecret;
      save();
      return { Status: 'SUCCESS' };
    },
    SetUserMFAPreference: (input) => setMfaPreference(userOfAccessToken(input.AccessToken), input),
    GetUser: (input) => {
      const user = userOfAccessToken(input.AccessToken);
      return {
        Username: user.username,
        UserAttributes: [{ Name: 'sub', Value: user.sub }, { Name: 'email', Value: user.username }],
        ...(user.totpEnabled ? { UserMFASettingList: ['SOFTWARE_TOKEN_MFA'], PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA' } : {}),
      };
    },
    ChangePassword: (input) => {
      const user = userOfAccessToken(input.AccessToken);
      if (Date.now() < user.lockedUntil) throw new CognitoError('NotAuthorizedException', 'Password attempts exceeded');
      // A wrong current password counts toward the lockout, as a wrong sign-in does.
      if (!verifyPassword(String(input.PreviousPassword ?? ''), user.passwordHash)) {
        recordFailure(user);
        throw new CognitoError('NotAuthorizedException', 'Incorrect username or password.');
      }
      checkPassword(String(input.ProposedPassword ?? ''));
      user.passwordHash = hashPassword(String(input.ProposedPassword));
      user.failures = 0;
      save();
      return {};
    },
    GlobalSignOut: (input) => {
      const claims = verifyToken(String(input.AccessToken ?? ''));
      if (!claims) throw new CognitoError('NotAuthorizedException', 'Invalid Access Token');
      revokeRefreshTokens(claims.username);
      return {};
    },
  };

  function revokeRefreshTokens(username: string): void {
    for (const [tokenHash, owner] of Object.entries(state.refreshTokens)) {
      if (owner !== username) continue;
      delete state.refreshTokens[tokenHash];
      delete state.refreshTokenOrigins?.[tokenHash];
    }
    save();
  }

  function passwordAuth(rawUsername: string, password: string) {
    const user = state.users[rawUsername.toLowerCase()];
    // An unknown user answers as a wrong password does (PreventUserExistenceErrors), after the same work.
    if (!user) {
      verifyPassword(password, UNKNOWN_USER_HASH);
      throw new CognitoError('NotAuthorizedException', 'Incorrect username or password.');
    }
    if (Date.now() < user.lockedUntil) throw new CognitoError('NotAuthorizedException', 'Password attempts exceeded');
    if (!verifyPassword(password, user.passwordHash)) {
      recordFailure(user);
      throw new CognitoError('NotAuthorizedException', user.failures > FREE_FAILURES ? 'Password attempts exceeded' : 'Incorrect username or password.');
    }
    // Cognito answers a user still on a temporary password with a NEW_PASSWORD_REQUIRED challenge;
    // the dashboard always sets a permanent one, so here it is simply refused.
    if (!user.confirmed) throw new CognitoError('NotAuthorizedException', 'Incorrect username or password.');
    user.failures = 0;
    user.lockedUntil = 0;
    save();
    return user;
  }

  /** A wrong password: five are free, then Cognito's lockout grows. */
  function recordFailure(user: User): void {
    user.failures += 1;
    user.lockedUntil = lockoutAfter(user.failures);
    save();
  }

  /** The user an admin action names (`Username`, in any letter case), in the pool it names. */
  function adminUser(input: Record<string, unknown>): User {
    checkPool(input.UserPoolId);
    const user = state.users[String(input.Username ?? '').toLowerCase()];
    if (!user) throw new CognitoError('UserNotFoundException', 'User does not exist.');
    return user;
  }

  /** The user's own SetUserMFAPreference and an operator's AdminSetUserMFAPreference alike: the
   * authenticator app's code asked at sign-in, once its secret is verified, or no longer. */
  function setMfaPreference(user: User, input: Record<string, unknown>) {
    const settings = input.SoftwareTokenMfaSettings as { Enabled?: boolean } | undefined;
    if (settings?.Enabled && !user.totpSecret) throw new CognitoError('InvalidParameterException', 'User has not verified software token mfa');
    if (settings) user.totpEnabled = settings.Enabled === true;
    save();
    return {};
  }

  function userOfAccessToken(token: unknown): User {
    const claims = verifyToken(String(token ?? ''));
    const user = claims ? state.users[claims.username] : undefined;
    if (!user) throw new CognitoError('NotAuthorizedException', 'Invalid Access Token');
    return user;
  }

  function issueTokens(user: User) {
    const refreshToken = randomBytes(48).toString('base64url');
    const origin = newOrigin();
    state.refreshTokens[hash(refreshToken)] = user.username;
    (state.refreshTokenOrigins ??= {})[hash(refreshToken)] = origin;
    save();
    return { AccessToken: accessToken(user, origin), IdToken: idToken(user), RefreshToken: refreshToken, ExpiresIn: ACCESS_TOKEN_SECONDS, TokenType: 'Bearer' };
  }

  function newOrigin() {
    return { originJti: randomUUID(), authTime: Math.floor(Date.now() / 1000) };
  }

  function accessToken(user: User, origin: { originJti: string; authTime: number }): string {
    const now = Math.floor(Date.now() / 1000);
    return sign({ sub: user.sub, iss: issuer, client_id: LOCAL_CLIENT_ID, origin_jti: origin.originJti, event_id: randomUUID(), token_use: 'access', scope: 'aws.cognito.signin.user.admin', auth_time: origin.authTime, exp: now + ACCESS_TOKEN_SECONDS, iat: now, jti: randomUUID(), username: user.username });
  }

  function idToken(user: User): string {
    const now = Math.floor(Date.now() / 1000);
    return sign({ sub: user.sub, email: user.username, email_verified: false, iss: issuer, 'cognito:username': user.username, aud: LOCAL_CLIENT_ID, token_use: 'id', auth_time: now, exp: now + ACCESS_TOKEN_SECONDS, iat: now, jti: randomUUID() });
  }

  function sign(payload: Record<string, unknown>): string {
    const head = base64url(JSON.stringify({ kid, alg: 'RS256' }));
    const body = base64url(JSON.stringify(payload));
    const signature = createSign('RSA-SHA256').update(`${head}.${body}`).sign(privateKey).toString('base64url');
    return `${head}.${body}.${signature}`;
  }

  function verifyToken(token: string): { username: string } | null {
    const [head, body, signature] = token.split('.');
    if (!head || !body || !signature) return null;
    if (!createVerify('RSA-SHA256').update(`${head}.${body}`).verify(publicKey, Buffer.from(signature, 'base64url'))) return null;
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { username?: string; exp?: number };
    return payload.username && (payload.exp ?? 0) * 1000 > Date.now() ? { username: payload.username } : null;
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => reply(res, 500, { __type: 'InternalErrorException', message: String(error) }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === `/${LOCAL_USER_POOL_ID}/.well-known/jwks.json`) {
      return reply(res, 200, { keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] }, 'application/json');
    }
    const target = String(req.headers['x-amz-target'] ?? '');
    const action = actions[target.replace('AWSCognitoIdentityProviderService.', '')];
    if (req.method !== 'POST' || !action) return reply(res, 400, { __type: 'UnknownOperationException', message: `Unsupported: ${target}` });
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    try {
      reply(res, 200, action(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>));
    } catch (error) {
      if (!(error instanceof CognitoError)) throw error;
      reply(res, 400, { __type: error.type, message: error.message }, undefined, error.type);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  issuer = `${endpoint}/${LOCAL_USER_POOL_ID}`;
  return {
    endpoint,
    userPoolId: LOCAL_USER_POOL_ID,
    clientId: LOCAL_CLIENT_ID,
    issuer,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Until when `failures` in a row lock the user out (0: not): five are free, then 1 s doubling up to 15 minutes. */
function lockoutAfter(failures: number): number {
  return failures >= FREE_FAILURES ? Date.now() + Math.min(MAX_LOCKOUT_MS, 1000 * 2 ** (failures - FREE_FAILURES)) : 0;
}

function newState(): State {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKeyPem: (privateKey as KeyObject).export({ format: 'pem', type: 'pkcs8' }) as string, users: {}, refreshTokens: {} };
}

function readState(file: string): State {
  let state: Partial<State> | null;
  try {
    state = JSON.parse(readFileSync(file, 'utf8')) as Partial<State> | null;
  } catch (error) {
    throw new CognitoStateUnreadable(file, (error as Error).message);
  }
  if (typeof state?.privateKeyPem !== 'string' || typeof state.users !== 'object' || state.users === null || typeof state.refreshTokens !== 'object' || state.refreshTokens === null) {
    throw new CognitoStateUnreadable(file, 'it holds no user pool');
  }
  return state as State;
}

function checkPool(userPoolId: unknown): void {
  if (userPoolId !== LOCAL_USER_POOL_ID) throw new CognitoError('ResourceNotFoundException', 'User pool does not exist.');
}

function checkClient(clientId: unknown): void {
  if (clientId !== LOCAL_CLIENT_ID) throw new CognitoError('ResourceNotFoundException', 'User pool client does not exist.');
}

function checkPassword(password: string): void {
  const problems = passwordProblems(password);
  if (problems.length) throw new CognitoError('InvalidPasswordException', `Password does not conform to policy: needs ${problems.join(', ')}`);
}

function hashPassword(password: string): string {
  const salt = randomBytes(16).toString('hex');
  return `${salt}:${scryptSync(password, salt, 64).toString('hex')}`;
}

function verifyPassword(password: string, stored: string): boolean {
  const [salt = '', expected = ''] = stored.split(':');
  const actual = scryptSync(password, salt, 64);
  const wanted = Buffer.from(expected, 'hex');
  return wanted.length === actual.length && timingSafeEqual(wanted, actual);
}

const hash = (value: string): string => createHash('sha256').update(value).digest('hex');
const base64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

function reply(res: ServerResponse, status: number, body: unknown, contentType = 'application/x-amz-json-1.1', errorType?: string): void {
  res.writeHead(status, { 'Content-Type': contentType, ...(errorType && { 'x-amzn-ErrorType': errorType }), 'x-amzn-RequestId': randomUUID() });
  res.end(JSON.stringify(body));
}
