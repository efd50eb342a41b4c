import { address, getTransactionMessageSize, some, type Instruction, type TransactionSigner } from '@solana/kit';
import { AuthorityType, getApproveInstruction, getCloseAccountInstruction, getCreateAssociatedTokenIdempotentInstruction, getSetAuthorityInstruction } from '@solana-program/token';
import type { Log } from '../../shared/log.ts';
import { DEPOSIT_TTL_MS } from '../../deposits/deposits.ts';
import type { ListedDepositAddress } from '../../deposits/deposit-address-filter.ts';
import { PAYOUTS_COUNTED_AT_MOST, withdrawalsIn, type WithdrawalSendingStore } from '../../withdrawals/withdrawal-sending.ts';
import { SOLANA_TRANSACTION_BYTES, TOKEN_ACCOUNT_BYTES, type SolanaChain, type TokenAccountState } from './chain.ts';
import { solanaAddressFormat } from './address.ts';
import { PAYOUT_COMPUTE_UNITS } from './payouts.ts';
import type { SolanaSweepStore } from './sweep-types.ts';
import { signedTransaction, transactionMessage, type TransactionLifetime } from './transaction-message.ts';

/**
 * Deposit token accounts opened by Cambio, so that a sweep moves many in one transaction.
 *
 * The Token program lets a token account's owner, or its delegate, move its balance, and its owner,
 * or its close authority, close it. Swept by its owner, each deposit account adds the owner's 64-byte
 * signature and 32-byte key to the sweep: six fit in a transaction's 1,232 bytes. Opened by Cambio,
 * the account has the hot wallet as its delegate for every unit (Approve) and as its close authority
 * (SetAuthority CloseAccount). The hot wallet's one signature then moves and closes some twenty a
 * transaction (./sweeps.ts sweepCapacity), and the owner's key is not needed again. The account
 * stays the owner's associated token account with the owner unchanged, which is what wallets and
 * exchanges pay into and check (@solana/spl-token's getOrCreateAssociatedTokenAccount refuses an
 * account whose owner is another; an owner handed to the hot wallet would fail such payers).
 *
 * Opened: each sweeper run reads the deposit addresses listed in the last OPENING_WINDOW_MS (every
 * network's listing, in the order made; Solana's are told by their form) and opens each Solana one
 * not opened yet whose account exists or whose deposit is still awaiting payment or confirming:
 * creates its associated token account when the payer has not (the hot wallet pays the rent, ~0.002
 * SOL, which closing the account returns to it), approves the hot wallet and names it close
 * authority, signed by the owner's key from the seed (the sweeper's alone), about five addresses a
 * transaction. Opened before it is paid, a deposit's first sweep is already the hot wallet's, twenty
 * a transaction, with no run lost to opening it after the credit (an address sent to be opened waits
 * a run, below). Only addresses given to a deposit are opened, not the owners written ahead, so no
 * rent waits on an address no one was given. A payer that created the account first is no matter
 * (the owner approves all the same); an account that could not be opened (frozen, a failed run, an
 * address listed before the window, the SOL kept for payouts) is swept by its owner's key, as before:
 * opening makes a sweep smaller, never possible or not.
 *
 * Paid for with the SOL payouts need: the rent of an unpaid deposit's account stays locked until the
 * deposit expires and a day more (below), so deposits made and never paid, one company's or the
 * ordinary traffic's, would otherwise drain the hot wallet, and every company's payouts then fail the
 * node's preflight for their fee. So a run opens nothing that would take the hot wallet's SOL below a
 * floor (openingBudget): the stage's hotWalletSolMinimum, and for each Solana payout pending or
 * processing its fee at most (its signature and PAYOUT_COMPUTE_UNITS at the priority fee cap) and the
 * rent of the token account it may create. Within that, the accounts already made (paid: the payer
 * paid their rent, only signatures are left to pay) go first; then unpaid deposits' accounts,
 * NEW_ACCOUNTS_PER_RUN at most, taken in turns company by company and NEW_ACCOUNTS_PER_COMPANY_PER_RUN
 * at most each, so that one company's unpaid deposits never take every opening. What a run leaves
 * is tried again by the next while its address is in the window.
 *
 * Reclaimed: a deposit that expires unpaid leaves its opened account empty, holding the rent. Once
 * the listing shows an address older than a deposit lives (DEPOSIT_TTL_MS, and RECLAIM_MARGIN_MS more
 * for a late payment), the hot wallet closes its account if it is empty and the hot wallet its close
 * authority, some twenty a transaction, and the rent comes back. A payment after that makes a new
 * account (the payer's), credited and swept as any.
 *
 * What the transactions do is verified by the next read, not tracked: an opening that did not land is
 * sent again while the address is in the window; the reclaim's cursor waits before an account it sent
 * to be closed until a run reads it closed, so a closing that did not land is sent again.
 * An address sent to be opened is not swept in the same run: a sweep signed by its owner, landing
 * after the opening, would fail to close it (its close authority is the hot wallet's by then).
 */

