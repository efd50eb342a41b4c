import { createTestClient, http, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { getTransactionCount } from 'viem/actions';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoEvmSendingStore } from '#adapters/dynamo/evm-sending-store';
import { DynamoEvmSweepStore } from '#adapters/dynamo/evm-sweep-store';
import type { EvmNetworkName } from '#functions/networks/names';
import { withdrawalsIn } from '#functions/withdrawals/withdrawal-sending';
import type { LocalEvmNetworks } from './evm-networks.ts';

/**
 * Each local EVM node is a fresh chain (./evm-networks.ts says why), but the table keeps the hot
 * wallet's nonce sequence and the payouts signed on the old chain. On the new one the wallet has
 * sent nothing, so every payout after a restart would wait behind nonces it never saw, for good.
 * The new chain takes up the wallet's nonce where the oldest payout still `processing` or sweep
 * still open (they share the sequence) holds its place (the sequence's next when none does): settling broadcasts those again, the same signed
 * transactions, and they land in nonce order; new payouts follow them. Payouts completed on the
 * old chain are gone with it, as its payments are.
 */
export async function resumeHotWalletNonces(endpoint: string, tableName: string, networks: LocalEvmNetworks['settings'], hotWalletKey: string): Promise<void> {
  const wallet = privateKeyToAccount(`0x${hotWalletKey.replace(/^0x/, '')}`).address;
  const db = createDocumentClient(endpoint);
  try {
    for (const [name, network] of Object.entries(networks)) {
      const store = new DynamoEvmSendingStore(db, tableName, name as EvmNetworkName);
      let resumeAt = await store.nextNonce(wallet);
      if (resumeAt === null) continue;
      for await (const withdrawal of withdrawalsIn({ store }, 'processing', null)) {
        const nonce = withdrawal.transaction?.nonce;
        if (nonce !== undefined && nonce < resumeAt) resumeAt = nonce;
      }
      for (const sweep of await new DynamoEvmSweepStore(db, tableName, name as EvmNetworkName).openSweeps()) {
        if (sweep.nonce < resumeAt) resumeAt = sweep.nonce;
      }
      const node = createTestClient({ mode: 'anvil', transport: http(network.rpcUrl!) });
      if ((await getTransactionCount(node, { address: wallet as Address })) < resumeAt) await node.setNonce({ address: wallet as Address, nonce: resumeAt });
    }
  } finally {
    db.destroy();
  }
}
