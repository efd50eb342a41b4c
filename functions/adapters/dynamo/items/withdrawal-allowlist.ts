import type { AllowedAddress, WithdrawalAllowlist } from '#functions/withdrawals/withdrawal-policy';
import { ALLOWLIST_OFF } from '#functions/withdrawals/withdrawal-policy';
import { companyRecord, companySetting, storedFields, type Item } from './item.ts';

/**
 * The one owner of a company's stored `WithdrawalAllowlist` (its switch and its address count) and
 * its `WithdrawalAddress`es (docs/data-model.md), all in the company's partition, so one query
 * reads the page's list and one BatchGet what a withdrawal checks. A company that never used the
 * allowlist has no item: it reads as off.
 */
export const withdrawalAllowlistItem = {
  ...companySetting('WithdrawalAllowlist', 'WITHDRAWAL_ALLOWLIST'),
  fromItem: (item: Item | null): WithdrawalAllowlist =>
    item
      ? { enabled: item.enabled === true, offFrom: (item.offFrom as string | null | undefined) ?? null, addressCount: Number(item.addressCount ?? 0) }
      : ALLOWLIST_OFF,
};

/** `key(companyId, address)`: one item an address, so a withdrawal's transaction can check it. */
export const allowedAddressItem = {
  ...companyRecord('WithdrawalAddress', 'WITHDRAWAL_ADDRESS#'),
  toItem: (entry: AllowedAddress): Item => ({ ...allowedAddressItem.head(entry.companyId, entry.address), ...entry }),
  fromItem: (item: Item): AllowedAddress => storedFields<AllowedAddress>(item, ['companyId', 'address', 'label', 'addedBy', 'createdAt', 'activeFrom']),
};