/** How far back each run looks for deposit addresses to open: an address gets ten runs' tries. */
export const OPENING_WINDOW_MS = 10 * 60_000;
/** The most opening transactions one run sends (~5 addresses each): beyond, addresses are swept by their owners. */
export const OPENINGS_PER_RUN = 20;
/** The most accounts one run creates for deposits not paid yet (their rent the hot wallet's): some 0.05 SOL a minute. */
export const NEW_ACCOUNTS_PER_RUN = 25;
/** The most of those one company's deposits take in a run: one opening transaction's worth. */
export const NEW_ACCOUNTS_PER_COMPANY_PER_RUN = 5;
/** Solana's fee for each signature a transaction carries, lamports. */
const LAMPORTS_PER_SIGNATURE = 5_000n;
/** What opening one address costs at most beyond its rent: the owner's signature, and the hot wallet's
 * of its transaction (one for five addresses: counted whole for each). */
const OPENING_FEE_EACH = 2n * LAMPORTS_PER_SIGNATURE;
/** How long after a deposit expires its empty opened account is closed: a payment may come late. */
export const RECLAIM_MARGIN_MS = 24 * 60 * 60_000;
/** Listing entries the reclaim reads a run. */
export const RECLAIM_LISTING_PAGE = 1_000;
/** Approve's amount: every unit the account will ever hold. */
const EVERY_UNIT = 2n ** 64n - 1n;

/** Whether the hot wallet may move all of `state`'s USDT and close it without its owner. */
export const isOpenedFor = (hotWallet: string, state: TokenAccountState | undefined): boolean =>
  !!state?.exists && state.delegate === hotWallet && state.delegatedAmount >= state.amount && state.closeAuthority === hotWallet;

export interface DepositAccountDeps {
  chain: SolanaChain;
  mint: string;
  store: Pick<SolanaSweepStore, 'depositAddressesListed' | 'listedAddressesAfter' | 'reclaimCursor' | 'setReclaimCursor' | 'depositsInProgress' | 'openSweeps'>;
  /** The owner's key at an address index (from the seed). */
  ownerAt(index: number): Promise<TransactionSigner>;
  /** What the hot wallet's SOL is kept for, which no opening spends (openingBudget). */
  payouts: {
    /** Solana's withdrawals (the sender's store): those pending and processing are counted. */
    store: WithdrawalSendingStore;
    /** SOLANA `hotWalletSolMinimum`, lamports: the floor with no payout waiting. */
    solMinimum: bigint;
    /** SOLANA `priorityFeeCapMicroLamports`: the most a payout offers per compute unit. */
    priorityFeeCap: bigint;
  };
  log: Log;
}

