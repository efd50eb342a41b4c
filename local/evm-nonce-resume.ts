import { createTestClient, createWalletClient, http, type Address, type Hex, type PrivateKeyAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { getTransactionCount } from 'viem/actions';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoEvmSendingStore } from '#functions/networks/evm/sending-store';
import { DynamoEvmSweepStore } from '#functions/networks/evm/sweep-store';
import { evmNonceClaimItem } from '#functions/networks/evm/nonce-record';
import { evmSweepItem } from '#functions/networks/evm/sweep-record';
import { withdrawalItem } from '#adapters/dynamo/items/withdrawal';
import { gsi1ItemsUnder, readItem } from '#adapters/dynamo/queries';
import type { EvmNetworkName, EvmNetworkSettings } from '#functions/networks/evm/settings';
import { withdrawalsIn } from '#functions/withdrawals/withdrawal-sending';
import type { NonceTransaction } from '#functions/networks/evm/nonce-sequence';
import type { WithdrawalStatus } from '#functions/withdrawals/withdrawals';
import { rpc } from './anvil.ts';
import { localEvmChain } from './evm-contracts.ts';
import type { LocalEvmNetworks } from './evm-networks.ts';

/**
 * The table keeps the hot wallet's nonce sequence and every transaction signed on it; a local EVM
 * node may be behind it at start, in one of two ways (./evm-networks.ts):
 * - A fresh chain (no data folder, or none saved in it): the wallet has sent nothing there, so
 *   every payout would wait behind nonces it never saw, for good. The new chain takes up the
 *   wallet's nonce where the oldest payout still `processing` or sweep still open (they share the
 *   sequence) holds its place (the sequence's next when none does): settling broadcasts those
 *   again, the same signed transactions, and they land in nonce order; new payouts follow them.
 *   Payouts completed on the old chain are gone with it, as its payments are.
 * - A restored chain (./evm-chain-state.ts) that a kill -9 left behind by its last seconds: the
 *   wallet's transactions from the chain's count to the sequence's next are lost, among them
 *   payouts the ledger may already have completed. Each is broadcast again here, in nonce order.
 */
export async function resumeHotWalletNonces(
  endpoint: string,
  tableName: string,
  networks: LocalEvmNetworks['settings'],
  hotWalletKey: string,
  restored: readonly EvmNetworkName[] = [],
): Promise<void> {
  const signer = privateKeyToAccount(`0x${hotWalletKey.replace(/^0x/, '')}`);
  const wallet = signer.address;
  const db = createDocumentClient(endpoint);
  try {
    for (const [name, network] of Object.entries(networks) as [EvmNetworkName, EvmNetworkSettings][]) {
      const store = new DynamoEvmSendingStore(db, tableName, name);
      const next = await store.nextNonce(wallet);
      if (next === null) continue;
      if (restored.includes(name)) {
        await broadcastWhatTheChainLost(db, tableName, name, network, signer, next);
        continue;
      }
      let resumeAt = next;
      for await (const withdrawal of withdrawalsIn({ store }, 'processing', null)) {
        const nonce = withdrawal.transaction?.nonce;
        if (nonce !== undefined && nonce < resumeAt) resumeAt = nonce;
      }
      for (const sweep of await new DynamoEvmSweepStore(db, tableName, name).openSweeps()) {
        if (sweep.nonce < resumeAt) resumeAt = sweep.nonce;
      }
      const node = createTestClient({ mode: 'anvil', transport: http(network.rpcUrl!) });
      if ((await getTransactionCount(node, { address: wallet as Address })) < resumeAt) await node.setNonce({ address: wallet as Address, nonce: resumeAt });
    }
  } finally {
    db.destroy();
  }
}

/**
 * On a restored chain, the hot wallet's transactions the chain lost, broadcast again in nonce order:
 * for each nonce from the chain's count to the sequence's next, the transaction the table holds
 * signed on it (a payout's or a sweep's newest version, or its nonce filler), whatever its record
 * says: a payout the ledger completed lands again as it did, the same transaction (if an earlier
 * version at a lower fee was the one mined, the newest lands instead: the same transfer). A nonce
 * the table holds no transaction on (taken by one sent outside Cambio, lost with the chain), or
 * whose transaction the node refuses, is filled by a transfer of nothing to the wallet itself. No
 * gap is left: settling then completes the payouts still processing, and new ones follow.
 */
async function broadcastWhatTheChainLost(db: DynamoDBDocumentClient, tableName: string, name: EvmNetworkName, network: EvmNetworkSettings, signer: PrivateKeyAccount, next: number): Promise<void> {
  const url = network.rpcUrl!;
  const wallet = createWalletClient({ account: signer, chain: localEvmChain(url, network.chainId), transport: http(url) });
  const onChain = await getTransactionCount(wallet, { address: signer.address });
  for (let nonce = onChain; nonce < next; nonce++) {
    const signed = await transactionSignedAt(db, tableName, name, signer.address, nonce);
    const refusal = signed ? await broadcast(url, signed) : 'no transaction stored on it';
    if (refusal === null) continue;
    console.error(JSON.stringify({ level: 'warn', message: `${name}: the restored chain lost the hot wallet's nonce ${nonce}; filled by a transfer of nothing`, reason: refusal }));
    await wallet.sendTransaction({ to: signer.address, value: 0n, nonce });
  }
}

/** Null once the node has it; else the node's refusal. */
async function broadcast(url: string, signed: Hex): Promise<string | null> {
  try {
    await rpc(url, 'eth_sendRawTransaction', [signed]);
    return null;
  } catch (error) {
    const refusal = (error as Error).message;
    return /already known|already imported/i.test(refusal) ? null : refusal;
  }
}

const WITHDRAWAL_STATUSES: readonly WithdrawalStatus[] = ['processing', 'completed', 'failed'];

/** The newest signed version of what the table holds on the wallet's `nonce`, by the nonce's claim
 * (adapters/dynamo/items/evm-nonce.ts): its withdrawal's or sweep's transaction, if still on that
 * nonce (a payout signed again elsewhere after an outside transaction took it is not). */
async function transactionSignedAt(db: DynamoDBDocumentClient, tableName: string, network: EvmNetworkName, wallet: Address, nonce: number): Promise<Hex | null> {
  const claim = await readItem(db, tableName, evmNonceClaimItem.key(network, wallet, nonce));
  if (!claim) return null;
  let held: NonceTransaction | null = null;
  if (typeof claim.withdrawalId === 'string') {
    for (const status of WITHDRAWAL_STATUSES) {
      const key = withdrawalItem.byStatus(network, status, claim.withdrawalId);
      const [item] = await gsi1ItemsUnder(db, tableName, { GSI1PK: key.GSI1PK, skPrefix: key.GSI1SK });
      const transaction = item ? withdrawalItem.fromItem(item).transaction : null;
      if (transaction?.nonce !== undefined) {
        held = { signed: transaction.signed, txHash: '', nonce: transaction.nonce, filler: transaction.filler ?? null };
        break;
      }
    }
  } else if (typeof claim.sweepId === 'string') {
    // A sweep is open under its id, then among the finished by the time it was made (its claim's).
    const item =
      (await readItem(db, tableName, evmSweepItem.open(network, claim.sweepId))) ??
      (await readItem(db, tableName, evmSweepItem.finished(network, claim.claimedAt as string, claim.sweepId)));
    if (item) held = evmSweepItem.fromItem(item);
  }
  if (!held || held.nonce !== nonce) return null;
  return (held.filler?.signed ?? held.signed) as Hex;
}
