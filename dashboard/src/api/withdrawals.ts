import { send } from './client.ts';
import type { Acknowledged, AddWithdrawalAddressRequest, AllowedAddress, SendWithdrawalRequest, WithdrawalAllowlist, WithdrawalLimit, WithdrawalSent } from './types.ts';

/** Withdrawals from the dashboard, and the daily limit and address allowlist that guard them. */
export const withdrawalsApi = {
  withdrawalAllowlist: (companyId: string) => send<WithdrawalAllowlist>('GET', `/companies/${companyId}/withdrawal-allowlist`),
  withdrawalLimit: (companyId: string) => send<WithdrawalLimit>('GET', `/companies/${companyId}/withdrawal-limit`),
  changeWithdrawalLimit: (companyId: string, dailyLimit: string | null) => send<WithdrawalLimit>('PUT', `/companies/${companyId}/withdrawal-limit`, { dailyLimit }),
  switchWithdrawalAllowlist: (companyId: string, enabled: boolean) => send<WithdrawalAllowlist>('PUT', `/companies/${companyId}/withdrawal-allowlist`, { enabled }),
  addWithdrawalAddress: (companyId: string, input: AddWithdrawalAddressRequest) => send<AllowedAddress>('POST', `/companies/${companyId}/withdrawal-allowlist/addresses`, input),
  /** `network` null: an entry added before entries named a network. */
  removeWithdrawalAddress: (companyId: string, network: string | null, address: string) =>
    send<Acknowledged<'removed'>>('DELETE', `/companies/${companyId}/withdrawal-allowlist/addresses/${encodeURIComponent(address)}${network ? `?network=${encodeURIComponent(network)}` : ''}`),
  sendWithdrawal: (companyId: string, withdrawal: SendWithdrawalRequest) => send<WithdrawalSent>('POST', `/companies/${companyId}/withdrawals`, withdrawal),
};
