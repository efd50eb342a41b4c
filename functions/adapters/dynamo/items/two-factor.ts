import type { TwoFactorRequirement } from '#functions/people/two-factor';
import { companySetting, personRecord, type Item } from './item.ts';

/**
 * The one owner of a company's stored `TwoFactorRequirement` (Team → Two-factor sign-in); absent,
 * it is not required. Read with the membership on every company call.
 */
export const twoFactorRequirementItem = {
  ...companySetting('TwoFactorRequirement', 'TWO_FACTOR_REQUIREMENT'),
  toItem: (companyId: string, requirement: TwoFactorRequirement): Item => ({ ...twoFactorRequirementItem.head(companyId), ...requirement }),
  fromItem: (item: Item | null | undefined): TwoFactorRequirement => ({
    required: item?.required === true,
    changedAt: (item?.changedAt as string | undefined) ?? null,
  }),
};

/**
 * The one owner of a person's `TwoFactorMark`: that they have turned two-factor sign-in on (or signed
 * in with a code since), written then. Cognito holds the truth, but asking it on every company call
 * would cost a round trip; a person Cognito has it on for, with no mark, is marked at their next
 * sign-in with a code.
 */
export const twoFactorMarkItem = {
  ...personRecord('TwoFactorMark', 'TWO_FACTOR'),
  /** Written whole when it is turned on, so a replacement begun before (`replacementBegunAt`) is spent. */
  toItem: (personId: string, since: string): Item => ({ ...twoFactorMarkItem.head(personId), personId, since }),
  /** When the person, having proved it is them, began replacing their app (two-factor.ts
   * startTwoFactorSetup): a confirm of a replacement needs it. Marks them on if they were not marked. */
  replacementBegun: (personId: string, at: string) => ({
    Key: twoFactorMarkItem.key(personId),
    UpdateExpression: 'SET #type = :type, personId = :personId, since = if_not_exists(since, :at), replacementBegunAt = :at',
    ExpressionAttributeNames: { '#type': 'type' },
    ExpressionAttributeValues: { ':type': 'TwoFactorMark', ':personId': personId, ':at': at },
  }),
  replacementBegunAt: (item: Item | null): string | null => (typeof item?.replacementBegunAt === 'string' ? item.replacementBegunAt : null),
};
