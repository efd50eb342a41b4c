import type { AuditEntry } from '../companies/audit-log.ts';
import type { Alongside, AlongsideOf } from '../shared/alongside.ts';
import { usdtTransferView, type UsdtTransfer } from '../deposits/usdt-transfer.ts';
import { DEFAULT_NETWORK, NETWORK_NAMES, type NetworkName } from '../networks/names.ts';
import { ApiError, duplicateReference, validationFailed } from '../shared/errors.ts';
import { foundById, newId } from '../shared/ids.ts';
import { companyAccount, ledgerEntry, type LedgerEntry } from '../ledger/ledger.ts';
import { formatAmount, formatCoinAmount, type CoinAmount } from '../shared/money.ts';
import { underWithdrawalPolicy, type AllowlistReader, type GuardedWrite, type LimitGuard, type LimitReader, type WithdrawalGuards } from './withdrawal-policy.ts';
import type { NonceFiller } from '../networks/chain.ts';
import type { ScreeningList } from '../screening/screening-list.ts';
import type { CambioAddresses, StageContracts } from './refused-destinations.ts';
import type { DestinationChecks } from '../networks/destination-registry.ts';

export type WithdrawalStatus = 'pending' | 'processing' | 'completed' | 'failed';

export interface Withdrawal extends UsdtTransfer {
  /** USDT minor units sent to `address`. */
  amount: bigint;
  /** USDT minor units charged for the network fee, on top of `amount`. */
  fee: bigint;
  status: WithdrawalStatus;
  txHash: string | null;
  /** What the destination received per the token's Transfer event, once completed: below `amount`
   * only when the issuer charges a transfer fee (../shared/networks.md). Null until then, and on a
   * withdrawal completed before it was recorded. */
  deliveredAmount: bigint | null;
  /** What the payout cost Cambio on the network, once its transaction is final (completed, or
   * failed after it landed: a failed transaction still pays its fee). Null until then, on a network
   * that does not tell it yet, and on a withdrawal settled before it was recorded. */
  networkCost: NetworkCost | null;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  /** The signed transaction, stored before it is broadcast (functions/withdrawals/withdrawal-sending.ts). */
  transaction: SentTransaction | null;
  /** The UTC day whose daily-limit total counts this withdrawal's amount (withdrawal-policy.ts), or
   * null when no limit was in force: a withdrawal that fails gives its amount back to that day. */
  limitDay: string | null;
}

/**
 * What the hot wallet paid the network for a payout, in the network's own coin: what its final
 * transaction cost it (withdrawal-sending.ts networkCostOf). Cambio's cost, never charged to the
 * company (the withdrawal's `fee`, per network and stage, covers it). On Solana it includes the rent
 * of the payee's token account when the payout created it.
 */
export interface NetworkCost extends CoinAmount {
  /** The payout created the payee's token account, whose rent is in `amount`. */
  tokenAccountCreated: boolean;
}

export interface SentTransaction {
  /** The signed transaction as the chain's broadcast API takes it (JSON). */
  signed: string;
  /** After this the chain refuses the transaction: if it is not in a block by then, it never will be.
   * Null on an EVM network, where a transaction never expires: its nonce holds its place. */
  expiresAt: string | null;
  /** When `signed` was broadcast. EVM and Solana: a payout's first version is stored as broadcast at
   * its claim (the broadcast follows the write); EVM: a replacement once the node took it, and unmined
   * long after, the payout is replaced (functions/networks/evm/withdrawal-sending.ts); Solana: a
   * broadcast made again, when it was made (functions/networks/solana/withdrawal-sending.ts). */
  broadcastAt: string | null;
  /** EVM: the hot wallet's nonce the transaction holds (functions/networks/evm/withdrawal-sending.ts). */
  nonce?: number;
  /** EVM: a transfer of nothing to the hot wallet itself on the same nonce, signed when the node
   * refused the payout for good (`refusal`, its words), so the nonces behind it are not held up;
   * replaced at a higher fee as the payout would be (nonce-sequence.ts). */
  filler?: NonceFiller;
  /** EVM: the hashes of the payout's earlier versions, oldest first, each replaced by the next (the
   * same nonce and transfer at a higher fee; `signed` is the newest). Any one of them may be the one
   * mined, and only one can be: the withdrawal's `txHash` ends as that one's. */
  replacedTxHashes?: string[];
}

