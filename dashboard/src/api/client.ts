/**
 * The dashboard API, from the page. Tokens live in HttpOnly cookies the page cannot read; the
 * only cookie it reads is the CSRF token, which it echoes in X-CSRF-Token on every change.
 */
export interface ApiFailure {
  status: number;
  code: string;
  message: string;
  /** A list of field errors (VALIDATION_FAILED), or a refusal's facts: a duplicate's `existingId`,
   * LIMIT_REACHED's figures. */
  details: FieldError[] | Record<string, unknown> | null;
  /** Why a 403 refused: `SIGN_IN_AGAIN`, `TWO_FACTOR_REQUIRED`; null otherwise. */
  reason: string | null;
}

export interface FieldError {
  path: string;
  message: string;
}

export class ApiCallError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.message);
  }
}

/** Where the dashboard API answers: beside the app, on the same origin. */
export const API_BASE = '/dashboard/api';

/** The session's CSRF token: `__Host-cambio_csrf` over https, `cambio_csrf` on http://127.0.0.1
 * (functions/http/cookies.ts). */
function csrfToken(): string {
  const name = location.protocol === 'https:' ? '__Host-cambio_csrf=' : 'cambio_csrf=';
  return document.cookie.split('; ').find((c) => c.startsWith(name))?.slice(name.length) ?? '';
}

/** Asks the person for their password when a route wants a recent sign-in (functions/people/
 * step-up.ts): true once the session is signed in afresh (../components/confirm-identity.tsx). */
let confirmIdentity: (() => Promise<boolean>) | null = null;
export function whenIdentityNeeded(ask: () => Promise<boolean>): void {
  confirmIdentity = ask;
}

/** Called when the session cannot be renewed: the app shows Sign in. */
let onSignedOut: () => void = () => {};
export function whenSignedOut(callback: () => void): void {
  onSignedOut = callback;
}

/**
 * The routes anyone may call (functions/routes.ts, `public`), and `Confirm it's you`: what they
 * answer 401 is their own refusal (a wrong password at sign-in, on accepting an invitation), not the
 * session authorizer's, so a renewed session would only send the password again and count a
 * second failure toward the sign-in limits.
 */
const ANSWERED_WITHOUT_SESSION = ['/stage', '/sign-up', '/session', '/invitations/accept', '/password-reset'];
const sessionGuarded = (path: string) => !ANSWERED_WITHOUT_SESSION.some((route) => path === route || path.startsWith(`${route}/`) || path.startsWith(`${route}?`));

export async function send<T>(method: string, path: string, body?: unknown, retried = false): Promise<{ data: T; pagination?: { nextCursor: string | null } }> {
  const response = await fetch(API_BASE + path, {
    method,
    credentials: 'same-origin',
    headers: { ...(body !== undefined && { 'Content-Type': 'application/json' }), ...(method !== 'GET' && { 'X-CSRF-Token': csrfToken() }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = (await response.json().catch(() => null)) as { success: boolean; data: T; pagination?: { nextCursor: string | null }; error?: Omit<ApiFailure, 'status'> } | null;
  // Refused by the session authorizer: asked once whether the session still lives (the server renews its own tokens), then tried again; else signed out.
  if (response.status === 401 && !retried && sessionGuarded(path)) {
    const refreshed = await fetch(`${API_BASE}/session/refresh`, { method: 'POST', credentials: 'same-origin', headers: { 'X-CSRF-Token': csrfToken() } });
    if (refreshed.ok) return send(method, path, body, true);
    onSignedOut();
  }
  // Issuing a key or inviting someone wants the password of the last minutes: asked, then sent again.
  const reason = (payload?.error?.details as { reason?: string } | null | undefined)?.reason;
  if (response.status === 403 && reason === 'SIGN_IN_AGAIN' && !retried && confirmIdentity && (await confirmIdentity())) return send(method, path, body, true);
  if (!response.ok || !payload?.success) {
    throw new ApiCallError({ status: response.status, code: payload?.error?.code ?? 'INTERNAL_ERROR', message: payload?.error?.message ?? 'Something went wrong', details: payload?.error?.details ?? null, reason: reason ?? null });
  }
  return { data: payload.data, pagination: payload.pagination };
}
