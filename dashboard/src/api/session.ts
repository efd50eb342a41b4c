import { send } from './client.ts';
import type {
  AcceptInvitationRequest,
  Acknowledged,
  CodeRequired,
  Me,
  ProofRequest,
  RequestPasswordResetRequest,
  ResendVerificationRequest,
  ResetPasswordRequest,
  SignInRequest,
  SignUpRequest,
  Stage,
  VerifyEmailRequest,
} from './types.ts';

/** Signing up, in and out, and who is signed in (docs/dashboard-api.md, Sessions, cookies and cross-site requests). */
export const sessionApi = {
  /** What the signed-out pages offer on this stage (functions/handlers/dashboard/get-stage.ts). */
  stage: () => send<Stage>('GET', '/stage'),
  signUp: (input: SignUpRequest) => send<Acknowledged<'checkYourMail'>>('POST', '/sign-up', input),
  resendSignUpLink: (input: ResendVerificationRequest) => send<Acknowledged<'checkYourMail'>>('POST', '/sign-up/resend', input),
  verifyEmail: (input: VerifyEmailRequest) => send<Acknowledged<'signedIn'>>('POST', '/sign-up/verify', input),
  signIn: (input: SignInRequest) => send<Acknowledged<'signedIn'> | CodeRequired>('POST', '/session', input),
  signInCode: (code: string) => send<Acknowledged<'signedIn'>>('POST', '/session/two-factor', { code }),
  signOut: () => send<Acknowledged<'signedOut'>>('DELETE', '/session'),
  confirmSession: (proof: ProofRequest) => send<Acknowledged<'confirmed'>>('POST', '/session/confirm', proof),
  acceptInvitation: (input: AcceptInvitationRequest) => send<Acknowledged<'signedIn'> & { companyId: string }>('POST', '/invitations/accept', input),
  requestPasswordReset: (input: RequestPasswordResetRequest) => send<Acknowledged<'requested'>>('POST', '/password-reset', input),
  resetPassword: (input: ResetPasswordRequest) => send<Acknowledged<'reset'>>('POST', '/password-reset/confirm', input),
  me: () => send<Me>('GET', '/me'),
};
