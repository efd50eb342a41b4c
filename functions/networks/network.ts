import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SliceSettings } from '../settings/functions.ts';
import type { NetworkReconcileSources } from '../ledger/reconciliation.ts';
import type { Broadcaster, ChainReader } from './chain.ts';
import type { NetworkName } from './names.ts';
import type { FunctionSettings } from '../settings/functions.ts';
import type { Log } from '../shared/log.ts';

/**
 * The network port: everything that differs between the chains Cambio moves USDT on. Deposits,
 * withdrawals, sweeps, the scanner and reconcile speak only these interfaces; each network's
 * folder (functions/networks/<name>/) implements them and the registries choose one by a record's
 * `network` (docs/adding-a-network.md).
 *
 * It comes in parts because each goes into different Lambda bundles: the description below into
 * every API function that takes an address, the keys (HD derivation, curve arithmetic) into deposit
 * creation and the signers, the chain into the jobs, the transfers (a network's transaction
 * library, often large) into the signing jobs alone, the sandbox payer into the dashboard's simulator.
 */
export interface Network {
  readonly name: NetworkName;
  /** The chain's name for people, in messages and documents: `TRON`. */
  readonly title: string;
  /** The USDT token's decimals on this chain. Amounts outside are 6 decimals whatever this is;
   * a chain with more keeps what is below 1e-6 USDT as dust (../shared/networks.md). */
  readonly tokenDecimals: number;
  /** What the chain's fees are paid in, which sweeps send to a deposit address before moving its
   * USDT: its symbol and the decimals of its minor unit. */
  readonly feeAsset: { symbol: string; decimals: number };
  /** When a block can no longer be reversed, for people: the reader's finalBlock() follows it. */
  readonly finality: string;
  /** Its usual time between blocks (slots on Solana), in ms: how many blocks make a span of time,
   * for a margin counted in blocks (a lagging node's) or an alarm's threshold. */
  readonly blockMs: number;
  readonly address: AddressFormat;
  /** Where a person sees a transaction on the network's public explorer. */
  explorerTransactionUrl(txHash: string): string;
}

/** How the network writes an address, and how one is checked. */
export interface AddressFormat {
  /** JSON Schema pattern for the OpenAPI document (the check below is the real rule). */
  readonly pattern: string;
  /** The form in words, inside messages: `base58check, starting with T`. */
  readonly form: string;
  /** A valid address, for examples. */
  readonly example: string;
  /** True only for an address in the network's canonical form with a valid checksum. */
  is(value: unknown): value is string;
  /**
   * The one form an address is stored and compared in (EIP-55 on EVM networks, whose addresses
   * compare in any letter case; base58check as it is on TRON), or null when `value` is no address
   * of the network. Lenient where `is` is strict: an EVM address in mixed case with a wrong
   * checksum still names its 20 bytes, and a list that names it so (the sanctions list) still
   * means them.
   */
  canonical(value: string): string | null;
  /**
   * The 20-byte account an address names, as 40 lower-case hex digits, or null when `value` is no
   * address of the network. TRON and the EVM chains derive an address from the same secp256k1 key
   * alike (the last 20 bytes of its keccak-256), so one key or one contract's bytes are the same
   * account in each form: what Cambio holds in one form it holds in every other
   * (functions/withdrawals/refused-destinations.ts).
   */
  account(value: string): string | null;
  /** The address of an account (as `account` gives them: 40 hex digits for TRON's and the EVM
   * chains', 64 for Solana's) in the network's canonical form, or null when the network has no
   * address for an account of that size. */
  ofAccount(account: string): string | null;
  /** Whether an address in the network's canonical form is one no one can spend from (the zero
   * address; on the EVM chains also 0x…dEaD and the precompiles): USDT sent there is lost. */
  isUnspendable(canonical: string): boolean;
  /** Whether the form alone cannot tell if USDT may be sent to an address `is` takes (a Solana
   * address off the curve: a token account, or any program's account): it is taken only once the
   * network's destination check has read the chain (NetworkDestinations), never without one.
   * Absent: the form tells. */
  readsChainToAccept?(canonical: string): boolean;
}

/** What a destination that the form alone cannot settle turns out to be on the chain. */
export type DestinationVerdict = { accepted: true; owner: string } | { accepted: false; reason: string };

/** A chain read of every destination on a network where the form may mislead (Solana: a token
 * account made at a key's address looks like a wallet), from the `contracts` settings slice the
 * API's money routes have; required where AddressFormat.readsChainToAccept says so. null on a
 * network whose form tells, or a stage that does not open it. */
export interface NetworkDestinations {
  checkerFor(settings: SliceSettings<'contracts'>): ((canonical: string) => Promise<DestinationVerdict>) | null;
}

