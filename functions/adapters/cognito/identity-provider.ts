import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AdminUserGlobalSignOutCommand,
  ChangePasswordCommand,
  AssociateSoftwareTokenCommand,
  CognitoIdentityProviderClient,
  GetUserCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
  type AttributeType,
  type AuthenticationResultType,
  type InitiateAuthCommandOutput,
} from '@aws-sdk/client-cognito-identity-provider';
import { signInRefused, validationFailed, WrongCodeError } from '#functions/shared/errors';
import type { IdentityProvider, SessionTokens, TwoFactorChallenge, TwoFactorProvider } from '#functions/people/identity';
import type { UnverifiedAccounts } from '#functions/people/email-verification';
import type { PasswordAccounts } from '#functions/people/password-reset';
import { awsClient } from '../aws-clients.ts';
import type { SessionVerifier } from './session-verifier.ts';

export interface UserPoolSettings {
  userPoolId: string;
  clientId: string;
  /** Set only locally: the emulator's URL (local/cognito-emulator.ts). */
  endpoint?: string;
}

/**
 * The user pool through its own API, in AWS and against the local emulator alike. People are made
 * by the dashboard API only (AdminCreateUser, then AdminSetUserPassword to make the password
 * permanent; the pool's policy applies to both): the pool allows no self sign-up, so nobody can
 * make a user by calling Cognito's public SignUp with the app client's id, and no code is mailed.
 */
export class CognitoIdentityProvider implements IdentityProvider, TwoFactorProvider, PasswordAccounts, UnverifiedAccounts {
  private readonly client: CognitoIdentityProviderClient;

  constructor(
    private readonly pool: UserPoolSettings,
    private readonly verifier: SessionVerifier,
  ) {
    this.client = userPoolClient(pool);
  }

