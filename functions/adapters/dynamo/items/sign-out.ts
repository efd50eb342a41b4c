import { LONGEST_SESSION_SECONDS, type SignOut } from '#functions/people/sign-outs';
import { personRecord, type Item } from './item.ts';

/**
 * The one owner of a stored `SignOut` (docs/data-model.md): a person's latest sign-out, in their
 * own partition, read by the session authorizer on every request. It matters only while sessions
 * opened before it could still be alive, so TTL removes it after the longest session (and an hour).
 */
export const signOutItem = {
  ...personRecord('SignOut', 'SIGNED_OUT'),
  toItem: (signOut: SignOut): Item => ({
    ...signOutItem.head(signOut.personId),
    personId: signOut.personId,
    signedOutAt: signOut.at,
    originJti: signOut.originJti,
    ttl: Math.floor(Date.parse(signOut.at) / 1000) + LONGEST_SESSION_SECONDS + 60 * 60,
  }),
  fromItem: (item: Item): SignOut => ({ personId: item.personId as string, at: item.signedOutAt as string, originJti: (item.originJti as string | null) ?? null }),
};
