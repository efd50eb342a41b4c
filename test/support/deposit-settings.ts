import { STAGES } from '../../config/stages.ts';
import { depositSettingsFrom } from '#adapters/deposit-settings';
import { TEST_MNEMONIC_ACCOUNT_XPUB } from '#functions/networks/tron/tron-address';
import type { EvmNetworkSettings } from '#functions/networks/evm/settings';

/** Deposit terms as a stage that opens TRON alone gives them: addresses under the test mnemonic's
 * account xpub, 19 confirmations. */
export const TRON_DEPOSIT_SETTINGS = depositSettingsFrom({
  DEPOSIT_ACCOUNT_XPUB: TEST_MNEMONIC_ACCOUNT_XPUB,
  DEPOSIT_REQUIRED_CONFIRMATIONS: 19,
  EVM_NETWORKS: {},
  SOLANA: undefined,
  USDT_CONTRACT: STAGES.local.functionEnvironment.USDT_CONTRACT,
});

/** Ethereum as a stage opens it, with mainnet's USDT and any valid factory addresses, and a node
 * URL that leads nowhere: for tests that never read the chain. */
export const ETHEREUM_WITHOUT_NODE: EvmNetworkSettings = {
  chainId: 1,
  rpcUrl: 'http://127.0.0.1:9',
  usdtContract: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
  forwarderFactory: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  forwarderImplementation: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
  finalizedTag: true,
  confirmations: 12,
  maxBlockRange: 1_000,
  scanEveryMinutes: 1,
  sweepBatchSize: 100,
  sandbox: false,
};

/** Deposit terms as a stage that opens TRON and Ethereum gives them. Ethereum's contracts are any
 * valid addresses: a deposit's address is computed from them offline, and nothing here reads the
 * chain (rendering and filtering need no node). */
export const TRON_AND_ETHEREUM_DEPOSIT_SETTINGS = depositSettingsFrom({
  DEPOSIT_ACCOUNT_XPUB: TEST_MNEMONIC_ACCOUNT_XPUB,
  DEPOSIT_REQUIRED_CONFIRMATIONS: 19,
  EVM_NETWORKS: { ethereum: ETHEREUM_WITHOUT_NODE },
  SOLANA: undefined,
  USDT_CONTRACT: STAGES.local.functionEnvironment.USDT_CONTRACT,
});
