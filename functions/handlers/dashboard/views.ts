import type * as v from 'valibot';
import type { ApiKeyView, createApiKey } from '#functions/api-keys/key-management';
import type { Environment } from '#functions/api-keys/api-keys';
import type { ActivityKind, activityView, EventDelivery, simulatePayment } from '#functions/companies/activity';
import type { AuditEntry } from '#functions/companies/audit-log';
import type { overview } from '#functions/companies/company';
import type { HoldReason } from '#functions/deposits/deposits';
import type { MeView } from '#functions/people/memberships';
import type { TeamView, inviteMember } from '#functions/people/team-members';
import type { Role } from '#functions/people/team';
import type { TwoFactorRequirement, turnOffTwoFactor, turnOnTwoFactor } from '#functions/people/two-factor';
import type { addEndpoint, dashboardWebhookView, removeEndpoint, resendEvent, rollSecret, sendTestEvent } from '#functions/webhooks/webhook-endpoints';
import type { WebhookAttempt } from '#functions/webhooks/webhook-attempt';
import type { withdrawalAllowlist } from '#functions/withdrawals/withdrawal-allowlist';
import type { withdrawalLimit } from '#functions/withdrawals/withdrawal-limit';
import type { sendWithdrawal } from '#functions/withdrawals/dashboard-withdrawals';
import type { StageView } from './get-stage.ts';
import type * as bodies from './schemas.ts';
import type { changeWebhookBody } from './webhook-schemas.ts';
import type { webhookBody } from '../webhooks/schemas.ts';

/**
 * The dashboard API's requests and answers, as this folder's handlers read and send them: each
 * answer's type is that of the domain function its handler returns, each request's that of the
 * schema its handler validates. The web app (dashboard/src/api/) imports this module with
 * `import type` only, so no server code enters its bundle, and a change to an answer's shape fails
 * the app's type check (`tsc -p dashboard`) instead of a page.
 */

type Answer<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

export type { ActivityKind, ApiKeyView, AuditEntry, Environment, EventDelivery, HoldReason, MeView, Role, StageView, TeamView, WebhookAttempt };

export type OverviewView = Answer<typeof overview>;
export type IssuedApiKeyView = Answer<typeof createApiKey>;
export type InvitationSent = Answer<typeof inviteMember>;
export type TwoFactorRequirementView = TwoFactorRequirement;
export type TwoFactorTurnedOn = Answer<typeof turnOnTwoFactor>;
export type TwoFactorTurnedOff = Answer<typeof turnOffTwoFactor>;
export type WithdrawalLimitView = Answer<typeof withdrawalLimit>;
export type WithdrawalAllowlistView = Answer<typeof withdrawalAllowlist>;
export type AllowedAddressView = WithdrawalAllowlistView['addresses'][number];
export type WebhookEndpointView = ReturnType<typeof dashboardWebhookView>;
/** `Add endpoint` and `Roll secret`: the one time the signing secret is shown. */
export type WebhookEndpointCreated = Answer<typeof addEndpoint>;
export type WebhookSecretRolled = Answer<typeof rollSecret>;
export type WebhookEndpointDeleted = Answer<typeof removeEndpoint>;
export type EventResent = Answer<typeof resendEvent>;
export type TestEventSent = Answer<typeof sendTestEvent>;
/** A record of an Activity list or detail: a deposit, withdrawal or conversion as /v1 shows it, or an event. */
export type ActivityRecordView = ReturnType<typeof activityView>;
export type WithdrawalSent = Answer<typeof sendWithdrawal>;
export type PaymentSimulated = Answer<typeof simulatePayment>;

/** The answers that only acknowledge, `{ "changed": true }` and the like: each handler sends the literal. */
export type Acknowledged<Word extends string> = { [K in Word]: true };
/** POST /session when the person has two-factor sign-in on: the code comes next. */
export interface CodeRequired {
  signedIn: false;
  twoFactorRequired: true;
}
export interface TwoFactorStatus {
  enabled: boolean;
}
/** The authenticator's secret, and the `otpauth://` URI its QR code holds. */
export interface TwoFactorSetup {
  secret: string;
  uri: string;
}

export type SignUpRequest = v.InferInput<typeof bodies.signUpBody>;
export type SignInRequest = v.InferInput<typeof bodies.signInBody>;
export type AcceptInvitationRequest = v.InferInput<typeof bodies.acceptInvitationBody>;
export type VerifyEmailRequest = v.InferInput<typeof bodies.verifyEmailBody>;
export type ResendVerificationRequest = v.InferInput<typeof bodies.resendVerificationBody>;
export type RequestPasswordResetRequest = v.InferInput<typeof bodies.requestPasswordResetBody>;
export type ResetPasswordRequest = v.InferInput<typeof bodies.resetPasswordBody>;
export type ChangePasswordRequest = v.InferInput<typeof bodies.changePasswordBody>;
/** `Confirm it's you` and turning two-factor sign-in off: the password, and the code when it is on. */
export type ProofRequest = v.InferInput<typeof bodies.confirmSessionBody>;
export type CreateApiKeyRequest = v.InferInput<typeof bodies.createApiKeyBody>;
export type RollApiKeyRequest = v.InferInput<typeof bodies.rollApiKeyBody>;
export type InviteMemberRequest = v.InferInput<typeof bodies.inviteMemberBody>;
export type ChangeRoleRequest = v.InferInput<typeof bodies.changeRoleBody>;
export type AddWithdrawalAddressRequest = v.InferInput<typeof bodies.addWithdrawalAddressBody>;
export type SendWithdrawalRequest = v.InferInput<typeof bodies.sendWithdrawalBody>;
export type SimulatePaymentRequest = v.InferInput<typeof bodies.simulatePaymentBody>;
/** Activity's filters, as the list and `Export CSV` read them from the query string. */
export type ActivityFilterRequest = v.InferInput<typeof bodies.activityExportQuery>;
/** `Add endpoint` (/v1's webhook body). */
export type WebhookEndpointRequest = v.InferInput<typeof webhookBody>;
/** Edit, `Disable` and `Enable` of one: only the fields that change. */
export type WebhookEndpointChange = v.InferInput<typeof changeWebhookBody>;
