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

export async function send<T>(method: string, path: string, body?: unknown, retried = false): Promise<{ data: T; pagination?: { nextCursor: string | null } }> {
  const response = await fetch(API_BASE + path, {
    method,
    credentials: 'same-origin',
    headers: { ...(body !== undefined && { 'Content-Type': 'application/json' }), ...(method !== 'GET' && { 'X-CSRF-Token': csrfToken() }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = (await response.json().catch(() => null)) as { success: boolean; data: T; pagination?: { nextCursor: string | null }; error?: Omit<ApiFailure, 'status'> } | null;
  // Refused: asked once whether the session still lives (the server renews its own tokens), then tried again; else signed out.
  if (response.status === 401 && !retried && !path.startsWith('/session') && !path.startsWith('/sign-up')) {
    const refreshed = await fetch(`${API_BASE}/session/refresh`, { method: 'POST', credentials: 'same-origin', headers: { 'X-CSRF-Token': csrfToken() } });
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
