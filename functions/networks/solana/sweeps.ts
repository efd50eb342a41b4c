import {
  address,
  createKeyPairSignerFromPrivateKeyBytes,
  generateKeyPairSigner,
  getTransactionMessageSize,
  type Instruction,
  type KeyPairSigner,
  type TransactionSigner,
} from '@solana/kit';
import { getCloseAccountInstruction, getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import { broadcastOwned, TransactionIdTaken, type TransactionClaims } from '../../withdrawals/payouts.ts';
import { setAsideFrozen, type FrozenAmong, type UsdtAt } from '../../deposits/frozen-addresses.ts';
import { stderrLog, type Log } from '../../shared/log.ts';
import { parseAmount } from '../../shared/money.ts';
import { needed } from '../../settings/schema.ts';
import { DynamoTransactionClaims } from '../../adapters/dynamo/transaction-claims.ts';
import { DynamoWithdrawalSendingStore } from '../../adapters/dynamo/withdrawal-sending-store.ts';
import type { JobTable } from '../network.ts';
import { SOLANA_TRANSACTION_BYTES, type SolanaChain, type TokenAccountState } from './chain.ts';
import { transactionErrorCode } from './rpc-chain.ts';
import { solanaChainOf, solanaSettingsOf } from './from-settings.ts';
import { asTransactionSigner, solanaSignerFrom, type SolanaSigner } from './signer.ts';
import type { SliceSettings } from '../../settings/functions.ts';
import { depositSeedOf, deriveDepositOwner, nextAddressIndex, secretsManagerDepositSeed, writeDepositOwnersAhead } from './deposit-owners.ts';
import { DynamoSolanaSweepStore } from './sweep-store.ts';
import { solanaSweepOwner } from './sweep-record.ts';
import type { SolanaSweep, SolanaSweepStore, SweptTokenAccount } from './sweep-types.ts';
import { USDT_DECIMALS } from './token-accounts.ts';
import { duePages } from '../../deposits/due-list.ts';
import { NO_COUNTS, sweepAmount, unrecordedAt, wholeSweepOf, type SweepCounts } from '../../deposits/sweep-amount.ts';
import { signedTransaction, transactionMessage, type TransactionLifetime } from './transaction-message.ts';
import { isOpenedFor, largestFitting, type DepositAccountDeps } from './deposit-accounts.ts';

/**
 * Sweeps on Solana: a credited deposit's USDT waits in the associated token account of its deposit
 * address, a wallet (the "owner") whose key is derived from the deposit seed only the sweeper holds
 * (./deposit-owners.ts says why: Ed25519 has no public derivation, so the sweeper writes the owners
 * ahead for deposit creation to read, and signs for them here). One transaction moves many deposit
 * token accounts to the hot wallet's:
 *
 * - The hot wallet is the fee payer, so a deposit address never needs SOL (no top-up, as TRON
 *   needs). Its own token account is created in the sweep (createAssociatedTokenIdempotent) when it
 *   has none yet.
 * - Per deposit address: `transferChecked` of its whole USDT balance (read fresh when signed) from
 *   its token account to the hot wallet's, then `closeAccount` with the hot wallet as destination:
 *   the account's rent (~0.002 SOL) comes back to the wallet that pays the fees. Both are signed by
 *   the hot wallet where Cambio opened the account (./deposit-accounts.ts: the hot wallet is its
 *   delegate and close authority), else by the deposit owner's derived key.
 * - A transaction is at most SOLANA_TRANSACTION_BYTES (1,232). An opened account adds its 32 bytes
 *   and the two instructions: some twenty fit. One signed by its owner adds the owner's 64-byte
 *   signature and 32-byte key besides: about six fit. A sweep holds as many deposit accounts as its
 *   encoded size allows, measured with kit on the message itself as each account is added
 *   (sweepCapacity), and a run signs several sweeps when more are due. (Address lookup tables would
 *   fit more; the local node refuses them.)
 * - A frozen token account cannot send and would fail the whole transaction: it is set aside before
 *   anything is built (functions/deposits/frozen-addresses.ts, `held`), and goes back to the due list
 *   once the issuer thaws it. An address below the minimum is left with its USDT and marked so
 *   (belowMinimum), as the other families do.
 * - Each sweep is stored, its signed transaction and signature, before its broadcast, with a mark per
 *   address it moves (./sweep-record.ts): a second sweep of an address cannot be stored while one is
 *   in flight, whichever sweeper signs it; its signature is claimed for it
 *   (functions/withdrawals/payouts.ts). A crash after the write leaves a stored sweep the next run
 *   broadcasts again.
 * - It settles by its signature's status at `finalized`: success → done (the addresses, now closed,
 *   are cleared from the due list by the same run's next read), an error → failed (the addresses
 *   stay due and are swept again). A transaction that did not land by its blockhash's
 *   lastValidBlockHeight never will: once the finalized block height is past it and no node knows any
 *   version of the sweep, it is signed again on a new blockhash, with the balances read afresh;
 *   never before, so two versions can never both land. After MAX_SWEEP_VERSIONS versions that never
 *   landed it fails instead, and its addresses are swept afresh.
 * - No priority fee (no compute-budget instruction, unlike a payout's): a sweep is not urgent, and
 *   one that does not land in congestion is signed again.
 * - The ledger does not change: treasury moving between Cambio's own wallets.
 */

/** The deposit owners' keys, from the seed (./deposit-owners.ts). */
export interface DepositOwnerKeys {
  /** The owner's key at `index`, as kit's signer. */
  signerAt(index: number): Promise<KeyPairSigner>;
}

export interface SolanaSweepDeps {
  chain: SolanaChain;
  /** USDT's mint. */
  mint: string;
  /** The hot wallet as kit's signer of transactions (./signer.ts asTransactionSigner): the fee payer. */
  hotWallet: () => Promise<TransactionSigner>;
  owners: DepositOwnerKeys;
  store: SolanaSweepStore;
  claims: TransactionClaims;
  /** `minimumSweep`: USDT (minor units) below which an address is left; `sweepsPerRun`: the most
   * transactions one run signs (SWEEPS_PER_RUN). */
  settings: { minimumSweep: bigint; sweepsPerRun?: number };
  now?: () => Date;
  log?: Log;
  /** Deposit addresses sent to be opened this run (./deposit-accounts.ts), swept from the next. */
  openingNow?: ReadonlySet<string>;
}

export interface SolanaSweepResult {
  /** Sweep transactions signed, stored and broadcast this run. */
  sent: number;
  /** Deposit addresses in them. */
  swept: number;
  /** Stored sweeps sent again (a lost broadcast), their blockhash still valid. */
  rebroadcast: number;
  /** Sweeps signed again on a new blockhash: the old version could no longer land. */
  resigned: number;
  /** Sweeps final this run: landed, or failed on chain or before it could be signed again. */
  done: number;
  failed: number;
  /** Open sweeps whose transaction is in a block not final yet. */
  landing: number;
  /** Due addresses found empty (a sweep closed their account) or below the minimum: no longer due. */
  cleared: number;
  /** Of those, the ones left holding USDT below the minimum. */
  belowMinimum: number;
  /** Due addresses left out this run: they hold USDT the scanner has not recorded yet. */
  waiting: number;
  /** Due addresses whose token account the issuer froze, set aside this run (held). */
  frozen: number;
  /** Due addresses whose key the seed does not give: left due, and logged as an error. */
  unknownOwners: number;
  /** Sweeps signed but not stored: another sweeper had one of their addresses in flight first. */
  contended: number;
}

/** The most sweep transactions one run signs: ~60 deposit addresses a minute. */
export const SWEEPS_PER_RUN = 10;
/** Versions of one sweep signed, each after the one before expired unlanded, before it is failed
 * instead (NEVER_LANDED): a node that refuses it every time (its preflight) would otherwise grow
 * its record without end. Its addresses stay due: the next run starts a sweep afresh. */
export const MAX_SWEEP_VERSIONS = 10;

/** Settles the open sweeps, then signs, stores and broadcasts sweeps of the due addresses. */
export async function sweepSolanaDepositAddresses(deps: SolanaSweepDeps): Promise<SolanaSweepResult> {
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? stderrLog;
  const result: SolanaSweepResult = { sent: 0, swept: 0, rebroadcast: 0, resigned: 0, done: 0, failed: 0, landing: 0, cleared: 0, belowMinimum: 0, waiting: 0, frozen: 0, unknownOwners: 0, contended: 0 };
  const hotWallet = await deps.hotWallet();
  const open = await settleSweeps(deps, hotWallet, result, now, log);
  const sweepsPerRun = deps.settings.sweepsPerRun ?? SWEEPS_PER_RUN;
  const due = await dueAccounts(deps, hotWallet, open, (await sweepCapacity({ opened: true })) * sweepsPerRun, result, log);
  if (due.length === 0) return result;
  const [blockhash, hotAccount] = await Promise.all([deps.chain.latestBlockhash(), hotWalletAccount(deps, hotWallet.address)]);
  let rest = due;
  for (let sweeps = 0; rest.length > 0 && sweeps < sweepsPerRun; sweeps++) {
    const batch = largestBatch(hotWallet, deps.mint, hotAccount, blockhash, rest);
    rest = rest.slice(batch.length);
    const sweep = await signAndStore(deps, hotWallet, hotAccount, blockhash, batch, now, log);
    if (!sweep) {
      result.contended++;
      continue;
    }
    result.sent++;
    result.swept += batch.length;
    await broadcast(deps, sweep, log);
  }
  return result;
}

/** A due address ready to sweep: its token account as read now, and who signs for it: the hot
 * wallet where Cambio opened it, else the owner's key. */
interface DueAccount extends SweptTokenAccount {
  authority: TransactionSigner;
}

/**
 * The due addresses worth sweeping, up to `wanted`, read a page at a time: those in an open sweep
 * wait for it; frozen ones are set aside; empty ones (closed by a finished sweep) and those below the
 * minimum are cleared on the way, so they never fill a page run after run.
 */
async function dueAccounts(deps: SolanaSweepDeps, hotWallet: TransactionSigner, open: SolanaSweep[], wanted: number, result: SolanaSweepResult, log: Log): Promise<DueAccount[]> {
  const sweeping = new Set([...open.flatMap((sweep) => sweep.accounts.map((account) => account.owner)), ...(deps.openingNow ?? [])]);
  const found: DueAccount[] = [];
  const pageSize = Math.max(wanted, 50);
  for await (const page of duePages(deps.store, pageSize, () => found.length < wanted)) {
    const unswept = page.filter((due) => !sweeping.has(due.address));
    const [states, counts] =
      unswept.length > 0
        ? await Promise.all([deps.chain.tokenAccounts(deps.mint, unswept.map((due) => due.address)), deps.store.sweepCountsAtEach(unswept.map((due) => due.address))])
        : [new Map<string, TokenAccountState>(), new Map<string, SweepCounts>()];
    // The issuer's freeze as the same read shows it: set aside before anything is built.
    const frozenNow: FrozenAmong = async (owners) => new Set(owners.filter((owner) => states.get(owner)?.frozen));
    const frozen = await setAsideFrozen(deps.store, frozenNow, unswept.map((due) => due.address), async (owners) => new Map(owners.map((owner) => [owner, states.get(owner)?.amount ?? 0n])));
    result.frozen += frozen.size;
    for (const due of unswept.filter((candidate) => !frozen.has(candidate.address))) {
      const state = states.get(due.address);
      const amount = state?.exists ? state.amount : 0n;
      // A sweep moves the account's whole balance (it is closed after), a payment the scanner has
      // not recorded (nor screened) with the rest: the address waits, still due, until it is
      // recorded (confirming, it is off the due page until judged; credited, swept whole; a
      // sanctioned payer's, held in place).
      const whole = wholeSweepOf(amount, counts.get(due.address) ?? NO_COUNTS, 1n, log, { network: 'solana', address: due.address });
      if ('waits' in whole) {
        if (whole.waits === 'unrecorded') result.waiting++;
        continue;
      }
      if (amount < deps.settings.minimumSweep) {
        await deps.store.clearDue(due.address, amount);
        result.cleared++;
        if (amount > 0n) result.belowMinimum++;
        continue;
      }
      if (found.length >= wanted) continue;
      const authority = await authorityFor(deps, hotWallet, due, state);
      if (!authority) {
        log.error('the deposit seed does not give this deposit address at its index: not swept', { network: 'solana', address: due.address, addressIndex: due.addressIndex });
        result.unknownOwners++;
        continue;
      }
      found.push({ owner: due.address, addressIndex: due.addressIndex, tokenAccount: state!.address, amount, rent: state!.lamports, authority, ...(whole.takenOffCounts && { takenOffCounts: whole.takenOffCounts }) });
    }
  }
  return found;
}

/** Who signs for a deposit account's sweep: the hot wallet where Cambio opened it, else its owner's
 * key from the seed; null when the seed does not give the address at its index. */
async function authorityFor(deps: SolanaSweepDeps, hotWallet: TransactionSigner, due: { address: string; addressIndex: number }, state: TokenAccountState | undefined): Promise<TransactionSigner | null> {
  if (isOpenedFor(hotWallet.address, state)) return hotWallet;
  const signer = await deps.owners.signerAt(due.addressIndex);
  return signer.address === due.address ? signer : null;
}

/** The hot wallet's token account, and whether it exists yet. */
async function hotWalletAccount(deps: SolanaSweepDeps, wallet: string): Promise<{ address: string; exists: boolean }> {
  const state = (await deps.chain.tokenAccounts(deps.mint, [wallet])).get(wallet);
  if (!state) throw new Error(`The Solana node gave no token account for the hot wallet ${wallet}`);
  return { address: state.address, exists: state.exists };
}

/** A sweep's message: the hot wallet pays; its token account created when missing; then each
 * account's whole balance moved and the account closed to the hot wallet. */
function sweepMessage(
  hotWallet: TransactionSigner,
  mint: string,
  hotAccount: { address: string; exists: boolean },
  lifetime: TransactionLifetime,
  accounts: { authority: TransactionSigner; tokenAccount: string; amount: bigint }[],
) {
  const destination = address(hotAccount.address);
  const instructions: Instruction[] = [];
  if (!hotAccount.exists) instructions.push(getCreateAssociatedTokenIdempotentInstruction({ payer: hotWallet, ata: destination, owner: hotWallet.address, mint: address(mint) }));
  for (const account of accounts) {
    const source = address(account.tokenAccount);
    instructions.push(
      getTransferCheckedInstruction({ source, mint: address(mint), destination, authority: account.authority, amount: account.amount, decimals: USDT_DECIMALS }),
      getCloseAccountInstruction({ account: source, destination: hotWallet.address, owner: account.authority }),
    );
  }
  return transactionMessage(hotWallet, lifetime, instructions);
}

/** The most of `due`, in order, whose sweep's encoded transaction (signatures included) fits. */
function largestBatch<A extends { authority: TransactionSigner; tokenAccount: string; amount: bigint }>(
  hotWallet: TransactionSigner,
  mint: string,
  hotAccount: { address: string; exists: boolean },
  lifetime: TransactionLifetime,
  due: A[],
): A[] {
  return largestFitting(due, (part) => sweepMessage(hotWallet, mint, hotAccount, lifetime, part));
}

let capacities: Promise<Record<'owned' | 'opened', { withHotAccount: number; withoutHotAccount: number }>> | undefined;

/**
 * How many deposit accounts one sweep holds, from the encoded size of sweeps of throwaway keys
 * (every address is 32 bytes, every signature 64: the count alone sets the size): with the hot
 * wallet's token account created in it (`createsHotWalletAccount`, the smaller) or not; of accounts
 * Cambio opened (`opened`: the hot wallet signs for them) or of accounts their owners sign for.
 */
export async function sweepCapacity({ createsHotWalletAccount = true, opened = false }: { createsHotWalletAccount?: boolean; opened?: boolean } = {}): Promise<number> {
  capacities ??= (async () => {
    const payer = await generateKeyPairSigner();
    const lifetime = { blockhash: payer.address, lastValidBlockHeight: 0n };
    const accounts = async (authority: () => Promise<TransactionSigner>) =>
      Promise.all(Array.from({ length: 40 }, async () => ({ authority: await authority(), tokenAccount: (await generateKeyPairSigner()).address, amount: 2n ** 63n })));
    const fits = (due: { authority: TransactionSigner; tokenAccount: string; amount: bigint }[]) => ({
      withHotAccount: largestBatch(payer, payer.address, { address: payer.address, exists: false }, lifetime, due).length,
      withoutHotAccount: largestBatch(payer, payer.address, { address: payer.address, exists: true }, lifetime, due).length,
    });
    return { owned: fits(await accounts(generateKeyPairSigner)), opened: fits(await accounts(async () => payer)) };
  })();
  capacities.catch(() => (capacities = undefined));
  const of = (await capacities)[opened ? 'opened' : 'owned'];
  return createsHotWalletAccount ? of.withHotAccount : of.withoutHotAccount;
}

/** Signs the batch's sweep and stores it; null when another sweeper holds one of its addresses. */
async function signAndStore(
  deps: SolanaSweepDeps,
  hotWallet: TransactionSigner,
  hotAccount: { address: string; exists: boolean },
  lifetime: TransactionLifetime,
  batch: DueAccount[],
  now: () => Date,
  log: Log,
): Promise<SolanaSweep | null> {
  const signed = await signedSweep(hotWallet, deps.mint, hotAccount, lifetime, batch);
  const at = now().toISOString();
  const sweep: SolanaSweep = {
    id: signed.signature,
    status: 'sending',
    wallet: hotWallet.address,
    accounts: batch.map(sweptAccount),
    amount: sum(batch.map((account) => account.amount)),
    rent: sum(batch.map((account) => account.rent)),
    createsHotWalletAccount: !hotAccount.exists,
    ...signed,
    earlierSignatures: [],
    // Broadcast right after this write: stored as sent now, so a sweep costs no second write.
    broadcastAt: at,
    failureReason: null,
    createdAt: at,
    updatedAt: at,
  };
  try {
    if ((await deps.store.storeSweep(sweep)) === 'written') return sweep;
    log.warn('a deposit address of the sweep is in another open sweep; not sent', { network: 'solana', sweepId: sweep.id });
    return null;
  } catch (error) {
    if (!(error instanceof TransactionIdTaken)) throw error;
    log.warn('sweep signature already claimed by another payout; not sent', { network: 'solana', signature: error.txId });
    return null;
  }
}

async function signedSweep(
  hotWallet: TransactionSigner,
  mint: string,
  hotAccount: { address: string; exists: boolean },
  lifetime: TransactionLifetime,
  accounts: { authority: TransactionSigner; tokenAccount: string; amount: bigint }[],
): Promise<{ signature: string; wire: string; lastValidBlockHeight: bigint }> {
  const message = sweepMessage(hotWallet, mint, hotAccount, lifetime, accounts);
  const size = getTransactionMessageSize(message);
  if (size > SOLANA_TRANSACTION_BYTES) throw new Error(`A Solana sweep of ${accounts.length} accounts is ${size} bytes, over ${SOLANA_TRANSACTION_BYTES}`);
  return { ...(await signedTransaction(message)), lastValidBlockHeight: lifetime.lastValidBlockHeight };
}

/** Sends the stored sweep's newest version. A failure is logged, not thrown: the other sweeps still
 * go, and the stored one is sent again next run, or signed again once its blockhash has expired. */
async function broadcast(deps: SolanaSweepDeps, sweep: SolanaSweep, log: Log): Promise<boolean> {
  try {
    await broadcastOwned(deps.chain, deps.claims, sweep.signature, { wire: sweep.wire }, solanaSweepOwner(sweep.id, sweep.createdAt));
    return true;
  } catch (error) {
    log.error('sweep broadcast failed; sent again next run, or signed again once its blockhash expires', { network: 'solana', sweepId: sweep.id, signature: sweep.signature, error: String(error) });
    return false;
  }
}

/**
 * Settles the open sweeps by their signatures' statuses (every version's: any one may have landed),
 * then sends again those no node knows: the same transaction while its blockhash may still land, a
 * new version once the finalized block height is past its lastValidBlockHeight. Returns the sweeps
 * still open.
 */
async function settleSweeps(deps: SolanaSweepDeps, hotWallet: TransactionSigner, result: SolanaSweepResult, now: () => Date, log: Log): Promise<SolanaSweep[]> {
  const open = await deps.store.openSweeps();
  if (open.length === 0) return [];
  // Read before the statuses: a version not known after this height was read can no longer land
  // if its lastValidBlockHeight is below the height.
  const finalHeight = await deps.chain.blockHeight('finalized');
  const versionsOf = (sweep: SolanaSweep) => [sweep.signature, ...sweep.earlierSignatures];
  const statuses = await deps.chain.signatureStatuses(open.flatMap(versionsOf));
  const stillOpen: SolanaSweep[] = [];
  let read = 0;
  for (const sweep of open) {
    const versions = versionsOf(sweep);
    const seen = versions.map((signature, i) => ({ signature, status: statuses[read + i] ?? null })).filter(({ status }) => status !== null);
    // One version at most can move the accounts; yet a newer one, signed while a lagging provider
    // did not show an earlier one landed, can land too and fail (the accounts closed): the one that
    // succeeded is what happened, whichever is newer.
    const known = seen.find(({ status }) => status!.err === null || status!.err === undefined) ?? seen[0];
    read += versions.length;
    if (known) {
      if (known.status!.confirmationStatus !== 'finalized') {
        result.landing++;
        stillOpen.push(sweep);
        continue;
      }
      const done = known.status!.err === null || known.status!.err === undefined;
      const after: SolanaSweep = {
        ...sweep,
        status: done ? 'done' : 'failed',
        signature: known.signature,
        earlierSignatures: versions.filter((signature) => signature !== known.signature),
        failureReason: done ? null : transactionErrorCode(known.status!.err),
        updatedAt: now().toISOString(),
      };
      // What each account moved comes off its counts before the sweep is saved done (a crash
      // between settles it again, and takes nothing twice).
      if (done) await deps.store.takeOffCounts(sweep.id, sweep.accounts.flatMap((account) => (account.takenOffCounts ? [{ address: account.owner, taken: account.takenOffCounts }] : [])));
      if (await deps.store.saveSweep(sweep, after)) {
        result[done ? 'done' : 'failed']++;
        if (!done) log.error('sweep failed on chain; its addresses stay due', { network: 'solana', sweepId: sweep.id, signature: known.signature, error: after.failureReason });
      }
      continue;
    }
    if (finalHeight <= sweep.lastValidBlockHeight) {
      stillOpen.push(sweep);
      if (await broadcast(deps, sweep, log)) result.rebroadcast++;
      continue;
    }
    const signedAgain = await signAgain(deps, hotWallet, sweep, now, log);
    if (signedAgain === 'failed') result.failed++;
    else {
      if (signedAgain === 'signed') result.resigned++;
      stillOpen.push(sweep);
    }
  }
  return stillOpen;
}

/**
 * A new version of a sweep no version of which can land any more: the same deposit accounts, their
 * balances read afresh (a payment since would otherwise leave a balance that closing refuses), on a
 * new blockhash; stored (its signature claimed, the old one kept among the earlier) before it is
 * sent. A frozen account fails the sweep instead, and its addresses stay due for the next run to
 * set aside; an account already closed means a version landed that no node shows yet: it waits.
 */
async function signAgain(deps: SolanaSweepDeps, hotWallet: TransactionSigner, sweep: SolanaSweep, now: () => Date, log: Log): Promise<'signed' | 'failed' | 'waiting'> {
  const at = now().toISOString();
  if (1 + sweep.earlierSignatures.length >= MAX_SWEEP_VERSIONS) {
    log.error('sweep never landed in its versions; failed, its addresses stay due', { network: 'solana', sweepId: sweep.id, versions: MAX_SWEEP_VERSIONS });
    return (await deps.store.saveSweep(sweep, { ...sweep, status: 'failed', failureReason: NEVER_LANDED, updatedAt: at })) ? 'failed' : 'waiting';
  }
  const states = await deps.chain.tokenAccounts(deps.mint, sweep.accounts.map((account) => account.owner));
  if (sweep.accounts.some((account) => !states.get(account.owner)?.exists)) {
    log.warn('a deposit account of an expired sweep is closed, yet no node knows the sweep: waiting for its status', { network: 'solana', sweepId: sweep.id });
    return 'waiting';
  }
  if (sweep.accounts.some((account) => states.get(account.owner)!.frozen)) {
    const failed: SolanaSweep = { ...sweep, status: 'failed', failureReason: TOKEN_ACCOUNT_FROZEN, updatedAt: at };
    return (await deps.store.saveSweep(sweep, failed)) ? 'failed' : 'waiting';
  }
  // Read afresh, a balance may hold a payment the scanner has not recorded: the sweep fails, and its
  // addresses, still due, are read again by the next run, which leaves such an address out.
  const counts = await deps.store.sweepCountsAtEach(sweep.accounts.map((account) => account.owner));
  const countsOf = (owner: string) => counts.get(owner) ?? NO_COUNTS;
  if (sweep.accounts.some((account) => unrecordedAt(states.get(account.owner)!.amount, countsOf(account.owner), 1n) > 0n)) {
    const failed: SolanaSweep = { ...sweep, status: 'failed', failureReason: UNRECORDED_PAYMENT, updatedAt: at };
    return (await deps.store.saveSweep(sweep, failed)) ? 'failed' : 'waiting';
  }
  const accounts = await Promise.all(
    sweep.accounts.map(async (account) => {
      const state = states.get(account.owner)!;
      // Its owner was checked against the seed when the sweep was first signed.
      const authority = isOpenedFor(hotWallet.address, state) ? hotWallet : await deps.owners.signerAt(account.addressIndex);
      const { takenOffCounts } = sweepAmount(state.amount, countsOf(account.owner));
      const { takenOffCounts: _planned, ...rest } = account;
      return { ...rest, amount: state.amount, rent: state.lamports, authority, ...(takenOffCounts && { takenOffCounts }) };
    }),
  );
  const [lifetime, hotAccount] = await Promise.all([deps.chain.latestBlockhash(), hotWalletAccount(deps, hotWallet.address)]);
  const signed = await signedSweep(hotWallet, deps.mint, hotAccount, lifetime, accounts);
  const after: SolanaSweep = {
    ...sweep,
    accounts: accounts.map(sweptAccount),
    amount: sum(accounts.map((account) => account.amount)),
    rent: sum(accounts.map((account) => account.rent)),
    createsHotWalletAccount: !hotAccount.exists,
    ...signed,
    earlierSignatures: [sweep.signature, ...sweep.earlierSignatures],
    broadcastAt: at,
    updatedAt: at,
  };
  if (!(await deps.store.saveSweep(sweep, after))) return 'waiting'; // another sweeper got there first
  log.warn('sweep expired unlanded; signed again on a new blockhash', { network: 'solana', sweepId: sweep.id, expired: sweep.signature, signature: after.signature });
  await broadcast(deps, after, log);
  return 'signed';
}

/** Why a sweep failed when none of its MAX_SWEEP_VERSIONS versions landed. */
export const NEVER_LANDED = 'NEVER_LANDED';
/** Why a sweep failed when the issuer froze one of its accounts before it could be signed again. */
export const TOKEN_ACCOUNT_FROZEN = 'TOKEN_ACCOUNT_FROZEN';
/** Why a sweep failed when, read again to sign it afresh, one of its accounts held a payment the scanner had not recorded. */
export const UNRECORDED_PAYMENT = 'UNRECORDED_PAYMENT';

/** What a sweep keeps of a due account: all but who signs for it. */
const sweptAccount = ({ owner, addressIndex, tokenAccount, amount, rent, takenOffCounts }: SweptTokenAccount): SweptTokenAccount => ({ owner, addressIndex, tokenAccount, amount, rent, ...(takenOffCounts && { takenOffCounts }) });

const sum = (amounts: bigint[]): bigint => amounts.reduce((total, amount) => total + amount, 0n);

/** Owners' keys kept by a warm sweeper: a sweep signed again signs for the same addresses. */
const OWNER_KEYS_KEPT = 10_000;

/** The owners' keys from the seed (./deposit-owners.ts), derived when first asked and kept. */
export function depositOwnerKeys(seed: () => Promise<Uint8Array>): DepositOwnerKeys {
  const signers = new Map<number, Promise<KeyPairSigner>>();
  return {
    signerAt(index) {
      let signer = signers.get(index);
      if (!signer) {
        if (signers.size >= OWNER_KEYS_KEPT) signers.clear();
        signer = seed().then((bytes) => createKeyPairSignerFromPrivateKeyBytes(deriveDepositOwner(bytes, index).secretKey));
        signer.catch(() => signers.delete(index));
        signers.set(index, signer);
      }
      return signer;
    },
  };
}

/** What the sweeper's settings say of Solana (FunctionSettings<'jobs/deposit-sweeper'> has them). */
export type SolanaSweeperSettings = Pick<SliceSettings<'chain'>, 'SOLANA'> & { SOLANA_SIGNER_KMS_KEY_ID?: string; SWEEP_MINIMUM_USDT: bigint };

/** Solana's sweeper, built once per warm function: what a run needs (`deps`), and the deposit
 * owners' top-up it does first. */
export interface SolanaSweeper {
  deps: SolanaSweepDeps;
  /** The hot wallet's signer (its address: the token's standing, its SOL). */
  hotWallet: SolanaSigner;
  /** The issuer's freeze list, read for the addresses set aside (returnUnfrozen). */
  frozenAmong: FrozenAmong;
  /** What USDT each owner's token account holds (the review of below-minimum addresses). */
  usdtAt: UsdtAt;
  /** Lamports below which the hot wallet's SOL counts HotWalletGasLow. */
  hotWalletSolMinimum: bigint;
  /** Writes the deposit owners up to `depositOwnersAhead` past the address index counter; the
   * blocks written. */
  writeOwnersAhead(now?: Date): Promise<number>;
  /** What opening and reclaiming deposit accounts need (./deposit-accounts.ts). */
  depositAccounts: DepositAccountDeps;
}

/**
 * The sweeper from the function's settings and the table (the deposit-sweeper job's, through
 * ./jobs.ts): the stage's chain (./from-settings.ts), the hot wallet (KMS, or the local key), the
 * deposit seed (SOLANA's `localDepositSeed` locally, else the Secrets Manager secret
 * `depositSeedSecret`, granted to this function alone). `chain`: another reader of the same node (a
 * test's).
 */
export function solanaSweepDepsFrom(settings: SolanaSweeperSettings, { db, tableName }: JobTable, { chain }: { chain?: SolanaChain } = {}): SolanaSweeper {
  const network = solanaSettingsOf(settings);
  const reader = chain ?? solanaChainOf(settings);
  const seed = network.localDepositSeed
    ? async () => depositSeedOf(network.localDepositSeed!)
    : secretsManagerDepositSeed(needed(network.depositSeedSecret, 'SOLANA', 'no localDepositSeed: depositSeedSecret holds the deposit seed'));
  const hotWallet = solanaSignerFrom(settings);
  let feePayer: Promise<TransactionSigner> | undefined;
  const deps: SolanaSweepDeps = {
    chain: reader,
    mint: network.usdtMint,
    hotWallet: () => {
      feePayer ??= asTransactionSigner(hotWallet);
      feePayer.catch(() => (feePayer = undefined));
      return feePayer;
    },
    owners: depositOwnerKeys(seed),
    store: new DynamoSolanaSweepStore(db, tableName),
    claims: new DynamoTransactionClaims(db, tableName),
    settings: { minimumSweep: network.sweepMinimumUsdt === undefined ? settings.SWEEP_MINIMUM_USDT : parseAmount(network.sweepMinimumUsdt, 'USDT') },
  };
  return {
    deps,
    hotWallet,
    frozenAmong: (owners) => reader.frozenAmong(network.usdtMint, owners),
    usdtAt: async (owners) => new Map([...(await reader.tokenAccounts(network.usdtMint, owners))].map(([owner, state]) => [owner, state.amount])),
    hotWalletSolMinimum: BigInt(network.hotWalletSolMinimum),
    writeOwnersAhead: async (now = new Date()) => writeDepositOwnersAhead(db, tableName, seed, await nextAddressIndex(db, tableName), network.depositOwnersAhead, now),
    depositAccounts: {
      chain: reader,
      mint: network.usdtMint,
      store: deps.store,
      ownerAt: (index) => deps.owners.signerAt(index),
      // Opening leaves the SOL Solana's payouts need (./deposit-accounts.ts openingBudget).
      payouts: { store: new DynamoWithdrawalSendingStore(db, tableName, 'solana'), solMinimum: BigInt(network.hotWalletSolMinimum), priorityFeeCap: BigInt(network.priorityFeeCapMicroLamports) },
      log: stderrLog,
    },
  };
}
