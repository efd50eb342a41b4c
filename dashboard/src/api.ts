/**
 * The dashboard API, from the page. Tokens live in HttpOnly cookies the page cannot read; the
 * only cookie it reads is the CSRF token, which it echoes in X-CSRF-Token on every change.
 */
export interface ApiFailure {
  status: number;
  code: string;
  message: string;
  details: { path: string; message: string }[] | null;
  /** Why a 403 refused: `SIGN_IN_AGAIN`, `TWO_FACTOR_REQUIRED`; null otherwise. */
  reason: string | null;
}

export class ApiCallError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.message);
  }
}

export type Environment = 'sandbox' | 'production';
export type Role = 'Owner' | 'Admin' | 'Developer' | 'Viewer';

export interface Me {
  personId: string;
  email: string | null;
  companies: { id: string; name: string; environment: Environment; role: Role }[];
}

export interface Overview {
  company: { id: string; name: string; environment: Environment; createdAt: string };
  balance: { balances: { currency: string; available: string; pending: string; locked: string }[]; updatedAt: string };
  role: Role;
}

export interface ApiKey {
  keyId: string;
  name: string;
  status: 'active' | 'revoked';
  /** `read`: the key may only GET (a reporting job's); `full`: every route. */
  access: 'full' | 'read';
  /** Only these addresses or CIDR blocks may use the key; null for any. */
  allowedIps: string[] | null;
  createdAt: string;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  revokedAt: string | null;
  previousSecretExpiresAt: string | null;
}

export interface IssuedKey {
  key: ApiKey;
  apiKey: string;
  apiSecret: string;
}

export interface AuditEntry {
  id: string;
  action: string;
  actor: { personId: string | null; email: string | null };
  target: string | null;
  details: Record<string, string> | null;
  sourceIp: string;
  userAgent: string | null;
  createdAt: string;
}

export interface Member {
  personId: string;
  email: string;
  role: Role;
  createdAt: string;
  /** Has turned two-factor sign-in on. */
  twoFactorOn: boolean;
}

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
}

export interface Team {
  members: Member[];
  invitations: Invitation[];
  /** The company requires two-factor sign-in of every member. */
  twoFactorRequired: boolean;
}

/** An address on the withdrawal allowlist; withdrawals to it are accepted from `activeFrom`. */
export interface AllowedAddress {
  address: string;
  label: string;
  addedBy: string | null;
  createdAt: string;
  activeFrom: string;
  active: boolean;
}

/** Integrations → Daily withdrawal limit (docs/dashboard-api.md): USDT decimal strings, null for none. */
export interface WithdrawalLimit {
  dailyLimit: string | null;
  /** A raise or a removal waiting for its time. */
  pending: { dailyLimit: string | null; from: string } | null;
  /** Counted toward the limit today; null without a limit. */
  sentToday: string | null;
  delayHours: number;
}

export interface WithdrawalAllowlist {
  enabled: boolean;
  /** A requested turn-off still ahead: the list holds until then. */
  turnsOffAt: string | null;
  delayHours: number;
  addresses: AllowedAddress[];
  limit: number;
}

const BASE = '/dashboard/api';

/** The session's CSRF token: `__Host-cambio_csrf` over https, `cambio_csrf` on http://127.0.0.1
 * (functions/http/cookies.ts). */
function csrfToken(): string {
  const name = location.protocol === 'https:' ? '__Host-cambio_csrf=' : 'cambio_csrf=';
  return document.cookie.split('; ').find((c) => c.startsWith(name))?.slice(name.length) ?? '';
}

/** Asks the person for their password when a route wants a recent sign-in (functions/people/
 * step-up.ts): true once the session is signed in afresh (confirm-identity.tsx). */
let confirmIdentity: (() => Promise<boolean>) | null = null;
export function whenIdentityNeeded(ask: () => Promise<boolean>): void {
  confirmIdentity = ask;
}

/** Called when the session cannot be renewed: the app shows Sign in. */
let onSignedOut: () => void = () => {};
export function whenSignedOut(callback: () => void): void {
  onSignedOut = callback;
}

