import { getAddMemoInstruction } from '@solana-program/memo';
import {
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Blockhash,
  type Instruction,
  type TransactionSigner,
} from '@solana/kit';

/**
 * The one shape of every transaction Cambio signs on Solana (payouts, sweeps): a version 0 message
 * whose fee payer signs, built on a recent blockhash, so it expires with it (it can land in no block
 * above `lastValidBlockHeight`). kit compiles and encodes it: nothing here encodes by hand.
 */

/** A blockhash to build on, and the last block height a transaction built on it can land at. */
export interface TransactionLifetime {
  blockhash: string;
  lastValidBlockHeight: bigint;
}

/** `instructions` in a message `feePayer` pays for, on `lifetime`'s blockhash. */
export function transactionMessage(feePayer: TransactionSigner, lifetime: TransactionLifetime, instructions: Instruction[]) {
  return pipe(
    createTransactionMessage({ version: 0 }),
    (draft) => setTransactionMessageFeePayerSigner(feePayer, draft),
    (draft) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: lifetime.blockhash as Blockhash, lastValidBlockHeight: lifetime.lastValidBlockHeight }, draft),
    (draft) => appendTransactionMessageInstructions(instructions, draft),
  );
}

/** The message signed by every signer its instructions name: `wire`, the base64 wire form a node's
 * sendTransaction takes; `signature`, the fee payer's, base58: the transaction's id. */
export async function signedTransaction(message: ReturnType<typeof transactionMessage>): Promise<{ wire: string; signature: string }> {
  const signed = await signTransactionMessageWithSigners(message);
  return { wire: getBase64EncodedWireTransaction(signed), signature: getSignatureFromTransaction(signed) };
}

/** SPL Memo v2, deployed on every cluster and loaded by the local runtime: @solana-program/memo's
 * default names a newer program, which a cluster may not have. */
const SPL_MEMO_PROGRAM_ADDRESS = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

/** A memo of `text`: what makes two transactions of equal transfers built on one blockhash two
 * transactions (Ed25519 signs deterministically; without it they would be one, landing once). */
export const memoInstruction = (text: string) => getAddMemoInstruction({ memo: text }, { programAddress: SPL_MEMO_PROGRAM_ADDRESS });
