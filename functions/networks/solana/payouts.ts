import { COMPUTE_BUDGET_PROGRAM_ADDRESS, ComputeBudgetInstruction, getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction, getSetComputeUnitPriceInstructionDataDecoder } from '@solana-program/compute-budget';
import { address, getBase64Encoder, getCompiledTransactionMessageDecoder, getTransactionDecoder, type Address, type Instruction, type TransactionPartialSigner } from '@solana/kit';
import { getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import type { SolanaChain, TokenAccountState } from './chain.ts';
import { associatedTokenAccount, USDT_DECIMALS } from './token-accounts.ts';
import { isSolanaWallet } from './address.ts';
import { memoInstruction, signedTransaction, transactionMessage, type TransactionLifetime } from './transaction-message.ts';

/**
 * A payout on Solana: one transaction from the hot wallet, which pays its fee, to a payee's wallet.
 * USDT moves between associated token accounts (`transferChecked`, the mint's 6 decimals checked by
 * the Token program), and a payee that has none gets one in the same transaction
 * (`createAssociatedTokenIdempotent`, its rent paid by the hot wallet: part of the payout's cost on
 * the network). A Memo instruction carries the withdrawal's id: two equal payouts built on the same
 * blockhash are then different messages, so different signatures (functions/withdrawals/payouts.ts),
 * while the same withdrawal signed twice on one blockhash is the same transaction (Ed25519 is
 * deterministic) and can land at most once.
 *
 * Its priority fee is the recent fee of transactions writing the hot wallet's token account, held
 * under the stage's cap (SOLANA `priorityFeeCapMicroLamports`), over a compute limit set to what a
 * payout uses with room: the fee is price × limit, so a limit at the runtime's default (200,000 a
 * instruction) would pay for compute the payout never uses.
 */

/** Compute units a payout may use: creating a token account (~25,000), transferChecked (~6,200), the
 * memo (~13,000 for a ULID) and the compute-budget instructions (150 each), with room. */
export const PAYOUT_COMPUTE_UNITS = 60_000;


/** What the payouts built together read of the chain once: the blockhash, the payees' token
 * accounts, the hot wallet's own, and the priority fee. */
export interface PayoutConditions {
  blockhash: TransactionLifetime;
  /** By payee wallet, each with its associated token account's address (derived, not read). */
  tokenAccounts: Map<string, TokenAccountState>;
  /** The hot wallet's associated token account: where every payout's USDT comes from. */
  hotWalletAccount: Address;
  /** Micro-lamports per compute unit offered: the recent fee, held under the cap. */
  priorityFee: bigint;
}

export interface SolanaPayout {
  withdrawalId: string;
  /** The payee as the withdrawal names it: a wallet (paid into its associated token account), or
   * USDT's associated token account of a wallet (./destinations.ts: paid into as it is). */
  to: string;
  /** USDT minor units: the token's base units on Solana (6 decimals). */
  amount: bigint;
}

export interface SignedSolanaPayout {
  /** The signed transaction as the wire has it, base64: what the node's sendTransaction takes. */
  wire: string;
  /** Its first (only) signature, base58: the transaction's id, the withdrawal's txHash. */
  signature: string;
  /** It cannot land in a block above this height. */
  lastValidBlockHeight: bigint;
}

/** Reads the conditions of the payouts to `payees` built next (one read of each kind), from
 * `hotWallet`, offering at most `priorityFeeCap` micro-lamports per compute unit. */
export async function payoutConditions(
  chain: Pick<SolanaChain, 'latestBlockhash' | 'tokenAccounts' | 'recentPriorityFee'>,
  usdtMint: string,
  payees: string[],
  { hotWallet, priorityFeeCap }: { hotWallet: string; priorityFeeCap: bigint },
): Promise<PayoutConditions> {
  const hotWalletAccount = await associatedTokenAccount(hotWallet, usdtMint);
  const [blockhash, tokenAccounts, recentFee] = await Promise.all([
    chain.latestBlockhash(),
    // A token account given as the payee is paid as it is: its own associated account is no one's.
    chain.tokenAccounts(usdtMint, [...new Set(payees.filter(isSolanaWallet))]),
    chain.recentPriorityFee([hotWalletAccount]),
  ]);
  return { blockhash, tokenAccounts, hotWalletAccount, priorityFee: recentFee < priorityFeeCap ? recentFee : priorityFeeCap };
}

/**
 * Builds and signs one payout with the hot wallet (`hotWallet`: ./signer.ts asTransactionSigner),
 * which pays the fee, any new token account's rent, and sends the USDT from its own token account.
 * The payee's token account is created when the conditions read none (idempotent: one created in
 * between by another payout or the payee costs nothing more).
 */
export async function signedPayout(hotWallet: TransactionPartialSigner, usdtMint: string, payout: SolanaPayout, conditions: PayoutConditions): Promise<SignedSolanaPayout> {
  const mint = address(usdtMint);
  const named = address(payout.to);
  // Both accounts as the page's conditions derived them: deriving them again for every payout
  // (a program-address search each) was 15 % of the sender's CPU (BENCHMARKS.md, solana-payouts).
  const source = conditions.hotWalletAccount;
  const payee = conditions.tokenAccounts.get(payout.to);
  // A token account named as the payee (accepted only once the chain showed it USDT's associated
  // account of a wallet) is paid into as it is, never created: a payout to a closed one fails.
  const toTokenAccount = !isSolanaWallet(payout.to);
  const destination = toTokenAccount ? named : payee ? address(payee.address) : await associatedTokenAccount(named, usdtMint);
  const createsTokenAccount = !toTokenAccount && !payee?.exists;
  const instructions: Instruction[] = [
    getSetComputeUnitLimitInstruction({ units: PAYOUT_COMPUTE_UNITS }),
    ...(conditions.priorityFee > 0n ? [getSetComputeUnitPriceInstruction({ microLamports: conditions.priorityFee })] : []),
    ...(createsTokenAccount ? [getCreateAssociatedTokenIdempotentInstruction({ payer: hotWallet, ata: destination, owner: named, mint })] : []),
    getTransferCheckedInstruction({ source, mint, destination, authority: hotWallet, amount: payout.amount, decimals: USDT_DECIMALS }),
    memoInstruction(payout.withdrawalId),
  ];
  const { wire, signature } = await signedTransaction(transactionMessage(hotWallet, conditions.blockhash, instructions));
  return { wire, signature, lastValidBlockHeight: conditions.blockhash.lastValidBlockHeight };
}

/** The least a payout signed again offers per compute unit, micro-lamports: where the recent fee
 * and the expired one's were nothing (600 lamports at PAYOUT_COMPUTE_UNITS). */
export const ESCALATED_PRIORITY_FEE_FLOOR = 10_000n;

/**
 * What a payout signed again after its blockhash expired unlanded offers per compute unit: half as
 * much again as the expired one offered, or the recent fee if that is more, or the floor, held under
 * the cap. The recent fee is the minimum of recent blocks' landed transactions writing the hot
 * wallet's account (./rpc-chain.ts recentPriorityFee): a payout offered it and still did not land
 * while leaders were busy, so offering it again, run after run, might never land either.
 */
export function escalatedPriorityFee(expiredWire: string, recentFee: bigint, priorityFeeCap: bigint): bigint {
  const raised = (priorityFeeOf(expiredWire) * 3n) / 2n;
  const offered = [recentFee, raised, ESCALATED_PRIORITY_FEE_FLOOR].reduce((most, fee) => (fee > most ? fee : most));
  return offered < priorityFeeCap ? offered : priorityFeeCap;
}

/** Micro-lamports per compute unit a signed payout offers (its SetComputeUnitPrice), 0 for none. */
export function priorityFeeOf(wire: string): bigint {
  const message = compiledMessageOf(wire);
  for (const instruction of message.instructions) {
    if (message.staticAccounts[instruction.programAddressIndex] !== COMPUTE_BUDGET_PROGRAM_ADDRESS) continue;
    if (instruction.data?.[0] === ComputeBudgetInstruction.SetComputeUnitPrice) return getSetComputeUnitPriceInstructionDataDecoder().decode(instruction.data).microLamports;
  }
  return 0n;
}

/** A stored payout's message. Cambio signs version 0 messages alone (transaction-message.ts). */
function compiledMessageOf(wire: string) {
  const { messageBytes } = getTransactionDecoder().decode(getBase64Encoder().encode(wire));
  const message = getCompiledTransactionMessageDecoder().decode(messageBytes);
  if (!('instructions' in message)) throw new Error('A stored payout is not a version 0 message');
  return message;
}

/**
 * Whether a node's refusal of a stored payout (`InstructionError:<index>:<error>`) is the payee's:
 * its transfer instruction (the last but the memo) failed for the destination (a frozen or closed
 * token account), which no new signing mends, so the withdrawal fails. Any other is Cambio's own: the
 * hot wallet short of SOL for a new token account's rent (the System program's Custom:1 on the
 * creation), or of USDT (the Token program's InsufficientFunds, Custom:1, on the transfer); the
 * payout is signed again once it expires, as one never refused is, and lands once the wallet is
 * funded (HotWalletGasLow and the stuck alarm say so meanwhile).
 */
export function refusedForThePayee(wire: string, refusal: string): boolean {
  const [, index, error] = /^InstructionError:(\d+):(.+)$/.exec(refusal) ?? [];
  if (index === undefined) return false;
  return Number(index) === compiledMessageOf(wire).instructions.length - 2 && error !== 'Custom:1';
}

