import { send } from './client.ts';
import type { Acknowledged, ChangePasswordRequest, ProofRequest, TwoFactorSetup, TwoFactorStatus, TwoFactorTurnedOff, TwoFactorTurnedOn } from './types.ts';

/** The signed-in person's own settings: password and two-factor sign-in (the Account page). */
export const accountApi = {
  twoFactor: () => send<TwoFactorStatus>('GET', '/me/two-factor'),
  startTwoFactorSetup: () => send<TwoFactorSetup>('POST', '/me/two-factor/setup', {}),
  confirmTwoFactor: (code: string) => send<TwoFactorTurnedOn>('POST', '/me/two-factor/confirm', { code }),
  turnOffTwoFactor: (proof: ProofRequest) => send<TwoFactorTurnedOff>('POST', '/me/two-factor/turn-off', proof),
  changePassword: (input: ChangePasswordRequest) => send<Acknowledged<'changed'>>('POST', '/me/password', input),
};
