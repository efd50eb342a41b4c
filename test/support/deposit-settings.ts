import { depositSettingsFrom } from '#adapters/deposit-settings';
import { TEST_MNEMONIC_ACCOUNT_XPUB } from '#functions/networks/tron/tron-address';

/** Deposit terms as a stage that opens TRON alone gives them: addresses under the test mnemonic's
 * account xpub, 19 confirmations. */
export const TRON_DEPOSIT_SETTINGS = depositSettingsFrom({
  DEPOSIT_ACCOUNT_XPUB: TEST_MNEMONIC_ACCOUNT_XPUB,
  DEPOSIT_REQUIRED_CONFIRMATIONS: 19,
  EVM_NETWORKS: {},
});
