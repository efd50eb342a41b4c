import { AdminGetUserCommand, AdminSetUserMFAPreferenceCommand, AdminUserGlobalSignOutCommand, type CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { TwoFactorAdministration } from '#functions/people/two-factor-reset';
import { subOf, userPoolClient, type UserPoolSettings } from './identity-provider.ts';

/**
 * An operator's actions on a person's account, by address (npm run person:reset-two-factor), with
 * the operator's own credentials. Apart from the dashboard's provider: no function of the stack
 * makes these calls, so none bundles or may call them.
 */
export class CognitoAccountAdministration implements TwoFactorAdministration {
  private readonly client: CognitoIdentityProviderClient;

  constructor(private readonly pool: Omit<UserPoolSettings, 'clientId'>) {
    this.client = userPoolClient({ ...pool, clientId: '' });
  }

  async twoFactorOfAccount(email: string): Promise<{ personId: string; enabled: boolean } | null> {
    try {
      const { UserAttributes = [], UserMFASettingList = [] } = await this.client.send(new AdminGetUserCommand({ UserPoolId: this.pool.userPoolId, Username: email }));
      return { personId: subOf(UserAttributes), enabled: UserMFASettingList.includes('SOFTWARE_TOKEN_MFA') };
    } catch (error) {
      if ((error as Error).name === 'UserNotFoundException') return null;
      throw error;
    }
  }

  async turnOffTwoFactorOf(email: string): Promise<void> {
    await this.client.send(
      new AdminSetUserMFAPreferenceCommand({ UserPoolId: this.pool.userPoolId, Username: email, SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false } }),
    );
  }

  async revokeSessions(email: string): Promise<void> {
    await this.client.send(new AdminUserGlobalSignOutCommand({ UserPoolId: this.pool.userPoolId, Username: email }));
  }
}