export async function send<T>(method: string, path: string, body?: unknown, retried = false): Promise<{ data: T; pagination?: { nextCursor: string | null } }> {
  const response = await fetch(BASE + path, {
    method,
    credentials: 'same-origin',
    headers: { ...(body !== undefined && { 'Content-Type': 'application/json' }), ...(method !== 'GET' && { 'X-CSRF-Token': csrfToken() }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = (await response.json().catch(() => null)) as { success: boolean; data: T; pagination?: { nextCursor: string | null }; error?: Omit<ApiFailure, 'status'> } | null;
  // An expired access token: renew it once from the refresh cookie, then try again.
  if (response.status === 401 && !retried && !path.startsWith('/session') && !path.startsWith('/sign-up')) {
    const refreshed = await fetch(`${BASE}/session/refresh`, { method: 'POST', credentials: 'same-origin', headers: { 'X-CSRF-Token': csrfToken() } });
    if (refreshed.ok) return send(method, path, body, true);
    onSignedOut();
  }
  // Issuing a key or inviting someone wants the password of the last minutes: asked, then sent again.
  const reason = (payload?.error?.details as { reason?: string } | null | undefined)?.reason;
  if (response.status === 403 && reason === 'SIGN_IN_AGAIN' && !retried && confirmIdentity && (await confirmIdentity())) return send(method, path, body, true);
  if (!response.ok || !payload?.success) {
    // Only a list of field errors is shown field by field; other details (LIMIT_REACHED's figures,
    // a duplicate's id, a refusal's reason) are in the message already.
    const details = payload?.error?.details;
    throw new ApiCallError({ status: response.status, code: payload?.error?.code ?? 'INTERNAL_ERROR', message: payload?.error?.message ?? 'Something went wrong', details: Array.isArray(details) ? details : null, reason: reason ?? null });
  }
  return { data: payload.data, pagination: payload.pagination };
}

export const api = {
  /** What the signed-out pages offer on this stage (functions/handlers/dashboard/get-stage.ts). */
  stage: () => send<{ environment: 'sandbox' | 'production'; selfSignUp: boolean; passwordResetByMail: boolean }>('GET', '/stage'),
  signUp: (input: { companyName: string; email: string; password: string }) => send<{ checkYourMail: true }>('POST', '/sign-up', input),
  resendSignUpLink: (input: { email: string }) => send<{ checkYourMail: true }>('POST', '/sign-up/resend', input),
  verifyEmail: (input: { token: string; password: string }) => send<{ signedIn: true }>('POST', '/sign-up/verify', input),
  signIn: (input: { email: string; password: string }) => send<{ signedIn: boolean; twoFactorRequired?: true }>('POST', '/session', input),
  signInCode: (code: string) => send<{ signedIn: true }>('POST', '/session/two-factor', { code }),
  twoFactor: () => send<{ enabled: boolean }>('GET', '/me/two-factor'),
  startTwoFactorSetup: () => send<{ secret: string; uri: string }>('POST', '/me/two-factor/setup', {}),
  confirmTwoFactor: (code: string) => send<{ enabled: true }>('POST', '/me/two-factor/confirm', { code }),
  turnOffTwoFactor: (proof: { password: string; code?: string }) => send<{ enabled: false }>('POST', '/me/two-factor/turn-off', proof),
  signOut: () => send<{ signedOut: true }>('DELETE', '/session'),
  confirmSession: (proof: { password: string; code?: string }) => send<{ confirmed: true }>('POST', '/session/confirm', proof),
  acceptInvitation: (input: { token: string; password: string }) => send<{ signedIn: true }>('POST', '/invitations/accept', input),
  requestPasswordReset: (input: { email: string }) => send<{ requested: true }>('POST', '/password-reset', input),
  resetPassword: (input: { token: string; password: string }) => send<{ reset: true }>('POST', '/password-reset/confirm', input),
  changePassword: (input: { currentPassword: string; newPassword: string }) => send<{ changed: true }>('POST', '/me/password', input),
  /** `Download statement`'s address: streamed by the server (functions/handlers/dashboard/download-statement.ts), saved by the browser as it arrives. */
  statementUrl: (companyId: string, period: { from: string; to: string }) => `${BASE}/companies/${companyId}/statement?${new URLSearchParams(period).toString()}`,
  me: () => send<Me>('GET', '/me'),
  overview: (companyId: string) => send<Overview>('GET', `/companies/${companyId}`),
  apiKeys: (companyId: string) => send<ApiKey[]>('GET', `/companies/${companyId}/api-keys`),
  createApiKey: (companyId: string, key: { name: string; access: ApiKey['access']; allowedIps: string[] }) => send<IssuedKey>('POST', `/companies/${companyId}/api-keys`, key),
  rollApiKey: (companyId: string, keyId: string, oldSecretValidFor: string) =>
    send<IssuedKey>('POST', `/companies/${companyId}/api-keys/${encodeURIComponent(keyId)}/roll`, { oldSecretValidFor }),
  revokeApiKey: (companyId: string, keyId: string) => send<ApiKey>('POST', `/companies/${companyId}/api-keys/${encodeURIComponent(keyId)}/revoke`, {}),
  changeAllowedIps: (companyId: string, keyId: string, allowedIps: string[]) =>
    send<ApiKey>('PUT', `/companies/${companyId}/api-keys/${encodeURIComponent(keyId)}/allowed-ips`, { allowedIps }),
  team: (companyId: string) => send<Team>('GET', `/companies/${companyId}/team`),
  inviteMember: (companyId: string, input: { email: string; role: Role }) =>
    send<{ token: string; email: string; role: Role; expiresAt: string; emailed: boolean }>('POST', `/companies/${companyId}/team/invitations`, input),
  changeRole: (companyId: string, personId: string, role: Role) => send<Member>('PUT', `/companies/${companyId}/team/members/${encodeURIComponent(personId)}`, { role }),
  revokeInvitation: (companyId: string, invitationId: string) => send<{ revoked: true }>('DELETE', `/companies/${companyId}/team/invitations/${invitationId}`),
  resendInvitation: (companyId: string, invitationId: string) =>
    send<{ token: string; email: string; role: Role; expiresAt: string; emailed: boolean }>('POST', `/companies/${companyId}/team/invitations/${invitationId}/resend`, {}),
  changeTwoFactorRequirement: (companyId: string, required: boolean) => send<{ required: boolean; changedAt: string }>('PUT', `/companies/${companyId}/two-factor-requirement`, { required }),
  removeMember: (companyId: string, personId: string) => send<{ removed: true }>('DELETE', `/companies/${companyId}/team/members/${encodeURIComponent(personId)}`),
  withdrawalAllowlist: (companyId: string) => send<WithdrawalAllowlist>('GET', `/companies/${companyId}/withdrawal-allowlist`),
  withdrawalLimit: (companyId: string) => send<WithdrawalLimit>('GET', `/companies/${companyId}/withdrawal-limit`),
  changeWithdrawalLimit: (companyId: string, dailyLimit: string | null) => send<WithdrawalLimit>('PUT', `/companies/${companyId}/withdrawal-limit`, { dailyLimit }),
  switchWithdrawalAllowlist: (companyId: string, enabled: boolean) => send<WithdrawalAllowlist>('PUT', `/companies/${companyId}/withdrawal-allowlist`, { enabled }),
  addWithdrawalAddress: (companyId: string, input: { address: string; label: string }) => send<AllowedAddress>('POST', `/companies/${companyId}/withdrawal-allowlist/addresses`, input),
  removeWithdrawalAddress: (companyId: string, address: string) =>
    send<{ removed: true }>('DELETE', `/companies/${companyId}/withdrawal-allowlist/addresses/${encodeURIComponent(address)}`),
  auditLog: (companyId: string, cursor?: string) =>
    send<AuditEntry[]>('GET', `/companies/${companyId}/audit-log${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`),
};
