import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionVerifier, type SessionVerifier } from '#adapters/cognito/session-verifier';
import { startScriptedServer, type ScriptedServer } from '../support/scripted-server.ts';

/**
 * The dashboard's session check (the session authorizer's first step): Cognito access tokens
 * verified against the pool's JWKS, served here over a real socket as the local Cognito emulator
 * serves it. Every token below but the first is one a person must not get in with.
 */
const CLIENT_ID = 'dashboard-client';
const KID = 'pool-key-1';
const pool = generateKeyPairSync('rsa', { modulusLength: 2048 });
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });

let server: ScriptedServer;
let issuer: string;
let verifier: SessionVerifier;

const base64url = (value: object | Buffer) => (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

function token(claims: Record<string, unknown>, { key = pool.privateKey, kid = KID, alg = 'RS256' }: { key?: KeyObject; kid?: string; alg?: string } = {}): string {
  const signingInput = `${base64url({ alg, kid, typ: 'JWT' })}.${base64url(claims)}`;
  const signature = alg === 'none' ? Buffer.alloc(0) : sign('sha256', Buffer.from(signingInput), key);
  return `${signingInput}.${base64url(signature)}`;
}

const accessClaims = (more: Record<string, unknown> = {}) => ({
  sub: 'person-1',
  iss: issuer,
  client_id: CLIENT_ID,
  token_use: 'access',
  origin_jti: 'origin-1',
  // When the person gave their password: Cognito keeps it across refreshes.
  auth_time: now() - 120,
  iat: now() - 60,
  exp: now() + 3600,
  ...more,
});

beforeAll(async () => {
  const jwk = { ...pool.publicKey.export({ format: 'jwk' }), kid: KID, alg: 'RS256', use: 'sig' };
  server = await startScriptedServer((request) => (request.path.endsWith('/.well-known/jwks.json') ? { body: { keys: [jwk] } } : { status: 404, body: '' }));
  issuer = `${server.baseUrl}/us-east-1_TestPool`;
  verifier = sessionVerifier({ userPoolId: 'us-east-1_TestPool', clientId: CLIENT_ID, issuer });
});
afterAll(() => server.close());

describe('sessionVerifier', () => {
  it("accepts a current access token of the pool's app client and says who it is", async () => {
    const claims = accessClaims();
    expect(await verifier.verify(token(claims))).toEqual({ personId: 'person-1', expiresAt: claims.exp, issuedAt: claims.iat, originJti: 'origin-1', authTime: claims.auth_time });
  });

  // Claims are built in the test, once the server (and so the issuer) exists.
  it.each([
    ['an ID token in place of the access token', { token_use: 'id' }, 'Not an access token'],
    ["another app client's token", { client_id: 'another-client' }, 'Token of another app client'],
    ['an expired token', { iat: now() - 7200, exp: now() - 3600 }, /expired/i],
    ["another pool's token", { iss: 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_OtherPool' }, /issuer not allowed/i],
    ['a token without a subject', { sub: undefined }, 'Token without sub, exp or iat'],
  ])('refuses %s', async (_case, overrides, reason) => {
    await expect(verifier.verify(token(accessClaims(overrides)))).rejects.toThrow(reason);
  });

  it("refuses a token signed with another key under the pool key's id", async () => {
    await expect(verifier.verify(token(accessClaims(), { key: stranger.privateKey }))).rejects.toThrow(/invalid signature/i);
  });

  it('refuses an unsigned token, and one MACed with the public key (the RS256/HS256 confusion)', async () => {
    await expect(verifier.verify(token(accessClaims(), { alg: 'none' }))).rejects.toThrow();
    const signingInput = `${base64url({ alg: 'HS256', kid: KID, typ: 'JWT' })}.${base64url(accessClaims())}`;
    const mac = createHmac('sha256', pool.publicKey.export({ format: 'pem', type: 'spki' })).update(signingInput).digest();
    await expect(verifier.verify(`${signingInput}.${base64url(mac)}`)).rejects.toThrow();
  });

  it('refuses a token naming a key the pool does not publish', async () => {
    await expect(verifier.verify(token(accessClaims(), { key: stranger.privateKey, kid: 'stranger-key' }))).rejects.toThrow();
  });

  it('refuses a token whose claims were changed after signing', async () => {
    const [header, , signature] = token(accessClaims()).split('.');
    await expect(verifier.verify(`${header}.${base64url(accessClaims({ sub: 'person-2' }))}.${signature}`)).rejects.toThrow(/invalid signature/i);
  });
});
