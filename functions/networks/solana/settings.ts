import * as v from 'valibot';
import { SOLANA_ADDRESS_PATTERN } from './address-pattern.ts';
import { usdtFeeFigure, usdtFigure } from '#functions/settings/usdt-figure';

const whole = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
const url = v.pipe(v.string(), v.check((value) => URL.canParse(value), 'is not a URL'));
const address = v.pipe(v.string(), v.regex(SOLANA_ADDRESS_PATTERN, 'is not a Solana address'));

/**
 * Solana on a stage (../shared/networks.md, "Solana"). Valibot and the amount parser alone: every function parses settings.
 * The hot wallet signs with an Ed25519 key: KMS (`ECC_NIST_EDWARDS25519`) on deployed stages, a local
 * key on the local one. Deposit addresses are wallets derived from a seed only the sweeper holds
 * (functions/networks/solana/deposit-owners.ts): the API reads the addresses the sweeper derived ahead.
 */
export const solanaNetworkSettings = v.strictObject({
  /** The JSON-RPC endpoint, or the Secrets Manager id of one (a provider's URL carries its key). */
  rpcUrl: v.optional(url),
  rpcUrlSecret: v.optional(v.pipe(v.string(), v.nonEmpty())),
  /** How long one request may take before it fails (the run retries on its next schedule). */
  rpcTimeoutMs: v.optional(whole(100, 30_000), 10_000),
  /** USDT's mint: transfers of any other token are ignored. */
  usdtMint: address,
  /** What a deposit shows as `requiredConfirmations`: a block is final (`finalized` commitment)
   * some 32 slots behind the newest. The scanner credits at `finalized`, whatever this says. */
  confirmations: v.optional(whole(1, 1_000), 32),
  /** The local stage's hot wallet key: 64 bytes (secret ‖ public) as hex, the Solana CLI's keypair. */
  localHotWalletKey: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-f]{128}$/, 'is not 64 bytes of hex'))),
  /** The Secrets Manager id of the deposit owners' seed (64 bytes of hex; only the sweeper reads it). */
  depositSeedSecret: v.optional(v.pipe(v.string(), v.nonEmpty())),
  /** The local stage's deposit seed, as hex. */
  localDepositSeed: v.optional(v.pipe(v.string(), v.regex(/^([0-9a-f]{2}){16,64}$/, 'is not 16 to 64 bytes of hex'))),
  /** The most a payout or a sweep offers per compute unit, in micro-lamports (its priority fee): the
   * sender offers the recent fees' median held under this. */
  priorityFeeCapMicroLamports: v.optional(whole(0, 100_000_000), 1_000_000),
  /** The fee charged on a withdrawal on Solana; 0 waives it. Absent: the stage's WITHDRAWAL_FEE_USDT. */
  withdrawalFeeUsdt: v.optional(usdtFeeFigure),
  /** The smallest withdrawal on Solana, USDT. Absent: the stage's WITHDRAWAL_MINIMUM_USDT. */
  withdrawalMinimumUsdt: v.optional(usdtFigure),
  /** USDT below which a deposit address is not swept. Absent: the stage's SWEEP_MINIMUM_USDT. */
  sweepMinimumUsdt: v.optional(usdtFigure),
  /** SOL (lamports) below which the hot wallet's balance counts HotWalletGasLow: it pays every fee,
   * and the rent of the token accounts payouts create. With what the payouts waiting need, the floor
   * no opening of a deposit account takes it below (./deposit-accounts.ts openingBudget). */
  hotWalletSolMinimum: v.optional(whole(0, 1e15), 100_000_000),
  /** How many deposit addresses the sweeper keeps derived ahead of the address index. */
  depositOwnersAhead: v.optional(whole(100, 100_000), 2_000),
  /** The chain is the local runtime's, whose USDT is the sandbox's (local stage only). */
  sandbox: v.optional(v.boolean(), false),
});
export type SolanaNetworkSettings = v.InferOutput<typeof solanaNetworkSettings>;

/** SOLANA: a JSON object of Solana's settings; absent, the stage does not open Solana. */
export const SOLANA_STAGE_SETTINGS = {
  SOLANA: v.optional(
    v.pipe(
      v.string(),
      v.parseJson(undefined, 'is not JSON'),
      solanaNetworkSettings,
      v.check((network) => network.rpcUrl !== undefined || network.rpcUrlSecret !== undefined, 'has neither rpcUrl nor rpcUrlSecret'),
    ),
  ),
  /** The Solana hot wallet's KMS key (key spec ECC_NIST_EDWARDS25519), made by the stack
   * (lib/chain-jobs.ts), which names it here for the signing jobs alone; absent, the hot wallet
   * signs with SOLANA's `localHotWalletKey` (local stage). */
  SOLANA_SIGNER_KMS_KEY_ID: v.optional(v.pipe(v.string(), v.nonEmpty())),
};

/** Solana is open on a stage whose settings have SOLANA. */
export const solanaIsOpen = (settings: { SOLANA?: unknown }): boolean => settings.SOLANA !== undefined;

/** The accounts of Solana the stage's settings name: USDT's mint. */
export const solanaStageContracts = (settings: { SOLANA?: SolanaNetworkSettings }): string[] => (settings.SOLANA ? [settings.SOLANA.usdtMint] : []);
