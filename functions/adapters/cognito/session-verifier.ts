import { JwtRsaVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';

export interface SessionClaims {
  personId: string;
  /** `exp` and `iat`, epoch seconds. */
  expiresAt: number;
  issuedAt: number;
  /** The authentication the token descends from, kept by Cognito across refreshes. */
  originJti: string | null;
  /** `auth_time`, epoch seconds: when the person gave their password (and code), which Cognito
   * keeps across refreshes; null when the token carries none. */
  authTime: number | null;
}

export interface SessionVerifier {
  /** Throws on any token that is not a current access token of this pool's app client. */
  verify(accessToken: string): Promise<SessionClaims>;
}

export interface VerifierSettings {
  userPoolId: string;
  clientId: string;
  /** Cognito's issuer: `https://cognito-idp.<region>.amazonaws.com/<pool id>`, or the emulator's. */
  issuer: string;
}

/**
 * Cognito access tokens checked by aws-jwt-verify (signature against the pool's JWKS, issuer,
 * expiry, `token_use` and `client_id`), the same code in AWS and locally. The library's own JWKS
 * fetcher speaks https only; this one uses fetch, so the local emulator's http JWKS works too.
 */
export function sessionVerifier(settings: VerifierSettings): SessionVerifier {
  const verifier = JwtRsaVerifier.create(
    {
      issuer: settings.issuer,
      audience: null,
      jwksUri: `${settings.issuer}/.well-known/jwks.json`,
      customJwtCheck: ({ payload }) => {
        if (payload.token_use !== 'access') throw new Error('Not an access token');
        if (payload.client_id !== settings.clientId) throw new Error('Token of another app client');
      },
    },
    {
      jwksCache: new SimpleJwksCache({
        fetcher: {
          fetch: async (uri: string) => {
            const response = await fetch(uri, { signal: AbortSignal.timeout(3000) });
            if (!response.ok) throw new Error(`JWKS ${uri}: HTTP ${response.status}`);
            return response.arrayBuffer();
          },
        },
      }),
    },
  );
  return {
    verify: async (accessToken) => {
      const payload = await verifier.verify(accessToken);
      if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number' || typeof payload.iat !== 'number') throw new Error('Token without sub, exp or iat');
      const originJti = typeof payload.origin_jti === 'string' ? payload.origin_jti : null;
      const authTime = typeof payload.auth_time === 'number' ? payload.auth_time : null;
      return { personId: payload.sub, expiresAt: payload.exp, issuedAt: payload.iat, originJti, authTime };
    },
  };
}
