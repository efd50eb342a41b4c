import type * as views from '../../../functions/handlers/dashboard/views.ts';

/**
 * The dashboard API's requests and answers under the names the pages use, every one the server's
 * own (functions/handlers/dashboard/views.ts, imported as types only: no server code is bundled).
 */
export type {
  AcceptInvitationRequest,
  Acknowledged,
  ActivityKind,
  AddWithdrawalAddressRequest,
  AuditEntry,
  ChangePasswordRequest,
  ChangeRoleRequest,
  CodeRequired,
  CreateApiKeyRequest,
  Environment,
  EventResent,
  HoldReason,
  InvitationSent,
  InviteMemberRequest,
  PaymentSimulated,
  ProofRequest,
  RequestPasswordResetRequest,
  ResendVerificationRequest,
  ResetPasswordRequest,
  RollApiKeyRequest,
  Role,
  SendWithdrawalRequest,
  SimulatePaymentRequest,
  SignInRequest,
  SignUpRequest,
  TestEventSent,
  TwoFactorSetup,
  TwoFactorStatus,
  TwoFactorTurnedOff,
  TwoFactorTurnedOn,
  VerifyEmailRequest,
  WebhookEndpointCreated,
  WebhookEndpointDeleted,
  WebhookSecretRolled,
} from '../../../functions/handlers/dashboard/views.ts';

export type Stage = views.StageView;
export type Me = views.MeView;
export type Overview = views.OverviewView;
export type ApiKey = views.ApiKeyView;
export type IssuedKey = views.IssuedApiKeyView;
export type RollGrace = views.RollApiKeyRequest['oldSecretValidFor'];
export type Team = views.TeamView;
export type Member = Team['members'][number];
export type Invitation = Team['invitations'][number];
export type TwoFactorRequirement = views.TwoFactorRequirementView;
export type WithdrawalLimit = views.WithdrawalLimitView;
export type WithdrawalAllowlist = views.WithdrawalAllowlistView;
export type AllowedAddress = views.AllowedAddressView;

/** Any record of an Activity list: each tab reads the fields it shows. */
export type ActivityRow = views.ActivityRecordView & Record<string, unknown>;
/** A webhook's handling of an event, shown on the event's detail. */
export type Delivery = views.EventDelivery;
/** The filter a list shows and `Export CSV` streams, as the form holds it: empty strings filter nothing. */
export type ActivityFilter = { [Field in keyof views.ActivityFilterRequest]-?: string };
export type WithdrawalSent = views.WithdrawalSent & Record<string, unknown>;

export type Endpoint = views.WebhookEndpointView;
export type EndpointInput = Required<views.WebhookEndpointRequest>;
export type EndpointChange = views.WebhookEndpointChange;
export type Attempt = views.WebhookAttempt;
