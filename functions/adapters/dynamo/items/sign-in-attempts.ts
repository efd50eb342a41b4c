import type { AccountAttempts, SourceAttempts } from '#functions/people/sign-in-limits';
import { toBigInt } from '../client.ts';
import type { Item } from './item.ts';

/**
 * The one owner of the stored sign-in counts (functions/people/sign-in-limits.ts): in the partition
 * of a hash of the normalised email, which exists as much for an address with no account as for
 * one with, the account's count (`ACCOUNT`) and each source's (`SOURCE#<hash of the IP>`). TTL
 * removes them a day after they last mattered.
 */
const partition = (account: string) => `SIGN_IN#${account}`;
const DAY_SECONDS = 86_400;
const ttlAfter = (iso: string) => Math.floor(Date.parse(iso) / 1000) + DAY_SECONDS;

export const signInAccountItem = {
  type: 'SignInAccountAttempts',
  key: (account: string) => ({ PK: partition(account), SK: 'ACCOUNT' }),
  toItem: (account: string, attempts: AccountAttempts): Item => ({
    ...signInAccountItem.key(account),
    type: signInAccountItem.type,
    ...attempts,
    ttl: ttlAfter(attempts.lastFailureAt),
  }),
  fromItem: (item: Item): AccountAttempts => ({
    failures: Number(toBigInt(item.failures)),
    lastFailureAt: item.lastFailureAt as string,
    version: Number(toBigInt(item.version)),
  }),
};

export const signInSourceItem = {
  type: 'SignInSourceAttempts',
  key: (account: string, source: string) => ({ PK: partition(account), SK: `SOURCE#${source}` }),
  toItem: (account: string, source: string, attempts: SourceAttempts): Item => ({
    ...signInSourceItem.key(account, source),
    type: signInSourceItem.type,
    ...attempts,
    ttl: signInSourceItem.ttlOf(attempts.knownUntil && attempts.knownUntil > attempts.windowEndsAt ? attempts.knownUntil : attempts.windowEndsAt),
  }),
  /** A day after the later of its window's end and the time the source stops being known. */
  ttlOf: ttlAfter,
  fromItem: (item: Item): SourceAttempts => ({
    failures: Number(toBigInt(item.failures)),
    windowEndsAt: item.windowEndsAt as string,
    knownUntil: (item.knownUntil as string | null | undefined) ?? null,
    version: Number(toBigInt(item.version)),
  }),
};