/** Opens the accounts of the deposit addresses listed in the window that are not opened yet: the addresses sent to be opened, in how many transactions. */
export async function openDepositAccounts(deps: DepositAccountDeps, hotWallet: TransactionSigner, now: Date): Promise<{ opened: string[]; transactions: number }> {
  const none = { opened: [], transactions: 0 };
  const listed = await deps.store.depositAddressesListed(new Date(now.getTime() - OPENING_WINDOW_MS).toISOString());
  const recent = listed.filter((each) => solanaAddressFormat.is(each.address));
  if (recent.length === 0) return none;
  const [states, inProgress, open] = await Promise.all([
    deps.chain.tokenAccounts(deps.mint, recent.map((each) => each.address)),
    deps.store.depositsInProgress(recent.map((each) => each.owner)),
    deps.store.openSweeps(),
  ]);
  // An address in a sweep its owner signed is left until that sweep settles: opened under it, the
  // sweep could no longer close the account, and would fail.
  const sweeping = new Set(open.flatMap((sweep) => sweep.accounts.map((account) => account.owner)));
  const toOpen = recent.filter((each) => {
    const state = states.get(each.address);
    if (state?.frozen || sweeping.has(each.address) || isOpenedFor(hotWallet.address, state)) return false;
    // No account, and the deposit completed or expired: swept and closed already, most likely;
    // opening it again would only make an empty account for the reclaim to close.
    return state?.exists || inProgress.has(each.owner.depositId);
  });
  if (toOpen.length === 0) return none;
  const { spendable, rent } = await openingBudget(deps, hotWallet.address);
  const { affordable, short } = withinBudget(toOpen, states, rent, spendable);
  if (short) deps.log.warn("deposit accounts left unopened: the hot wallet's SOL is kept for payouts", { network: 'solana', opening: affordable.length, leftUnopened: toOpen.length - affordable.length, spendableLamports: String(spendable) });
  if (affordable.length === 0) return none;
  const lifetime = await deps.chain.latestBlockhash();
  const owners = await Promise.all(affordable.map(async (each) => ({ signer: await deps.ownerAt(each.addressIndex), address: each.address, state: states.get(each.address)! })));
  const mine = owners.filter((owner) => {
    if (owner.signer.address === owner.address) return true;
    deps.log.error('the deposit seed does not give this deposit address at its index: not opened', { network: 'solana', address: owner.address });
    return false;
  });
  const opened: string[] = [];
  let transactions = 0;
  for (let rest = mine; rest.length > 0 && transactions < OPENINGS_PER_RUN; transactions++) {
    const batch = largestFitting(rest, (part) => openingMessage(hotWallet, deps.mint, lifetime, part));
    rest = rest.slice(batch.length);
    if (await sendQuietly(deps, await signedTransaction(openingMessage(hotWallet, deps.mint, lifetime, batch)), 'opening deposit accounts')) opened.push(...batch.map((owner) => owner.address));
  }
  return { opened, transactions };
}

/**
 * What a run may spend on openings, lamports: the hot wallet's SOL above the floor the payouts need
 * (the stage's minimum; for each Solana payout pending or processing, its fee at most and the rent of
 * the token account it may create), 0n at or below it; and a token account's rent. The payouts are
 * counted only as far as the SOL could cover them: past that nothing is spendable whatever the count.
 */
export async function openingBudget(deps: Pick<DepositAccountDeps, 'chain' | 'payouts'>, hotWallet: string): Promise<{ spendable: bigint; rent: bigint }> {
  const [sol, rent] = await Promise.all([deps.chain.feeBalance(hotWallet), deps.chain.rentExemptMinimum(TOKEN_ACCOUNT_BYTES)]);
  const above = sol - deps.payouts.solMinimum;
  if (above <= 0n) return { spendable: 0n, rent };
  const eachPayout = rent + payoutFeeAtMost(deps.payouts.priorityFeeCap);
  const payouts = await payoutsInFlight(deps.payouts.store, above / eachPayout + 1n);
  const spendable = above - BigInt(payouts) * eachPayout;
  return { spendable: spendable > 0n ? spendable : 0n, rent };
}

