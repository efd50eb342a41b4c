/**
 * The EVM jobs as the tests over an anvil (startAnvilWithContracts) run them: the deposit poller's
 * scan and confirmation, the sweeper, the withdrawal sender and reconcile, each wired as its job
 * wires it, so the tests differ only in what they check and in the reads they add.
 */
import { bytesToHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { beforeAll } from 'vitest';
import type { EvmChain } from '#functions/networks/evm/evm-chain';
import { scanDeposits } from '#functions/deposits/deposit-scan';
import { confirmDeposits, releaseUnfrozen } from '#functions/deposits/deposit-confirmation';
import type { DepositHolds } from '#functions/deposits/deposit-chain';
import { DynamoDepositChainStore, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { screeningListOf } from '#adapters/dynamo/screening-store';
import type { EvmNetworkName } from '#functions/networks/evm/settings';
import { sweepEvmDepositAddresses, type EvmSweepDeps } from '#functions/networks/evm/sweeps';
import { returnUnfrozen } from '#functions/deposits/frozen-addresses';
import type { EvmSendingDeps } from '#functions/networks/evm/withdrawal-sending';
import { evmChainOf, evmChains, evmPayoutsOf, evmReconcileSources, evmSettingsOf } from '#functions/networks/evm/from-settings';
import { tokenStanding, usdtMayMove } from '#functions/networks/token-standing';
import { TEST_MNEMONIC_ACCOUNT_XPUB } from '#functions/networks/tron/tron-address';
import { SandboxChain } from '#functions/networks/tron/sandbox-chain';
import { reconcileHoldings, type HoldingsReconciliation } from '#functions/ledger/reconciliation';
import { ledgerSide } from '#adapters/dynamo/reconciliation-store';
import { LocalKeySigner } from '#adapters/signer/local-key-signer';
import { DynamoEvmSweepStore } from '#functions/networks/evm/sweep-store';
import { DynamoEvmSendingStore } from '#functions/networks/evm/sending-store';
import { localEvmSigner } from '#functions/networks/evm/signer';
import type { SliceSettings } from '#functions/settings/functions';
import { ANVIL_MNEMONIC, type LocalUsdtToken } from '#local/evm-contracts';
import type { TestTable } from './dynamo.ts';
import { usdt } from './money.ts';
import { anvilNetworkSettings, useAnvilWithContracts } from './anvil.ts';
import { BLOCK_MS, HOT_WALLET_KEY, USDT } from './sandbox-chain-jobs.ts';

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
  const signer = localEvmSigner(ANVIL_HOT_WALLET_KEY);
  const { usdtContract } = evmSettingsOf(network, settings);
  return {
    chain,
    payouts: evmPayoutsOf(network, settings, signer, chain),
    store: new DynamoEvmSendingStore(env.db, env.tableName, network),
    // As the job wires it (functions/networks/evm/jobs.ts).
    usdtMayMoveNow: async () => usdtMayMove(await tokenStanding(chain, usdtContract, await signer.address())),
  };
}

/**
 * The deposit poller's scan, confirmation and release of unfrozen deposits on one EVM network, as
 * deposit-poller.ts runs them: the network connected from the stage's settings, the scan from the
 * network's cursor (or the name it had before), a payment held while the issuer has frozen its
 * deposit address or the screening list names its payer (the test table holds the shipped OFAC
 * snapshot).
 */
export function evmDepositJobs(env: TestTable, network: EvmNetworkName, settings: SliceSettings<'chain'>) {
  const { chain, settings: chainSettings } = evmChains(network).connect(env.db, env.tableName, settings);
  const holds: DepositHolds = {
    frozenAddresses: (addresses) => chain.frozenAmong(chainSettings.usdtContract, addresses),
    sanctioned: (addresses) => screeningListOf(env.db, env.tableName).listed(network, addresses),
    usdtAt: (addresses) => chain.usdtBalances(chainSettings.usdtContract, addresses),
  };
  const deps = { network, chain, store: new DynamoDepositChainStore(env.db, env.tableName, network), usdtContract: chainSettings.usdtContract, holds };
  const cursor = new DynamoScanCursor(env.db, env.tableName, chainSettings.cursorName, chainSettings.previousCursorNames);
  return { scan: () => scanDeposits({ ...deps, cursor, owner: 'scanner' }), confirm: () => confirmDeposits(deps), release: () => releaseUnfrozen(deps) };
}

export type EvmDepositSettings = SliceSettings<'deposits'> & SliceSettings<'chain'>;

/** A stage's settings for deposits on these EVM networks, addresses derived from the test mnemonic. */
export const evmDepositSettings = (networks: EvmDepositSettings['EVM_NETWORKS']): EvmDepositSettings =>
  ({ DEPOSIT_ACCOUNT_XPUB: TEST_MNEMONIC_ACCOUNT_XPUB, DEPOSIT_REQUIRED_CONFIRMATIONS: 19, EVM_NETWORKS: networks }) as EvmDepositSettings;

/**
 * A test file's anvil for deposits on one EVM network (useAnvilWithContracts): once the node is up,
 * the stage's `settings` name it, final `confirmations` deep, and a first scan places the poller's
 * cursor at its head. A test may replace `settings`, as a stage that names another usdtContract.
 */
export function useEvmDepositAnvil(
  env: TestTable,
  network: EvmNetworkName,
  { chainId, usdtDecimals, confirmations, usdtToken }: { chainId: number; usdtDecimals: number; confirmations: number; usdtToken?: LocalUsdtToken },
) {
  const anvil = Object.assign(useAnvilWithContracts({ chainId, usdtDecimals, usdtToken }), { settings: undefined as unknown as EvmDepositSettings });
  const depositJobs = () => evmDepositJobs(env, network, anvil.settings);
  beforeAll(async () => {
    anvil.settings = evmDepositSettings({ [network]: anvilNetworkSettings(anvil.node, { chainId, confirmations }) });
    await depositJobs().scan();
  });
  /** The poller's runs that credit what was paid: a scan, `confirmations` blocks mined, a scan that
   * finds the payments final, and the confirmation. */
  const creditPaid = async () => {
    const jobs = depositJobs();
    await jobs.scan();
    await anvil.mine(confirmations);
    await jobs.scan();
    await jobs.confirm();
  };
  /** The sweeper as the job builds it, reading the issuer's freeze list at the stage's usdtContract. */
  const sweeper = (): EvmSweepDeps & { chain: EvmChain } => {
    const deps = evmSweeperDeps(env, network, anvil.settings);
    return { ...deps, frozenAmong: (addresses) => deps.chain.frozenAmong(anvil.settings.EVM_NETWORKS[network]!.usdtContract, addresses) };
  };
  /** `runs` sweeper runs as the job makes them (set-aside addresses unfrozen since go back on the
   * due list first), each mined final: what each run answered. */
  const sweepUntilSettled = async (runs = 4) => {
    const results = [];
    for (let run = 0; run < runs; run++) {
      const deps = sweeper();
      await returnUnfrozen(deps.store, deps.frozenAmong!, deps.usdtBalances);
      results.push(await sweepEvmDepositAddresses(deps));
      await anvil.mine(confirmations);
    }
    return results;
  };
  return Object.assign(anvil, { depositJobs, creditPaid, sweeper, sweepUntilSettled });
}

/**
 * Reconcile as the job runs it over a test's table: TRON on the table's sandbox chain, where these
 * tests move no money, and each EVM network in `hotWallets` on the node `settings` name for it.
 */
export function reconcileEvmNetworks(env: TestTable, settings: SliceSettings<'chain'>, hotWallets: Partial<Record<EvmNetworkName, string>>): Promise<HoldingsReconciliation> {
  const tron = new SandboxChain(env.db, env.tableName, { blockIntervalMs: BLOCK_MS, solidifyAfter: 19 });
  return reconcileHoldings({
    ledger: () => ledgerSide(env.db, env.tableName, 'unswept'),
    networks: [
      { network: 'tron', usdtBalances: (addresses) => tron.tokenBalances(USDT, addresses), receipt: (txHash) => tron.receipt(txHash), hotWalletAddress: () => new LocalKeySigner(HOT_WALLET_KEY).address() },
      ...(Object.entries(hotWallets) as [EvmNetworkName, string][]).map(([network, hotWallet]) => evmReconcileSources(network, settings, async () => hotWallet)),
    ],
  });
}