export interface WithdrawalRules {
  /** Charged on every withdrawal, in USDT minor units, where `networks` names no fee of its own. */
  fee: bigint;
  /** The networks the stage sends payouts on (functions/networks/open-networks.ts), each with its
   * own fee and minimum if it has them: a withdrawal on another network is refused. */
  networks: Partial<Record<NetworkName, { fee?: bigint; minimum?: bigint }>>;
  /** The smallest `amount` accepted, in USDT minor units, where `networks` names no minimum of its own. */
  minimum: bigint;
  /** The contracts Cambio uses on each network, which no withdrawal pays (refused-destinations.ts). */
  contracts: StageContracts;
  /** The chain read of a destination its form cannot settle (a Solana token account); absent, such a destination is refused. */
  destinations?: DestinationChecks;
}

export interface WithdrawalStore extends AllowlistReader, LimitReader, ScreeningList, CambioAddresses {
  /** Writes the withdrawal, its reference claim and the hold of amount + fee in one transaction;
   * throws DUPLICATE_REFERENCE or INSUFFICIENT_BALANCE as the guards say, and answers which of the
   * withdrawal policy's `guards` it found false, if one was (withdrawal-policy.ts GuardedWrite).
   * `audit`, for a withdrawal a person sent from the dashboard, is written in the same transaction. */
  /** `alongside`: written in the same transaction (the request's answer: ../shared/alongside.ts). */
  createWithdrawal(withdrawal: Withdrawal, hold: LedgerEntry, guards: WithdrawalGuards, audit?: AuditEntry, alongside?: Alongside): Promise<GuardedWrite>;
  getWithdrawal(companyId: string, withdrawalId: string): Promise<Withdrawal | null>;
  /** The id of the company's withdrawal holding this reference, read consistently; null when none does. */
  withdrawalIdByReference(companyId: string, reference: string): Promise<string | null>;
}

export interface NewWithdrawal {
  reference: string;
  /** The body names it; absent (a caller from before bodies named it), the hot wallet's network (functions/networks/names.ts). */
  network?: NetworkName;
  address: string;
  amount: bigint;
}

/** A withdrawal as it is created, by a company's request or a deposit's split share: pending,
 * nothing signed yet. */
export function newWithdrawal(companyId: string, { reference, network, address, amount, fee }: NewWithdrawal & { fee: bigint }, now: Date): Withdrawal {
  const createdAt = now.toISOString();
  return {
    id: newId('withdrawal', now.getTime()),
    companyId,
    method: 'usdt',
    reference,
    network: network ?? DEFAULT_NETWORK,
    address,
    amount,
    fee,
    status: 'pending',
    txHash: null,
    deliveredAmount: null,
    networkCost: null,
    failureReason: null,
    createdAt,
    updatedAt: createdAt,
    completedAt: null,
    transaction: null,
    limitDay: null,
  };
}

const feeOn = (rules: WithdrawalRules, network: NetworkName): bigint => rules.networks[network]?.fee ?? rules.fee;
const minimumOn = (rules: WithdrawalRules, network: NetworkName): bigint => rules.networks[network]?.minimum ?? rules.minimum;

