import { createHash, randomUUID } from 'node:crypto';
import { address, createKeyPairSignerFromPrivateKeyBytes, type Address, type KeyPairSigner } from '@solana/kit';
import { getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import { associatedTokenAccount, USDT_DECIMALS } from './token-accounts.ts';
import { memoInstruction, signedTransaction, transactionMessage } from './transaction-message.ts';
import { SandboxPaymentReverted, SandboxWalletShort, type NetworkSandbox, type SandboxPayer } from '../network.ts';
import { SolanaRpcChain, SolanaTransactionRefused } from './rpc-chain.ts';
import type { SolanaNetworkSettings } from './settings.ts';

/**
 * The customer's payments on the local Solana node (`Simulate payment`, `npm run sandbox:pay`):
 * USDT from the node's customer wallet, sent as a wallet sends it, in one transaction that creates
 * the payee's associated token account when it has none (CreateIdempotent) and then transfers into
 * it (TransferChecked), built and signed with @solana/kit and the Token program's client, and read
 * and sent through Solana's chain adapter (./rpc-chain.ts). Every company pays from the one customer
 * wallet, which holds a million USDT on a new chain: the simulator's payments are demonstrations,
 * and a payment it cannot cover is refused (SandboxWalletShort).
 *
 * The customer's key is the local node's (local/solana-node.ts localSolanaWallet('customer')):
 * derived from its role's name, the same on every local chain, public as anvil's test accounts are.
 * It is derived here the same way rather than imported, since functions/ takes nothing from local/;
 * it signs only where the stage's SOLANA says `sandbox` (the local runtime's node).
 */

/** The customer wallet's address: localSolanaWallet('customer')'s, which
 * test/integration/solana-chain.test.ts checks, and the key below signs for. */
export const SOLANA_SANDBOX_CUSTOMER = address('7QjMhg31h7SBwgi1ZyDxQkBMUXFyS7VpXrJR1KbequKx');

/** The local node's customer wallet: its Ed25519 secret is sha256 of its role's name. Made on the
 * first payment: key import is asynchronous (WebCrypto). */
let customer: Promise<KeyPairSigner> | undefined;
const customerSigner = (): Promise<KeyPairSigner> =>
  (customer ??= createKeyPairSignerFromPrivateKeyBytes(new Uint8Array(createHash('sha256').update('cambio local solana customer').digest())));

/**
 * The customer's payment to `owner` as a signed transaction: the payee's token account created
 * when missing (rent paid by the customer), then the transfer, then a memo of a fresh id. Ed25519
 * signs deterministically, so without the memo two equal payments to one payee built on the same
 * blockhash would be one transaction, and the second would never land.
 */
async function signedPayment(payer: KeyPairSigner, input: { owner: Address; mint: Address; amount: bigint; blockhash: { blockhash: string; lastValidBlockHeight: bigint } }) {
  const [source, destination] = await Promise.all([associatedTokenAccount(payer.address, input.mint), associatedTokenAccount(input.owner, input.mint)]);
  return signedTransaction(
    transactionMessage(payer, input.blockhash, [
      getCreateAssociatedTokenIdempotentInstruction({ payer, ata: destination, owner: input.owner, mint: input.mint }),
      getTransferCheckedInstruction({ source, mint: input.mint, destination, authority: payer, amount: input.amount, decimals: USDT_DECIMALS }),
      memoInstruction(`sandbox payment ${randomUUID()}`),
    ]),
  );
}

/** Pays `amount` USDT minor units to the wallet `owner` (base58) from the customer wallet, once:
 * a send whose answer was lost is not sent again, which could pay twice. */
export function solanaSandboxPayer(network: Pick<SolanaNetworkSettings, 'rpcUrl' | 'usdtMint'> & Partial<Pick<SolanaNetworkSettings, 'rpcTimeoutMs'>>): SandboxPayer {
  const rpcUrl = network.rpcUrl;
  if (!rpcUrl) throw new Error("The Solana sandbox payer pays on the local node, which SOLANA's rpcUrl names");
  const chain = new SolanaRpcChain({ rpcUrl, rpcTimeoutMs: network.rpcTimeoutMs ?? 10_000 });
  const mint = address(network.usdtMint);
  return {
    pay: async (owner, amount) => {
      const payer = await customerSigner();
      if (owner === payer.address) throw new Error('The sandbox customer does not pay itself');
      const held = await chain.tokenBalance(mint, payer.address);
      if (held < amount) throw new SandboxWalletShort(payer.address, held, amount, 'shared');
      const { wire, signature } = await signedPayment(payer, { owner: address(owner), mint, amount, blockhash: await chain.latestBlockhash() });
      try {
        // Preflight on: a transfer the token refuses (a frozen account) is refused before it lands,
        // and the simulator says so rather than answer a payment that did not happen.
        await chain.broadcast({ wire });
      } catch (error) {
        if (!(error instanceof SolanaTransactionRefused)) throw error;
        throw new SandboxPaymentReverted(
          `The sandbox payment failed on the Solana node (transaction ${signature}), so nothing was paid: ${error.message}. The issuer may have frozen the payee's or the customer's USDT account.`,
          signature,
        );
      }
      return { txHash: signature };
    },
  };
}

/** The simulator's payer where the stage's Solana node is the local runtime's (SOLANA.sandbox);
 * null where it reads a real network, where money moves only from a real wallet. */
export const solanaSandbox: NetworkSandbox = {
  payer: (_db, _tableName, settings) => {
    const network = settings.SOLANA;
    return network?.sandbox && network.rpcUrl ? solanaSandboxPayer(network) : null;
  },
};