/** The most one payout pays in fees: its one signature, and its compute limit at the priority fee cap
 * (./payouts.ts: the fee is the price per unit times the limit, micro-lamports), rounded up. */
export const payoutFeeAtMost = (priorityFeeCap: bigint): bigint => LAMPORTS_PER_SIGNATURE + (priorityFeeCap * BigInt(PAYOUT_COMPUTE_UNITS) + 999_999n) / 1_000_000n;

/** Solana payouts pending or processing, counted up to `atMost` (and PAYOUTS_COUNTED_AT_MOST). */
async function payoutsInFlight(store: WithdrawalSendingStore, atMost: bigint): Promise<number> {
  const limit = atMost < BigInt(PAYOUTS_COUNTED_AT_MOST) ? Number(atMost) : PAYOUTS_COUNTED_AT_MOST;
  let counted = 0;
  for (const status of ['processing', 'pending'] as const) {
    for await (const _withdrawal of withdrawalsIn({ store }, status, null)) if (++counted >= limit) return counted;
  }
  return counted;
}

/**
 * The addresses to open, in order, within `spendable` lamports: the accounts already made (their rent
 * paid by the payer) first; then those still to create, NEW_ACCOUNTS_PER_RUN at most, taken in turns
 * company by company (each in the order listed), NEW_ACCOUNTS_PER_COMPANY_PER_RUN at most each. Each
 * costs OPENING_FEE_EACH, and `rent` where it is created; the first that no longer fits ends the list
 * (`short`).
 */
function withinBudget(toOpen: ListedDepositAddress[], states: Map<string, TokenAccountState>, rent: bigint, spendable: bigint): { affordable: ListedDepositAddress[]; short: boolean } {
  const made = toOpen.filter((each) => states.get(each.address)?.exists);
  const turns = new Map<string, ListedDepositAddress[]>();
  for (const each of toOpen.filter((candidate) => !states.get(candidate.address)?.exists)) {
    const company = turns.get(each.owner.companyId) ?? [];
    if (company.length < NEW_ACCOUNTS_PER_COMPANY_PER_RUN) company.push(each);
    turns.set(each.owner.companyId, company);
  }
  const toCreate: ListedDepositAddress[] = [];
  for (let turn = 0; turn < NEW_ACCOUNTS_PER_COMPANY_PER_RUN; turn++) for (const company of turns.values()) if (turn < company.length) toCreate.push(company[turn]!);
  const affordable: ListedDepositAddress[] = [];
  let left = spendable;
  for (const each of [...made, ...toCreate.slice(0, NEW_ACCOUNTS_PER_RUN)]) {
    const cost = OPENING_FEE_EACH + (states.get(each.address)?.exists ? 0n : rent);
    if (cost > left) return { affordable, short: true };
    left -= cost;
    affordable.push(each);
  }
  return { affordable, short: false };
}

/**
 * Closes the empty opened accounts of deposit addresses listed before deposits of their age expired,
 * a listing page a run; how many accounts the last run sent to be closed read closed now (reclaimed),
 * and how many transactions this run sent.
 *
 * The node's accepting a closing says nothing of its landing: it may be dropped, or revert whole
 * when one of its accounts is paid after the read. So the cursor moves past an address only once a
 * read finds its account not to be closed (closed, paid, not opened, frozen): it stops before the
 * first this run sends to be closed, and the next run reads again from there. An account left open
 * is never read again past the cursor, and its rent would be lost. A page with accounts to close is
 * read twice so (one getMultipleAccounts a hundred addresses, ten a page); a closing still in flight
 * at the second read is sent again, which costs a fee at most (whichever lands second fails).
 */
