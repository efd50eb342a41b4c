import { createHmac, timingSafeEqual } from 'node:crypto';
import { base32 } from '@scure/base';

/**
 * Time-based one-time passwords (RFC 6238: HMAC-SHA1, 30 s steps, 6 digits), as authenticator
 * apps and Cognito's SOFTWARE_TOKEN_MFA compute them. Cognito checks codes in AWS; this is for the
 * local emulator (local/cognito-emulator.ts) and for tests, which play the authenticator app.
 * Secrets are base32 (RFC 4648), as Cognito's AssociateSoftwareToken hands them out.
 */
const STEP_SECONDS = 30;
const DIGITS = 6;

export function totpCode(secret: string, atMs = Date.now()): string {
  return codeAtStep(base32.decode(secret), Math.floor(atMs / 1000 / STEP_SECONDS));
}

/** A code of the current step or either neighbour, so a clock a few seconds off still works. */
export function totpMatches(secret: string, code: string, atMs = Date.now()): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  const key = base32.decode(secret);
  const step = Math.floor(atMs / 1000 / STEP_SECONDS);
  return [step - 1, step, step + 1].some((candidate) => timingSafeEqual(Buffer.from(codeAtStep(key, candidate)), Buffer.from(code)));
}

function codeAtStep(key: Uint8Array, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac('sha1', key).update(counter).digest();
  // RFC 4226 dynamic truncation.
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** DIGITS).padStart(DIGITS, '0');
}
