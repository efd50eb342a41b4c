import { Duration, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { Key, KeySpec, KeyUsage, type KeyProps } from 'aws-cdk-lib/aws-kms';
import * as v from 'valibot';
import { JOBS } from '../functions/routes.ts';
import { EVM_NETWORK_NAMES, EVM_STAGE_SETTINGS, type EvmNetworkName, type TokenControlsKind } from '../functions/networks/evm/settings.ts';
import { evmTokenControlsOf } from '../functions/networks/evm/networks.ts';
import { SOLANA_STAGE_SETTINGS, type SolanaNetworkSettings } from '../functions/networks/solana/settings.ts';
import type { StageConfig } from '../config/stages.ts';
import type { Binder, CambioFunction } from './api-function.ts';
import { TABLE_READ, TABLE_WRITE, evmHotWalletKeys, hotWalletAddress, hotWalletSigning, secretRead, secretsNamedIn, solanaHotWalletKey, tableActions } from './binders.ts';
import type { StageScope } from './stage-scope.ts';

/**
 * The stage's chain side: the hot wallets' keys, the scheduled jobs that read the chains (the
 * deposit poller), sign on them (the withdrawal sender and the deposit sweeper) and compare them
 * with the ledger (reconcile). Made in the stack's own scope, so their logical ids are the stack's.
 */

export interface ChainJobs {
  sender: CambioFunction;
  sweeper: CambioFunction;
  reconcile: CambioFunction;
  /** The EVM networks the stage opens, each with its USDT's issuer controls, for their alarms. */
  evmNetworks: { name: EvmNetworkName; tokenControls: TokenControlsKind }[];
  /** Whether the stage opens Solana (its SOLANA figure). */
  solanaOpen: boolean;
}

/**
 * The chain jobs on one EventBridge schedule: the deposit poller (scan, confirm, expire), which
 * reads the chain and writes deposits, ledger entries and events but holds no key and cannot sign
 * anything; the withdrawal sender and the deposit sweeper, the only signers; and the hourly
 * reconcile.
 */
export function chainJobs(stack: StageScope, config: StageConfig): ChainJobs {
  const tronGridKey = secretRead('TRONGRID_API_KEY_SECRET', config.functionEnvironment.TRONGRID_API_KEY_SECRET);
  const evmNetworks = openEvmNetworks(config);
  const solana = openSolana(config);
  const rpcUrlSecrets = secretsNamedIn('EVM_NETWORKS', Object.values(evmNetworks).flatMap((network) => (network.rpcUrlSecret ? [network.rpcUrlSecret] : [])));
  // Solana's node URL where a secret holds it, for every chain job; its deposit seed, the sweeper's alone.
  const solanaRpcUrlSecret = secretsNamedIn('SOLANA', solana?.rpcUrlSecret ? [solana.rpcUrlSecret] : []);
  const poller = stack.stageFunction(JOBS.depositPoller.handler, { bind: [tableActions(stack.table, ...TABLE_READ, ...TABLE_WRITE), tronGridKey, rpcUrlSecrets, solanaRpcUrlSecret], timeout: Duration.seconds(55) });
  // Each EVM network's poller at its own rate; Solana's every minute (a slot every 400 ms), as the
  // signing jobs run. The TRON poller runs on the chain jobs' schedule below, with no input.
  const pollRates = [...Object.entries(evmNetworks).map(([name, network]) => ({ name, everyMinutes: network.scanEveryMinutes })), ...(solana ? [{ name: 'solana', everyMinutes: config.pollerScheduleMinutes }] : [])];
  for (const everyMinutes of [...new Set(pollRates.map((network) => network.everyMinutes))].sort((a, b) => a - b)) {
    const networks = pollRates.filter((network) => network.everyMinutes === everyMinutes).map((network) => network.name);
    scheduleByNetwork(stack, `DepositPollerEvery${everyMinutes}MinSchedule`, 'deposit poller', poller, everyMinutes, networks);
  }
  // Only the withdrawal sender and the sweeper (TRX top-ups) may sign with the hot wallet; no API,
  // authorizer or scanner function (test/infra). One run at a time per network: two runs of one
  // network must never pick the same work or race its hot wallet, so each run holds its network's
  // lease in the table (functions/networks/run-lease.ts); the open networks' runs go side by side,
  // each function with one execution reserved per network (docs/capacity.md).
  const signingJobConcurrency = signingJobConcurrencyOf(config);
  const signingJob = (handler: typeof JOBS.withdrawalSender.handler | typeof JOBS.depositSweeper.handler, ...more: Binder[]) =>
    stack.stageFunction(handler, {
      bind: [tableActions(stack.table, ...TABLE_READ, ...TABLE_WRITE), hotWalletSigning(stack.hotWallet), tronGridKey, ...more],
      timeout: Duration.seconds(55),
      reservedConcurrentExecutions: signingJobConcurrency,
    });
  // The sender and the sweeper sign on each open EVM network too, each network with its own key,
  // and read the node's URL where a secret holds it. The HD account key that signs for TRON
  // deposit addresses: the sweeper's alone.
  const evmHotWallets = evmHotWalletKeyPerNetwork(stack, config);
  const openHotWallets = Object.fromEntries(Object.keys(evmNetworks).map((name) => [name, evmHotWallets[name as EvmNetworkName]]));
  // Solana's hot wallet: an Ed25519 key of its own, made whether or not the stage opens Solana (its
  // address must be funded with SOL before it does); granted only where it is open.
  const solanaKey = solanaHotWalletKeyOf(stack, config);
  const solanaSigning = solanaHotWalletKey(solana ? solanaKey : null, 'kms:Sign', 'kms:GetPublicKey');
  const sender = signingJob(JOBS.withdrawalSender.handler, rpcUrlSecrets, evmHotWalletKeys(openHotWallets, 'kms:Sign', 'kms:GetPublicKey'), solanaRpcUrlSecret, solanaSigning);
  const sweeper = signingJob(
    JOBS.depositSweeper.handler,
    secretRead('SWEEP_ACCOUNT_XPRV_SECRET', config.functionEnvironment.SWEEP_ACCOUNT_XPRV_SECRET),
    rpcUrlSecrets,
    evmHotWalletKeys(openHotWallets, 'kms:Sign', 'kms:GetPublicKey'),
    solanaRpcUrlSecret,
    solanaSigning,
    // The seed of Solana's deposit addresses: the sweeper derives them ahead and signs their sweeps.
    secretsNamedIn('SolanaDepositSeed', solana?.depositSeedSecret ? [solana.depositSeedSecret] : []),
  );
  const namedNetworks = [...Object.keys(evmNetworks), ...(solana ? ['solana'] : [])];
  scheduleByNetwork(stack, 'WithdrawalSenderSchedule', 'withdrawal sender', sender, config.pollerScheduleMinutes, namedNetworks);
  scheduleByNetwork(stack, 'DepositSweeperSchedule', 'deposit sweeper', sweeper, config.pollerScheduleMinutes, namedNetworks);
  new Rule(stack, 'ChainPollerSchedule', {
    description: 'Runs the TRON deposit poller, the withdrawal sender and the deposit sweeper',
    schedule: Schedule.rate(Duration.minutes(config.pollerScheduleMinutes)),
    targets: [poller, sender, sweeper].map((fn) => stack.failedInvocations.scheduledTarget(fn, Duration.minutes(config.pollerScheduleMinutes))),
  });
  // Reconcile reads each open network's hot wallet address from its own key, and cannot sign.
  const reconcile = reconcileJob(stack, tronGridKey, rpcUrlSecrets, evmHotWalletKeys(openHotWallets, 'kms:GetPublicKey'), solanaRpcUrlSecret, solanaHotWalletKey(solana ? solanaKey : null, 'kms:GetPublicKey'));
  const open = Object.entries(evmNetworks) as [EvmNetworkName, NonNullable<(typeof evmNetworks)[EvmNetworkName]>][];
  return { sender, sweeper, reconcile, evmNetworks: open.map(([name, network]) => ({ name, tokenControls: evmTokenControlsOf(name, network) })), solanaOpen: solana !== undefined };
}

/** EventBridge takes at most five targets on one rule. */
const TARGETS_PER_RULE = 5;

/**
 * Runs `job` every `everyMinutes` once per network, each run's input naming its network: one rule
 * for up to five networks, each a target of its own (EventBridge retries and dead-letters each
 * apart), rather than a rule per network. A rule and its permission to invoke the function are two
 * of the 500 resources CloudFormation allows a stack, and a stage opening every network would
 * spend 30 of them on the chain jobs' schedules alone (docs/capacity.md, "The stack's size").
 */
function scheduleByNetwork(stack: StageScope, id: string, job: string, fn: CambioFunction, everyMinutes: number, networks: readonly string[]): void {
  for (let start = 0; start < networks.length; start += TARGETS_PER_RULE) {
    const group = networks.slice(start, start + TARGETS_PER_RULE);
    new Rule(stack, start === 0 ? id : `${id}${start / TARGETS_PER_RULE + 1}`, {
      description: `Runs the ${job} on ${group.join(', ')}`,
      schedule: Schedule.rate(Duration.minutes(everyMinutes)),
      targets: group.map((network) => stack.failedInvocations.scheduledTarget(fn, Duration.minutes(everyMinutes), { network })),
    });
  }
}

/** Made once for the stage, not by the jobs that use it (lib/binders.ts hotWalletSigning, hotWalletAddress). */
export function tronHotWalletKey(stack: Stack, config: StageConfig): Key {
  return new Key(stack, 'HotWalletKey', hotWalletKeyProps(`Cambio ${config.stage} hot wallet (TRON, secp256k1)`, `alias/cambio-${config.stage}-hot-wallet`));
}

/**
 * The hot wallet of each EVM network: a secp256k1 key of its own (its address the keccak of the
 * public key), so a key's loss or grant touches one chain. Made for every EVM network, open or
 * not: a network's forwarder factory must be deployed owned by its hot wallet's address before
 * the stage can open it (EVM_NETWORKS names the factory), so the key has to exist first
 * (npm run evm:deploy-factory, docs/evm-networks.md). Only an open network's key is granted.
 */
function evmHotWalletKeyPerNetwork(stack: Stack, config: StageConfig): Record<EvmNetworkName, Key> {
  return Object.fromEntries(
    EVM_NETWORK_NAMES.map((network) => [
      network,
      new Key(stack, `HotWalletKey${network[0]!.toUpperCase()}${network.slice(1)}`, hotWalletKeyProps(`Cambio ${config.stage} hot wallet (${network}, secp256k1)`, `alias/cambio-${config.stage}-hot-wallet-${network}`)),
    ]),
  ) as Record<EvmNetworkName, Key>;
}

/**
 * The scheduled reconcile (functions/handlers/jobs/reconcile.ts), hourly: one full Scan of the table (no
 * index lists every balance, and Cambio's fee and desk accounts exist only as ledger postings),
 * GSI1 queries for the deposit addresses that may still hold USDT, and the chain balances of
 * those and the hot wallet (on TronGrid one call per address, 4 at a time), on TRON and on each
 * open EVM network (whose node URL it reads where a secret holds it). It reads the hot wallet's
 * public key to know its addresses and cannot sign.
 */
function reconcileJob(stack: StageScope, tronGridKey: Binder, ...more: Binder[]): CambioFunction {
  const job = stack.stageFunction(JOBS.reconcile.handler, {
    bind: [tableActions(stack.table, ...TABLE_READ, 'dynamodb:Scan'), hotWalletAddress(stack.hotWallet), tronGridKey, ...more],
    timeout: Duration.minutes(5),
  });
  new Rule(stack, 'ReconcileSchedule', {
    description: 'Compares the wallets with the ledger',
    schedule: Schedule.rate(Duration.hours(1)),
    targets: [stack.failedInvocations.scheduledTarget(job, Duration.hours(1))],
  });
  return job;
}

/** A hot wallet's key: secp256k1, signing only, never leaving KMS, and kept when the stack goes
 * (the wallet's funds answer to it). */
function hotWalletKeyProps(description: string, alias: string): KeyProps {
  return { description, keySpec: KeySpec.ECC_SECG_P256K1, keyUsage: KeyUsage.SIGN_VERIFY, removalPolicy: RemovalPolicy.RETAIN, alias };
}

/**
 * Solana's hot wallet: an Ed25519 key (its address is the public key in base58), signing only,
 * never leaving KMS, kept when the stack goes.
 */
function solanaHotWalletKeyOf(stack: Stack, config: StageConfig): Key {
  return new Key(stack, 'HotWalletKeySolana', {
    ...hotWalletKeyProps(`Cambio ${config.stage} hot wallet (solana, Ed25519)`, `alias/cambio-${config.stage}-hot-wallet-solana`),
    keySpec: KeySpec.ECC_NIST_EDWARDS25519,
  });
}

/** Executions reserved for each signing job: one per network the stage opens (TRON, its open EVM networks, Solana). */
export const signingJobConcurrencyOf = (config: StageConfig): number => 1 + Object.keys(openEvmNetworks(config)).length + (openSolana(config) ? 1 : 0);

/** The EVM networks the stage opens (its EVM_NETWORKS figure, checked by the settings schema). */
function openEvmNetworks(config: StageConfig) {
  return v.parse(EVM_STAGE_SETTINGS.EVM_NETWORKS, config.functionEnvironment.EVM_NETWORKS);
}

/** Read access to Solana's node URL where a secret holds it: for the API's and the dashboard's money
 * routes too, which read a destination that is a token account on the chain (functions/networks/solana/destinations.ts). */
export const solanaNodeUrl = (config: StageConfig): Binder => {
  const solana = openSolana(config);
  return secretsNamedIn('SOLANA', solana?.rpcUrlSecret ? [solana.rpcUrlSecret] : []);
};

/** Solana's settings where the stage opens it (its SOLANA figure), else undefined. */
function openSolana(config: StageConfig): SolanaNetworkSettings | undefined {
  return v.parse(SOLANA_STAGE_SETTINGS.SOLANA, (config.functionEnvironment as { SOLANA?: string }).SOLANA);
}
