import type { AllowedAddress, WithdrawalAllowlist } from '#functions/withdrawals/withdrawal-policy';
import { ALLOWLIST_OFF } from '#functions/withdrawals/withdrawal-policy';
import type { NetworkName } from '#functions/networks/names';
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

const address = companyRecord('WithdrawalAddress', 'WITHDRAWAL_ADDRESS#');

/**
 * `entryKey(companyId, network, address)`: one item per network and address (`<network>#<address>`,
 * the address in the network's canonical form, so its letter cases are one entry), so a withdrawal's
 * transaction can check it. An entry added before entries named a network has none (`network`
 * absent, read as null) and is keyed by its address alone, as it was added: withdrawal-policy.ts
 * `allowsOn` says which network it allows (docs/dashboard-api.md, Withdrawal allowlist).
 */
export const allowedAddressItem = {
  type: address.type,
  ofCompany: address.ofCompany,
  isOne: address.isOne,
  entryKey: (companyId: string, network: NetworkName | null, entry: string) => address.key(companyId, network === null ? entry : `${network}#${entry}`),
  toItem: (entry: AllowedAddress): Item => ({ ...allowedAddressItem.entryKey(entry.companyId, entry.network, entry.address), type: address.type, ...entry }),
  fromItem: (item: Item): AllowedAddress => storedFields<AllowedAddress>(item, ['companyId', 'network', 'address', 'label', 'addedBy', 'createdAt', 'activeFrom']),
};
