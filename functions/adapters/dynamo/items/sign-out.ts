import { LONGEST_ACCESS_TOKEN_SECONDS, type SignOut } from '#functions/people/sign-outs';
import { personRecord, type Item } from './item.ts';

/**
 * The one owner of a stored `SignOut` (docs/data-model.md): a person's latest sign-out, in their
 * own partition, read by the session authorizer on each of its cache misses. It matters only while
 * access tokens from before it could still be alive, so TTL removes it after the longest validity
 * (and an hour).
 */
export const signOutItem = {
  ...personRecord('SignOut', 'SIGNED_OUT'),
  toItem: (signOut: SignOut): Item => ({
    ...signOutItem.head(signOut.personId),
    personId: signOut.personId,
    signedOutAt: signOut.at,
    originJti: signOut.originJti,
    ttl: Math.floor(Date.parse(signOut.at) / 1000) + LONGEST_ACCESS_TOKEN_SECONDS + 60 * 60,
  }),
  fromItem: (item: Item): SignOut => ({ personId: item.personId as string, at: item.signedOutAt as string, originJti: (item.originJti as string | null) ?? null }),
};