/** Where a new deposit is paid on a network, and how deep its block must be before it counts. */
export interface DepositTerms {
  address: string;
  requiredConfirmations: number;
}

/** Addresses from keys: for creating deposits and for the hot wallet's signers. */
export interface NetworkKeys {
  /**
   * A new deposit's terms on this stage, or null when the stage does not open the network. TRON
   * derives the address at the deposit's `addressIndex` under the account xpub; an EVM network
   * computes the CREATE2 address of the deposit's forwarder from its id; both offline, from public
   * data. Solana's curve has no public derivation: it reads the address at the index from the
   * table, where the sweeper (the one holder of the seed) wrote it ahead. The API never holds a key
   * to a deposit address.
   */
  depositTerms(deposit: { id: string; addressIndex: number }, settings: SliceSettings<'deposits'>, table?: JobTable): DepositTerms | null | Promise<DepositTerms | null>;
  /** The address of the hot wallet's public key, in the family's curve (secp256k1 for TRON and the
   * EVM chains, 33 or 65 bytes; Ed25519 for Solana, 32 bytes). */
  addressFromPublicKey(publicKey: Uint8Array): string;
}

/** What the chain jobs use: reading, broadcasting, and token and fee-asset balances (sweeps,
 * reconciliation). */
export type Chain = ChainReader &
  Broadcaster & {
    tokenBalance(contract: string, address: string): Promise<bigint>;
    tokenBalances(contract: string, addresses: string[]): Promise<Map<string, bigint>>;
    /** USDT each address holds, in USDT's minor units (6 decimals) whatever the token's own on chain. */
    usdtBalances(contract: string, addresses: string[]): Promise<Map<string, bigint>>;
    /** The address's fee asset, in its minor unit. */
    feeBalance(address: string): Promise<bigint>;
  } & TokenControls;

/**
 * The issuer's controls on the token as the chain has them now (../shared/networks.md, "The token
 * as it is on mainnet"): Tether freezes addresses (`isBlackListed`), pauses the token and may charge
 * a transfer fee. A token without a control (BSC's BEP20USDT has none) answers "not frozen", "not
 * paused", no fee. A node's error is thrown, never read as "not frozen": money credited from a
 * frozen address cannot move.
 */
export interface TokenControls {
  /** Those of `addresses` (in the network's form, as given) that the issuer has frozen. */
  frozenAmong(contract: string, addresses: string[]): Promise<Set<string>>;
  /** Whether the issuer has paused every transfer of the token. */
  tokenPaused(contract: string): Promise<boolean>;
}

export interface ChainSettings {
  /** The official USDT contract on this chain: transfers of any other contract are ignored. */
  usdtContract: string;
  /** Cursor name: one per chain. */
  cursorName: string;
  /** Names the cursor had before: a scan with no position under `cursorName` starts where the
   * earliest of these stood, so renaming it skips no block. */
  previousCursorNames?: string[];
  /** Whether a transfer needs the sender to hold the amount, so the sender checks its float first. */
  enforcesBalances: boolean;
  /** Whether every address's balance comes from one read (the sandbox chain), so reconcile reads
   * all deposit addresses; otherwise each costs a call and only those that may hold USDT are read. */
  readsAllBalancesAtOnce: boolean;
}

/** The chain a stage reads and sends on, built once at cold start from the `chain` settings. */
export interface NetworkChains {
  connect(
    db: DynamoDBDocumentClient,
    tableName: string,
    settings: SliceSettings<'chain'>,
    options?: { hotWallet?: () => Promise<string> },
  ): { chain: Chain; settings: ChainSettings };
  /** What reconciliation reads of the network (functions/ledger/reconciliation.ts), and whether its
   * chain answers every address's balance in one read (then every deposit address is read). */
  reconcileSources(
    db: DynamoDBDocumentClient,
    tableName: string,
    settings: SliceSettings<'chain'>,
    hotWalletAddress: () => Promise<string>,
  ): NetworkReconcileSources & { readsAllBalancesAtOnce: boolean };
}

/**
 * The hot wallet's address on a network, from the function's settings, for a function that reads it
 * and cannot sign (reconcile: kms:GetPublicKey only): each family's own key (TRON's the stage's
 * secp256k1 key, an EVM network's its own, Solana's its Ed25519 one). Apart from the chain so that
 * the deposit poller, which reads the chain and names no hot wallet, bundles no signer.
 */
export type NetworkHotWallet = (settings: SliceSettings<'hotWallet' | 'chain'>) => () => Promise<string>;

/** Whose simulated payment it is: the company whose `Simulate payment` sends it. */
export interface SandboxPayment {
  companyId: string;
}

