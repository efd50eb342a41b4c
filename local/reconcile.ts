process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { reconcileHoldings, reconciliationReport } from '#functions/ledger/reconciliation';
import { createDocumentClient } from '#adapters/dynamo/client';
import { ledgerSide } from '#adapters/dynamo/reconciliation-store';
import { SandboxChain } from '#functions/networks/tron/sandbox-chain';
import { LocalKeySigner } from '#adapters/signer/local-key-signer';
import { STAGES } from '../config/stages.ts';
import { JavaMissingError } from './dynamodb-local.ts';
import { withLocalData } from './local-data.ts';

/**
 * `npm run reconcile`: the local runtime's wallets (hot wallet + unswept deposit addresses on the
 * sandbox chain) against the ledger. Prints both sides and which way they differ; exits 1 on a
 * surplus or a shortfall beyond dust (0.01 USDT).
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
      return await reconcileHoldings({
        ledger: () => ledgerSide(db, tableName, 'every'),
        usdtBalances: (addresses) => chain.tokenBalances(settings.USDT_CONTRACT, addresses),
        minedSuccessfully: async (txHash) => (await chain.receipt(txHash))?.result === 'SUCCESS',
        hotWalletAddress: () => new LocalKeySigner(settings.LOCAL_HOT_WALLET_KEY!).address(),
      });
    } finally {
      db.destroy();
    }
  });
  console.log(reconciliationReport(result));
  process.exitCode = result.mismatch ? 1 : 0;
} catch (error) {
  console.error(error instanceof JavaMissingError ? error.message : `reconcile failed: ${String(error)}`);
  process.exitCode = 2;
}
