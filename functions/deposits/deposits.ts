import { usdtTransferView, type UsdtTransfer } from './usdt-transfer.ts';
import type { Alongside, AlongsideOf } from '../shared/alongside.ts';
import { foundById, newId } from '../shared/ids.ts';
import { formatAmount } from '../shared/money.ts';
import type { DepositTerms } from '../networks/network.ts';
import type { NetworkName } from '../networks/names.ts';
import { validationFailed } from '../shared/errors.ts';
import { underSplitPolicy, type AllowlistGuard, type AllowlistReader } from '../withdrawals/withdrawal-policy.ts';
import { refuseSanctioned } from '../screening/screening.ts';
import type { ScreeningList } from '../screening/screening-list.ts';
import { refuseCambioDestination, type CambioAddresses, type StageContracts } from '../withdrawals/refused-destinations.ts';
import type { DestinationChecks } from '../networks/destination-registry.ts';

export type DepositStatus = 'awaiting_payment' | 'confirming' | 'completed' | 'expired' | 'held';

/**
 * Why a final transfer was recorded but not credited (../shared/networks.md, "The token as it is on
 * mainnet"): the token's issuer froze the deposit address (money that cannot move is never
 * available), or the paying address is on the sanctions screening list. An `address_frozen` hold
 * lifts by itself when the issuer unfreezes the address; a `sender_sanctioned` one only by a
 * person's decision (`npm run deposits:release`).
 */
export type HoldReason = 'address_frozen' | 'sender_sanctioned';

/** Contract: an unpaid deposit expires after 24 h; its address stays watched forever. */
export const DEPOSIT_TTL_MS = 24 * 60 * 60 * 1000;

export interface DepositSplit {
  address: string;
  /** Share of every confirmed transfer in basis points (12.5 % → 1250), or null when `amount` is set. */
  percentBps: number | null;
  /** Fixed USDT minor units forwarded from every confirmed transfer, or null when `percent` is set. */
  amount: bigint | null;
  forwardedAmount: bigint;
  withdrawalId: string | null;
}

export interface DepositTransaction {
  txHash: string;
  /** Position of the Transfer event in its transaction: (txHash, eventIndex) is the transfer's identity. */
  eventIndex: number;
  amount: bigint;
  blockNumber: number;
  confirmations: number;
  status: 'confirming' | 'confirmed' | 'held';
  /** Who paid: the Transfer event's `from`, screened before crediting. Absent on transfers
   * recorded before it was kept. */
  from?: string;
  /** Set while `held`. */
  holdReason?: HoldReason;
}

export interface Deposit extends UsdtTransfer {
  /** BIP44 index the address was derived at (m/44'/195'/0'/0/index): the signer needs it to sweep. */
  addressIndex: number;
  expectedAmount: bigint | null;
  receivedAmount: bigint;
  creditedAmount: bigint;
  amountStatus: null | 'exact' | 'underpaid' | 'overpaid';
  status: DepositStatus;
  confirmations: number;
  requiredConfirmations: number;
  transactions: DepositTransaction[];
  split: DepositSplit | null;
  /**
   * Credit taken back because the token's issuer froze the address after it was credited, while
   * the USDT still sat there unswept (deposit-transitions.ts freezeCredit): in `held`, out of
   * `available`, until the issuer unfreezes the address. Absent when nothing is.
   */
  frozenCredit?: bigint;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
  /** Optimistic lock: the chain jobs change a deposit only if nobody changed it since they read it. */
  version: number;
}

/** The stage's deposit terms on each network (functions/networks/network.ts NetworkKeys): null for
 * a network the stage does not open. */
export interface DepositSettings {
  termsOn(network: NetworkName, deposit: { id: string; addressIndex: number }): Promise<DepositTerms | null>;
  openNetworks(): NetworkName[];
  /** The contracts Cambio uses on each network, which a split never forwards to (refused-destinations.ts). */
  contracts: StageContracts;
  /** The chain read of a destination its form cannot settle (a Solana token account); absent, such a split is refused. */
  destinations?: DestinationChecks;
}

export interface DepositStore extends AllowlistReader, ScreeningList, CambioAddresses {
  /** The next unused derivation index, from an atomic counter: an index is never handed out twice. */
  nextAddressIndex(): Promise<number>;
  /** Writes the deposit, its reference claim and its address lookup in one transaction;
   * throws DUPLICATE_REFERENCE when the reference is taken, and answers 'allowlist', with nothing
   * written, when the allowlist `guard` of its split is found false (withdrawal-policy.ts); no guard
   * without a split. */
  /** `alongside`: written in the same transaction (the request's answer: ../shared/alongside.ts). */
  createDeposit(deposit: Deposit, splitGuard: AllowlistGuard | null, alongside?: Alongside): Promise<'written' | 'allowlist'>;
  getDeposit(companyId: string, depositId: string): Promise<Deposit | null>;
}