/**
 * A customer's USDT transfer on the sandbox chain (`amount` in USDT minor units): the chain scanner
 * then sees it as it sees any payment. Where the sandbox models the payer's balance (the local EVM
 * nodes), each company pays from a wallet of its own, so that one company spending its sandbox
 * USDT leaves every other's simulator working; the sandbox TRON chain does not model it, and pays
 * every company's from one customer wallet.
 */
export interface SandboxPayer {
  pay(address: string, amount: bigint, payment: SandboxPayment): Promise<{ txHash: string }>;
}

/** The company's sandbox wallet holds less USDT than the simulated payment asks, so nothing was
 * sent. Amounts in USDT minor units. */
export class SandboxWalletShort extends Error {
  constructor(
    readonly wallet: string,
    readonly held: bigint,
    readonly asked: bigint,
    /** Whose wallet it is: the company's own (the local EVM nodes, given its USDT once), or the one
     * customer wallet every company pays from (Solana's local node, as `sandbox:pay`). */
    readonly whose: 'company' | 'shared' = 'company',
  ) {
    super(`The sandbox wallet ${wallet} holds ${held} USDT minor units, less than the ${asked} asked`);
    this.name = 'SandboxWalletShort';
  }
}

/** The sandbox chain mined a transfer of the simulated payment and it reverted, so nothing was
 * paid; the message says which transfer and what may have stopped it. */
export class SandboxPaymentReverted extends Error {
  constructor(
    message: string,
    readonly txHash: string,
  ) {
    super(message);
    this.name = 'SandboxPaymentReverted';
  }
}

/** The dashboard's `Simulate payment`: a customer's payment on a stage whose chain is a sandbox;
 * null where the stage reads the real network. */
export interface NetworkSandbox {
  payer(db: DynamoDBDocumentClient, tableName: string, settings: SliceSettings<'chain'>): SandboxPayer | null;
}

/** The table a job works on (adapters/runtime.ts dynamoFrom). */
export interface JobTable {
  db: DynamoDBDocumentClient;
  tableName: string;
}

/**
 * One run of a network's job: what it did (`outcome`, which tests and the run's log line read), its
 * counts as the metrics the stack alarms on (named as lib/observability.ts reads them), and whether
 * it did anything (its line is INFO then, DEBUG when idle). The handler publishes the counts; which
 * counts a network has is its family's matter.
 */
export interface JobRunOutcome<T> {
  outcome: T;
  /** Published as counts. */
  counts: Record<string, number>;
  /** Published in seconds. */
  seconds?: Record<string, number>;
  busy: boolean;
}

/**
 * A run that failed after doing part of its work: `run` says what it did (published as any run's
 * counts), `failure` is its error, the run's outcome for the Lambda (its Errors metric, the alarms
 * on it). Without it a run a node fault ended would count nothing of what it had settled.
 */
export class RunFailedAfterWork<T> extends Error {
  constructor(
    readonly run: JobRunOutcome<T>,
    readonly failure: unknown,
  ) {
    super(`The run failed after part of its work: ${failure instanceof Error ? failure.message : String(failure)}`);
  }
}

/**
 * A network's scheduled jobs that sign (functions/handlers/jobs/withdrawal-sender.ts and
 * deposit-sweeper.ts): each family builds them, in its folder, from the function's settings and
 * the table, and the handlers only run them. Each is made on the network's first run and kept
 * across warm invocations.
 */
export interface NetworkJobs {
  withdrawalSender(settings: FunctionSettings<'jobs/withdrawal-sender'>, table: JobTable): (log: Log, timeLeftMs?: () => number) => Promise<JobRunOutcome<WithdrawalSenderRun>>;
  depositSweeper(settings: FunctionSettings<'jobs/deposit-sweeper'>, table: JobTable): (log: Log) => Promise<JobRunOutcome<DepositSweeperRun>>;
}

/** What the issuer's controls allow now (token-standing.ts tokenStanding reads it). */
export interface TokenStanding {
  paused: boolean;
  hotWalletFrozen: boolean;
}

/** A withdrawal sender's run: what was sent and settled (each family's result), and the token's standing. */
export interface WithdrawalSenderRun {
  sent: { sent: number; failed: number; awaitingFloat: number; feeCapReached?: number };
  settled: { completed: number; failed: number; rebroadcast: number; replaced?: number; feeCapReached?: number; stuck: { count: number; oldestAgeSeconds: number } };
  standing: TokenStanding;
}

/** A sweeper's run: the family's sweep result (null while the token may not move), the token's
 * standing, and the deposit addresses set aside as frozen after it. */
export interface DepositSweeperRun {
  outcome: Record<string, number> | null;
  standing: TokenStanding;
  frozenAddresses: number;
}
