import type { SliceSettings } from '#functions/settings/functions';
import { CognitoIdentityProvider } from './identity-provider.ts';
import { sessionVerifier } from './session-verifier.ts';

/** The user pool bound by the stack (COGNITO_USER_POOL_ID, COGNITO_CLIENT_ID) or, locally, by the
 * runtime, which also sets COGNITO_ENDPOINT and COGNITO_ISSUER to its emulator's. */
export function userPoolFrom(settings: SliceSettings<'userPool'>) {
  const userPoolId = settings.COGNITO_USER_POOL_ID;
  const clientId = settings.COGNITO_CLIENT_ID;
  const region = userPoolId.split('_')[0];
  const issuer = settings.COGNITO_ISSUER ?? `https://cognito-idp.${region}.amazonaws.com/${userPoolId}`;
  const verifier = sessionVerifier({ userPoolId, clientId, issuer });
  return { verifier, identity: new CognitoIdentityProvider({ userPoolId, clientId, endpoint: settings.COGNITO_ENDPOINT }, verifier) };
}
