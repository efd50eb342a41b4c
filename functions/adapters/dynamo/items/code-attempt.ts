import { CODE_LOCK_SECONDS, USED_CODE_SECONDS } from '#functions/people/code-attempts';
import { globalRecord, type Item } from './item.ts';

/** A person's authenticator codes, under their normalised sign-in email (the one key every place a
 * code is checked has before it is checked): `SIGN_IN_CODES#<email>`. */
const partition = (email: string) => `SIGN_IN_CODES#${email}`;
const ttlAfter = (at: Date, seconds: number) => Math.floor(at.getTime() / 1000) + seconds + 60 * 60;

/**
 * The one owner of a person's stored `CodeAttempts` (functions/people/code-attempts.ts): `attempts`
 * counted since the count last started, and `lastAttemptAt`, when the last was counted. Updated in
 * place by conditional writes only (../code-attempt-store.ts); TTL removes it an hour after its lock
 * could have ended.
 */
export const codeAttemptsItem = {
  ...globalRecord('CodeAttempts', 'SIGN_IN_CODES', 'ATTEMPTS'),
  ttl: (now: Date) => ttlAfter(now, CODE_LOCK_SECONDS),
  lastAttemptAt: (item: Item | null): Date | null => (typeof item?.lastAttemptAt === 'string' ? new Date(item.lastAttemptAt) : null),
};

/**
 * The one owner of a stored `UsedCode`: a code the person gave, by its digits, and `usedAt`. A code
 * claimed again before it could have stopped working is refused; TTL removes it an hour after.
 */
export const usedCodeItem = {
  type: 'UsedCode',
  key: (email: string, code: string) => ({ PK: partition(email), SK: `USED#${code}` }),
  toItem: (email: string, code: string, usedAt: Date): Item => ({ ...usedCodeItem.key(email, code), type: usedCodeItem.type, usedAt: usedAt.toISOString(), ttl: ttlAfter(usedAt, USED_CODE_SECONDS) }),
};