  async createUser(email: string, password: string): Promise<{ personId: string }> {
    try {
      const { User } = await this.client.send(
        new AdminCreateUserCommand({
          UserPoolId: this.pool.userPoolId,
          Username: email,
          // Checked against the policy before the user exists, so a weak password leaves no user behind.
          TemporaryPassword: password,
          MessageAction: 'SUPPRESS',
          UserAttributes: [
            { Name: 'email', Value: email },
            { Name: 'email_verified', Value: 'true' },
          ],
        }),
      );
      await this.client.send(new AdminSetUserPasswordCommand({ UserPoolId: this.pool.userPoolId, Username: email, Password: password, Permanent: true }));
      const sub = User?.Attributes?.find((attribute) => attribute.Name === 'sub')?.Value;
      if (!sub) throw new Error('AdminCreateUser answered without the user\'s sub');
      return { personId: sub };
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'UsernameExistsException') throw validationFailed([{ path: 'email', message: 'is already registered; sign in instead' }]);
      if (name === 'InvalidPasswordException' || name === 'InvalidParameterException') {
        throw validationFailed([{ path: 'password', message: (error as Error).message }]);
      }
      throw error;
    }
  }

  async signIn(email: string, password: string): Promise<SessionTokens | TwoFactorChallenge> {
    return this.authenticate('USER_PASSWORD_AUTH', { USERNAME: email, PASSWORD: password }, null);
  }

  async refresh(refreshToken: string): Promise<SessionTokens> {
    const outcome = await this.authenticate('REFRESH_TOKEN_AUTH', { REFRESH_TOKEN: refreshToken }, refreshToken);
    if ('twoFactor' in outcome) throw new Error('Cognito asked for a second factor on a refresh');
    return outcome;
  }

  async answerChallenge(challenge: TwoFactorChallenge['twoFactor'], code: string): Promise<SessionTokens> {
    let answer: InitiateAuthCommandOutput;
    try {
      answer = await this.client.send(
        new RespondToAuthChallengeCommand({
          ClientId: this.pool.clientId,
          ChallengeName: 'SOFTWARE_TOKEN_MFA',
          Session: challenge.session,
          ChallengeResponses: { USERNAME: challenge.email, SOFTWARE_TOKEN_MFA_CODE: code },
        }),
      );
    } catch (error) {
      throwIfLockedOut(error);
      const { name } = error as Error;
      if (name === 'CodeMismatchException') throw signInRefused.wrongCode();
      if (name === 'NotAuthorizedException' || name === 'ExpiredCodeException') throw signInRefused.expired();
      throw error;
    }
    return this.sessionOf(answer.AuthenticationResult, null);
  }

  async startSetup(accessToken: string): Promise<{ secret: string }> {
    const { SecretCode } = await this.client.send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken }));
    if (!SecretCode) throw new Error('AssociateSoftwareToken answered without a secret');
    return { secret: SecretCode };
  }

  async confirmSetup(accessToken: string, code: string): Promise<void> {
    const mismatch = () => new WrongCodeError('VALIDATION_FAILED', 'The request is invalid; see details', [{ path: 'code', message: 'does not match: check the app shows codes for Cambio and try the next one' }]);
    let status: string | undefined;
    try {
      ({ Status: status } = await this.client.send(new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: code, FriendlyDeviceName: 'Authenticator app' })));
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'EnableSoftwareTokenMFAException' || name === 'CodeMismatchException') throw mismatch();
      if (name === 'InvalidParameterException') throw validationFailed([{ path: 'code', message: 'start the set-up again: no secret is waiting for a code' }]);
      throw error;
    }
    if (status !== 'SUCCESS') throw mismatch();
    await this.client.send(new SetUserMFAPreferenceCommand({ AccessToken: accessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }));
  }

  async turnOff(accessToken: string): Promise<void> {
    await this.client.send(new SetUserMFAPreferenceCommand({ AccessToken: accessToken, SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false } }));
  }

  async status(accessToken: string): Promise<{ email: string | null; enabled: boolean }> {
    const { UserAttributes = [], UserMFASettingList = [] } = await this.client.send(new GetUserCommand({ AccessToken: accessToken }));
    return { email: UserAttributes.find((attribute) => attribute.Name === 'email')?.Value ?? null, enabled: UserMFASettingList.includes('SOFTWARE_TOKEN_MFA') };
  }

  async findPerson(email: string): Promise<{ personId: string } | null> {
    try {
      const { UserAttributes = [] } = await this.client.send(new AdminGetUserCommand({ UserPoolId: this.pool.userPoolId, Username: email }));
      return { personId: subOf(UserAttributes) };
    } catch (error) {
      if ((error as Error).name === 'UserNotFoundException') return null;
      throw error;
    }
  }

  async setPassword(email: string, password: string): Promise<void> {
    try {
      await this.client.send(new AdminSetUserPasswordCommand({ UserPoolId: this.pool.userPoolId, Username: email, Password: password, Permanent: true }));
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'InvalidPasswordException' || name === 'InvalidParameterException') throw validationFailed([{ path: 'password', message: (error as Error).message }]);
      throw error;
    }
  }

  async changePassword(accessToken: string, currentPassword: string, newPassword: string): Promise<void> {
    try {
      await this.client.send(new ChangePasswordCommand({ AccessToken: accessToken, PreviousPassword: currentPassword, ProposedPassword: newPassword }));
    } catch (error) {
      throwIfLockedOut(error);
      const { name, message } = error as Error;
      if (name === 'LimitExceededException') throw signInRefused.lockedOut();
      if (name === 'NotAuthorizedException') throw validationFailed([{ path: 'currentPassword', message: 'is not your password' }]);
      if (name === 'InvalidPasswordException' || name === 'InvalidParameterException') throw validationFailed([{ path: 'newPassword', message }]);
      throw error;
    }
  }

  async deleteUser(email: string): Promise<void> {
    try {
      await this.client.send(new AdminDeleteUserCommand({ UserPoolId: this.pool.userPoolId, Username: email }));
    } catch (error) {
      if ((error as Error).name !== 'UserNotFoundException') throw error;
    }
  }

  async revokeSessions(email: string): Promise<void> {
    await this.client.send(new AdminUserGlobalSignOutCommand({ UserPoolId: this.pool.userPoolId, Username: email }));
  }

  async signOut(accessToken: string): Promise<void> {
    try {
      await this.client.send(new GlobalSignOutCommand({ AccessToken: accessToken }));
    } catch (error) {
      // An expired or already revoked token: the session is over either way.
      if ((error as Error).name !== 'NotAuthorizedException') throw error;
    }
  }

  private async authenticate(
    flow: 'USER_PASSWORD_AUTH' | 'REFRESH_TOKEN_AUTH',
    parameters: Record<string, string>,
    refreshToken: string | null,
  ): Promise<SessionTokens | TwoFactorChallenge> {
    let answer: InitiateAuthCommandOutput;
    try {
      answer = await this.client.send(new InitiateAuthCommand({ AuthFlow: flow, ClientId: this.pool.clientId, AuthParameters: parameters }));
    } catch (error) {
      throwIfLockedOut(error);
      const { name } = error as Error;
      if (name === 'NotAuthorizedException' || name === 'UserNotFoundException' || name === 'UserNotConfirmedException') {
        throw flow === 'USER_PASSWORD_AUTH' ? signInRefused.wrongEmailOrPassword() : signInRefused.sessionEnded();
      }
      throw error;
    }
    if (answer.ChallengeName === 'SOFTWARE_TOKEN_MFA' && answer.Session && flow === 'USER_PASSWORD_AUTH') {
      return { twoFactor: { email: parameters.USERNAME!, session: answer.Session } };
    }
    return this.sessionOf(answer.AuthenticationResult, refreshToken);
  }

  private async sessionOf(result: AuthenticationResultType | undefined, refreshToken: string | null): Promise<SessionTokens> {
    // Any other challenge (SMS, a new password) is not one the pool is set up to ask.
    if (!result?.AccessToken) throw signInRefused.unsupportedStep();
    const claims = await this.verifier.verify(result.AccessToken);
    // The pool revokes tokens (lib/dashboard.ts enableTokenRevocation), so Cognito puts origin_jti in each.
    if (!claims.originJti) throw new Error('Cognito issued an access token without origin_jti');
    return {
      accessToken: result.AccessToken,
      refreshToken: result.RefreshToken ?? refreshToken,
      expiresInSeconds: result.ExpiresIn ?? 3600,
      personId: claims.personId,
      sessionId: claims.originJti,
    };
  }
}

/** Cognito's lockout after repeated failures (wrong passwords or codes) is a NotAuthorizedException
 * with this message, on InitiateAuth and RespondToAuthChallenge alike. */
function throwIfLockedOut(error: unknown): void {
  const { name, message } = error as Error;
  if (name === 'NotAuthorizedException' && /attempts exceeded/i.test(message)) {
    throw signInRefused.lockedOut();
  }
}

/** The user's `sub`, Cambio's person id (AdminGetUser's attributes). */
export function subOf(attributes: AttributeType[]): string {
  const sub = attributes.find((attribute) => attribute.Name === 'sub')?.Value;
  if (!sub) throw new Error("AdminGetUser answered without the user's sub");
  return sub;
}

/** The pool's API client: the emulator's locally, else the pool's own region (its id's prefix),
 * wherever the caller runs (an operator's default region may be another). */
export function userPoolClient(pool: UserPoolSettings): CognitoIdentityProviderClient {
  return awsClient(
    new CognitoIdentityProviderClient(
      pool.endpoint
        ? { endpoint: pool.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : { region: pool.userPoolId.split('_')[0] },
    ),
  );
}
