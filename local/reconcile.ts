process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { RECONCILE_DUST, reconcileHoldings, reconciliationReport } from '#functions/ledger/reconciliation';
import { createDocumentClient } from '#adapters/dynamo/client';
import { ledgerSide } from '#adapters/dynamo/reconciliation-store';
import { SandboxChain } from '#functions/networks/tron/sandbox-chain';
import { LocalKeySigner } from '#adapters/signer/local-key-signer';
import { localEvmSigner } from '#functions/networks/evm/signer';
import { evmReconcileSources } from '#functions/networks/evm/from-settings';
import { solanaChains } from '#functions/networks/solana/from-settings';
import { solanaSignerFrom } from '#functions/networks/solana/signer';
import type { EvmNetworkName } from '#functions/networks/names';
import type { SliceSettings } from '#functions/settings/functions';
import { STAGES } from '../config/stages.ts';
import { JavaMissingError } from './dynamodb-local.ts';
import { runningRuntime, withLocalData } from './local-data.ts';

/**
 * `npm run reconcile`: the local runtime's wallets (hot wallet + unswept deposit addresses on the
 * sandbox chain, and on each anvil and the Solana node while `npm start` runs) against the ledger,
 * in total and per network. Prints both sides and which way they differ; exits 1 on a surplus or a
 * shortfall beyond dust (0.01 USDT), or on USDT beyond dust at deposit addresses the ledger lists
 * nothing at (reported apart, never netted against a shortfall).
 */
const settings = STAGES.local.functionEnvironment;

try {
  const result = await withLocalData(async (endpoint, tableName) => {
    const db = createDocumentClient(endpoint);
    const chain = new SandboxChain(db, tableName, {
      blockIntervalMs: Number(settings.SANDBOX_BLOCK_INTERVAL_MS),
      solidifyAfter: Number(settings.DEPOSIT_REQUIRED_CONFIRMATIONS),
    });
    try {
      // The anvil nodes and the Solana node live as long as `npm start`: their networks are
      // reconciled while it runs, from the settings it wrote in .data/runtime.json.
      const running = runningRuntime();
      const opened = { EVM_NETWORKS: running?.evmNetworks ?? {}, SOLANA: running?.solana } as SliceSettings<'chain'>;
      return await reconcileHoldings({
        ledger: () => ledgerSide(db, tableName, { every: ['tron'] }),
        networks: [
          { network: 'tron', usdtBalances: (addresses) => chain.tokenBalances(settings.USDT_CONTRACT, addresses), receipt: (txHash) => chain.receipt(txHash), hotWalletAddress: () => new LocalKeySigner(settings.LOCAL_HOT_WALLET_KEY!).address() },
          ...(Object.keys(opened.EVM_NETWORKS) as EvmNetworkName[]).map((network) => evmReconcileSources(network, opened, async () => localEvmSigner(settings.LOCAL_HOT_WALLET_KEY!).address())),
          // Solana's hot wallet is an Ed25519 key of its own (SOLANA.localHotWalletKey).
          ...(opened.SOLANA ? [solanaChains.reconcileSources(db, tableName, opened, () => solanaSignerFrom(opened).address())] : []),
        ],
      });
    } finally {
      db.destroy();
    }
  });
  console.log(reconciliationReport(result));
  process.exitCode = result.mismatch || result.unexplainedHeldUsdt > RECONCILE_DUST ? 1 : 0;
} catch (error) {
  console.error(error instanceof JavaMissingError ? error.message : `reconcile failed: ${String(error)}`);
  process.exitCode = 2;
}