export interface NewDeposit {
  reference: string;
  network: NetworkName;
  amount?: bigint;
  split?: { address: string; percentBps?: number; amount?: bigint };
}

/** A deposit as it is made: awaiting payment at its own address, nothing received, open 24 h. */
export function depositAwaitingPayment(
  companyId: string,
  input: NewDeposit,
  at: { address: string; addressIndex: number },
  requiredConfirmations: number,
  now: Date,
  id: string,
): Deposit {
  const createdAt = now.toISOString();
  return {
    id,
    companyId,
    method: 'usdt',
    reference: input.reference,
    network: input.network,
    address: at.address,
    addressIndex: at.addressIndex,
    expectedAmount: input.amount ?? null,
    receivedAmount: 0n,
    creditedAmount: 0n,
    amountStatus: null,
    status: 'awaiting_payment',
    confirmations: 0,
    requiredConfirmations,
    transactions: [],
    split: input.split
      ? {
          address: input.split.address,
          percentBps: input.split.percentBps ?? null,
          amount: input.split.amount ?? null,
          forwardedAmount: 0n,
          withdrawalId: null,
        }
      : null,
    expiresAt: new Date(now.getTime() + DEPOSIT_TTL_MS).toISOString(),
    createdAt,
    updatedAt: createdAt,
    version: 0,
  };
}

export async function createDeposit(
  store: DepositStore,
  settings: DepositSettings,
  companyId: string,
  input: NewDeposit,
  now = new Date(),
  answer?: AlongsideOf<Deposit>,
): Promise<Deposit> {
  // A split forwards money as a withdrawal does: never to a destination Cambio refuses nor to a
  // sanctioned address, refused before anything is written (the address index too).
  if (input.split) {
    const split = { network: input.network, address: input.split.address, field: 'split.address' };
    const reaching = await refuseCambioDestination({ addresses: store, contracts: settings.contracts, destinations: settings.destinations }, split);
    await refuseSanctioned(store, split.network, split.address, split.field, reaching);
  }
  const id = newId('deposit', now.getTime());
  const addressIndex = await store.nextAddressIndex();
  const terms = await settings.termsOn(input.network, { id, addressIndex });
  // Refused before anything is written (the index taken above is skipped, harmlessly).
  if (!terms) throw validationFailed([{ path: 'network', message: `is not open on this stage: deposits are taken on ${settings.openNetworks().join(', ')}` }]);
  const deposit = depositAwaitingPayment(companyId, input, { address: terms.address, addressIndex }, terms.requiredConfirmations, now, id);
  // A split forwards money as a withdrawal does, so its address answers to the same allowlist.
  const alongside = answer?.(deposit);
  if (input.split) await underSplitPolicy(store, companyId, { network: input.network, address: input.split.address }, now, (guard) => store.createDeposit(deposit, guard, alongside));
  else await store.createDeposit(deposit, null, alongside);
  return deposit;
}

export async function getDeposit(store: DepositStore, companyId: string, depositId: string): Promise<Deposit> {
  return foundById('deposit', depositId, (id) => store.getDeposit(companyId, id), 'Deposit');
}

/** The deposit's hold, from its first held transfer, else its credit frozen after the fact; null when none is held. */
export function holdReasonOf(deposit: Deposit): HoldReason | null {
  return deposit.transactions.find((tx) => tx.status === 'held')?.holdReason ?? (deposit.status === 'held' && deposit.frozenCredit ? 'address_frozen' : null);
}

/** The contract's record. */
export function depositView(deposit: Deposit) {
  return {
    ...usdtTransferView(deposit),
    amount: deposit.expectedAmount === null ? null : formatAmount(deposit.expectedAmount, 'USDT'),
    receivedAmount: formatAmount(deposit.receivedAmount, 'USDT'),
    creditedAmount: formatAmount(deposit.creditedAmount, 'USDT'),
    amountStatus: deposit.amountStatus,
    status: deposit.status,
    holdReason: holdReasonOf(deposit),
    confirmations: deposit.confirmations,
    requiredConfirmations: deposit.requiredConfirmations,
    transactions: deposit.transactions.map((tx) => ({
      txHash: tx.txHash,
      amount: formatAmount(tx.amount, 'USDT'),
      blockNumber: tx.blockNumber,
      confirmations: tx.confirmations,
      // A held transfer is final on chain; the deposit's status and holdReason say it is held.
      status: tx.status === 'held' ? ('confirmed' as const) : tx.status,
    })),
    split: deposit.split && {
      address: deposit.split.address,
      percent: deposit.split.percentBps === null ? null : deposit.split.percentBps / 100,
      amount: deposit.split.amount === null ? null : formatAmount(deposit.split.amount, 'USDT'),
      forwardedAmount: formatAmount(deposit.split.forwardedAmount, 'USDT'),
      withdrawalId: deposit.split.withdrawalId,
    },
    expiresAt: deposit.expiresAt,
    createdAt: deposit.createdAt,
    updatedAt: deposit.updatedAt,
  };
}
