/**
 * The EVM jobs as the tests over an anvil (startAnvilWithContracts) run them: the deposit poller's
 * scan and confirmation, the sweeper and the withdrawal sender, each wired as its job wires it, so the
 * tests differ only in what they check and in the reads they add.
 */
import { bytesToHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import type { EvmChain } from '#functions/networks/evm/evm-chain';
import { scanDeposits } from '#functions/deposits/deposit-scan';
import { confirmDeposits } from '#functions/deposits/deposit-confirmation';
import { DynamoDepositChainStore, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import type { EvmNetworkName } from '#functions/networks/evm/settings';
import type { EvmSweepDeps } from '#functions/networks/evm/sweeps';
import type { EvmSendingDeps } from '#functions/networks/evm/withdrawal-sending';
import { evmChainOf, evmChains, evmPayoutsOf } from '#functions/networks/evm/from-settings';
import { DynamoEvmSweepStore } from '#functions/networks/evm/sweep-store';
import { DynamoEvmSendingStore } from '#functions/networks/evm/sending-store';
import { localEvmSigner } from '#functions/networks/evm/signer';
import type { SliceSettings } from '#functions/settings/functions';
import { ANVIL_MNEMONIC } from '#local/evm-contracts';
import type { TestTable } from './dynamo.ts';
import { usdt } from './money.ts';

/** Anvil's second account's private key (hex, no 0x): the forwarder factory's owner, the hot wallet
 * of startAnvilWithContracts (local/evm-contracts.ts anvilAccount.hotWallet). */
export const ANVIL_HOT_WALLET_KEY = bytesToHex(mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 1 }).getHdKey().privateKey!).slice(2);

/**
 * The deposit sweeper's dependencies for one EVM network of a test's anvil, wired as the job wires
 * them (functions/networks/evm/jobs.ts): the hot wallet signs, so sweeps take nonces from the sequence
 * its withdrawals use, and USDT is read at the stage's usdtContract. The minimums are fixed (1 USDT,
 * 0.001 of the native coin) where the job reads the stage's, so the tests' amounts stay plain. What a
 * test's sweep reads beyond USDT (native coin, the issuer's freeze list) the test adds over this, through
 * the returned `chain`, where a reader sees it. Built afresh on each call, as a job's run reads settings.
 */
export function evmSweeperDeps(env: TestTable, network: EvmNetworkName, settings: SliceSettings<'chain'>, { batchSize = 100 } = {}): EvmSweepDeps & { chain: EvmChain } {
  const chain = evmChainOf(network, settings);
  const usdtContract = settings.EVM_NETWORKS[network]!.usdtContract;
  return {
    network,
    chain,
    payouts: evmPayoutsOf(network, settings, localEvmSigner(ANVIL_HOT_WALLET_KEY), chain),
    store: new DynamoEvmSweepStore(env.db, env.tableName, network),
    usdtBalances: (addresses) => chain.usdtBalances(usdtContract, addresses),
    settings: { minimumSweep: usdt('1'), minimumNative: 10n ** 15n, batchSize },
  };
}

/**
 * The withdrawal sender's dependencies for one EVM network of a test's anvil, signing with the same
 * hot wallet as evmSweeperDeps (the two share its nonce sequence); without the job's float check and
 * with the default replacement time.
 */
export function evmSenderDeps(env: TestTable, network: EvmNetworkName, settings: SliceSettings<'chain'>): EvmSendingDeps & { chain: EvmChain } {
  const chain = evmChainOf(network, settings);
  return { chain, payouts: evmPayoutsOf(network, settings, localEvmSigner(ANVIL_HOT_WALLET_KEY), chain), store: new DynamoEvmSendingStore(env.db, env.tableName, network) };
}

/**
 * The deposit poller's scan and confirmation on one EVM network, as deposit-poller.ts runs them:
 * the network connected from the stage's settings, the scan from the network's cursor.
 */
export function evmDepositJobs(env: TestTable, network: EvmNetworkName, settings: SliceSettings<'chain'>) {
  const { chain, settings: chainSettings } = evmChains(network).connect(env.db, env.tableName, settings);
  const deps = { network, chain, store: new DynamoDepositChainStore(env.db, env.tableName, network), usdtContract: chainSettings.usdtContract };
  return { scan: () => scanDeposits({ ...deps, cursor: new DynamoScanCursor(env.db, env.tableName, chainSettings.cursorName), owner: 'scanner' }), confirm: () => confirmDeposits(deps) };
}