export async function requestWithdrawal(
  store: WithdrawalStore,
  rules: WithdrawalRules,
  companyId: string,
  input: NewWithdrawal,
  now = new Date(),
  /** Written beside the withdrawal, in its transaction: the dashboard's audit entry, the API's Idempotency-Key answer. */
  { audit, answer }: { audit?: (withdrawal: Withdrawal) => AuditEntry; answer?: AlongsideOf<Withdrawal> } = {},
): Promise<Withdrawal> {
  if (!rules.networks[input.network ?? DEFAULT_NETWORK]) {
    throw validationFailed([{ path: 'network', message: `is not open on this stage: withdrawals are sent on ${NETWORK_NAMES.filter((network) => rules.networks[network]).join(', ')}` }]);
  }
  const minimum = minimumOn(rules, input.network ?? DEFAULT_NETWORK);
  if (input.amount < minimum) {
    throw new ApiError('AMOUNT_TOO_SMALL', `The minimum withdrawal on ${input.network ?? DEFAULT_NETWORK} is ${formatAmount(minimum, 'USDT')} USDT`, {
      minimum: formatAmount(minimum, 'USDT'),
    });
  }
  const withdrawal = newWithdrawal(companyId, { ...input, fee: feeOn(rules, input.network ?? DEFAULT_NETWORK) }, now);
  // amount and fee are held separately so the ledger shows what the fee hold was.
  const available = companyAccount(companyId, 'available');
  const locked = companyAccount(companyId, 'locked');
  const postings = [{ source: available, destination: locked, currency: 'USDT' as const, amount: input.amount }];
  if (withdrawal.fee > 0n) postings.push({ source: available, destination: locked, currency: 'USDT', amount: withdrawal.fee });
  const hold = ledgerEntry(companyId, `withdrawal:${withdrawal.id}:hold`, postings, now, withdrawal.network);
  const entry = audit?.(withdrawal);
  // Counted toward the day the limit's guard names, when one is in force.
  const counted = (limit: LimitGuard): Withdrawal => (limit.limited ? { ...withdrawal, limitDay: limit.day } : withdrawal);
  const payout = { network: withdrawal.network, address: input.address, field: 'address', amount: input.amount };
  try {
    const { limit } = await underWithdrawalPolicy(store, { contracts: rules.contracts, destinations: rules.destinations }, companyId, payout, now, (guards) => {
      const made = counted(guards.limit);
      return store.createWithdrawal(made, hold, guards, entry, answer?.(made));
    });
    return counted(limit);
  } catch (error) {
    throw await madeAlready(store, companyId, input.reference, error);
  }
}

/**
 * A request sent again after its withdrawal was made (an answer lost to a timeout, a second click)
 * meets guards its own first write changed: the balance its hold took, the day's total it counted.
 * The transaction's reference guard is never reached when a guard read before it refuses first, and
 * a 422 would tell the caller nothing was sent while the payout goes out, inviting a second one
 * under a new reference. So a refusal of a reference already taken is the contract's 409
 * DUPLICATE_REFERENCE naming the withdrawal. One read, on refusals only.
 */
async function madeAlready(store: WithdrawalStore, companyId: string, reference: string, refusal: unknown): Promise<unknown> {
  if (!(refusal instanceof ApiError) || refusal.code === 'DUPLICATE_REFERENCE' || refusal.code === 'INTERNAL_ERROR') return refusal;
  const existingId = await store.withdrawalIdByReference(companyId, reference);
  return existingId === null ? refusal : duplicateReference('withdrawal', existingId);
}

export async function getWithdrawal(store: WithdrawalStore, companyId: string, withdrawalId: string): Promise<Withdrawal> {
  return foundById('withdrawal', withdrawalId, (id) => store.getWithdrawal(companyId, id), 'Withdrawal');
}

/** The contract's record. */
export function withdrawalView(withdrawal: Withdrawal) {
  return {
    ...usdtTransferView(withdrawal),
    amount: formatAmount(withdrawal.amount, 'USDT'),
    fee: formatAmount(withdrawal.fee, 'USDT'),
    status: withdrawal.status,
    txHash: withdrawal.txHash,
    deliveredAmount: withdrawal.deliveredAmount === null ? null : formatAmount(withdrawal.deliveredAmount, 'USDT'),
    networkCost: withdrawal.networkCost === null ? null : networkCostView(withdrawal.networkCost),
    failureReason: withdrawal.failureReason,
    createdAt: withdrawal.createdAt,
    updatedAt: withdrawal.updatedAt,
    completedAt: withdrawal.completedAt,
  };
}

function networkCostView(cost: NetworkCost) {
  return { asset: cost.asset, amount: formatCoinAmount(cost), tokenAccountCreated: cost.tokenAccountCreated };
}