export async function reclaimExpiredDepositAccounts(deps: DepositAccountDeps, hotWallet: TransactionSigner, now: Date): Promise<{ closed: number; transactions: number }> {
  const before = new Date(now.getTime() - DEPOSIT_TTL_MS - RECLAIM_MARGIN_MS).toISOString();
  const cursor = await deps.store.reclaimCursor();
  const page = await deps.store.listedAddressesAfter(cursor.after, before, RECLAIM_LISTING_PAGE);
  if (page.length === 0) return { closed: 0, transactions: 0 };
  const solana = page.map((each) => each.address).filter((owner) => solanaAddressFormat.is(owner));
  const states = solana.length > 0 ? await deps.chain.tokenAccounts(deps.mint, solana) : new Map<string, TokenAccountState>();
  const closed = cursor.closing.filter((owner) => states.get(owner)?.exists === false).length;
  const toClose = solana.filter((owner) => {
    const state = states.get(owner);
    return isOpenedFor(hotWallet.address, state) && state!.amount === 0n && !state!.frozen;
  });
  const accountOf = (owner: string) => states.get(owner)!.address;
  const sent: string[] = [];
  let transactions = 0;
  if (toClose.length > 0) {
    const lifetime = await deps.chain.latestBlockhash();
    for (let rest = toClose; rest.length > 0; transactions++) {
      const batch = largestFitting(rest, (part) => closingMessage(hotWallet, lifetime, part.map(accountOf)));
      rest = rest.slice(batch.length);
      if (await sendQuietly(deps, await signedTransaction(closingMessage(hotWallet, lifetime, batch.map(accountOf))), 'closing expired deposit accounts')) sent.push(...batch);
    }
  }
  const first = toClose.length > 0 ? page.findIndex((each) => each.address === toClose[0]) : page.length;
  const after = first === 0 ? cursor.after : page[first - 1]!.sortKey;
  await deps.store.setReclaimCursor({ after, closing: sent }, now.toISOString());
  return { closed, transactions };
}

/** Per owner: its account created when missing (the hot wallet pays), the hot wallet approved for
 * every unit and named close authority, both signed by the owner. */
function openingMessage(hotWallet: TransactionSigner, mint: string, lifetime: TransactionLifetime, owners: { signer: TransactionSigner; state: TokenAccountState }[]) {
  const instructions: Instruction[] = owners.flatMap(({ signer, state }) => {
    const account = address(state.address);
    return [
      ...(state.exists ? [] : [getCreateAssociatedTokenIdempotentInstruction({ payer: hotWallet, ata: account, owner: signer.address, mint: address(mint) })]),
      getApproveInstruction({ source: account, delegate: hotWallet.address, owner: signer, amount: EVERY_UNIT }),
      getSetAuthorityInstruction({ owned: account, owner: signer, authorityType: AuthorityType.CloseAccount, newAuthority: some(hotWallet.address) }),
    ];
  });
  return transactionMessage(hotWallet, lifetime, instructions);
}

/** Each empty account closed by the hot wallet, its close authority, its rent to the hot wallet. */
function closingMessage(hotWallet: TransactionSigner, lifetime: TransactionLifetime, accounts: string[]) {
  return transactionMessage(
    hotWallet,
    lifetime,
    accounts.map((account) => getCloseAccountInstruction({ account: address(account), destination: hotWallet.address, owner: hotWallet })),
  );
}

/** The most of `items`, in order, whose transaction fits in SOLANA_TRANSACTION_BYTES, measured by kit
 * on the message as each is added. */
export function largestFitting<T>(items: T[], messageOf: (part: T[]) => Parameters<typeof getTransactionMessageSize>[0]): T[] {
  let size = 0;
  while (size < items.length && getTransactionMessageSize(messageOf(items.slice(0, size + 1))) <= SOLANA_TRANSACTION_BYTES) size++;
  if (size === 0) throw new Error('Not one item fits in a Solana transaction');
  return items.slice(0, size);
}

async function sendQuietly(deps: DepositAccountDeps, signed: { wire: string; signature: string }, what: string): Promise<boolean> {
  try {
    await deps.chain.broadcast({ wire: signed.wire });
    return true;
  } catch (error) {
    deps.log.error(`${what} failed; tried again next run`, { network: 'solana', signature: signed.signature, error: String(error) });
    return false;
  }
}
