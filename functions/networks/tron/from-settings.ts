import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Chain, ChainSettings, NetworkChains } from '#functions/networks/network';
import { needed } from '#functions/settings/schema';
import type { SliceSettings } from '#functions/settings/functions';
import { SandboxChain } from './sandbox-chain.ts';
import { secretsManagerApiKey } from '../../adapters/provider-secret.ts';
import { TronGridChain } from './trongrid-chain.ts';

/**
 * The chain a stage reads (config/stages.ts): `sandbox` (blocks in this stage's table) or `trongrid`
 * (mainnet or Nile, API key from Secrets Manager). Built once at cold start. Both enforce balances:
 * the sandbox chain keeps them as TRON does (functions/networks/tron/sandbox-balances.ts).
 */
export function chainFrom(
  db: DynamoDBDocumentClient,
  tableName: string,
  settings: SliceSettings<'chain'>,
  options: { hotWallet?: () => Promise<string> } = {},
): { chain: Chain; settings: ChainSettings } {
  const usdtContract = settings.USDT_CONTRACT;
  if (settings.CHAIN_ADAPTER === 'sandbox') {
    const chain = new SandboxChain(db, tableName, {
      blockIntervalMs: needed(settings.SANDBOX_BLOCK_INTERVAL_MS, 'SANDBOX_BLOCK_INTERVAL_MS', 'CHAIN_ADAPTER=sandbox'),
      solidifyAfter: settings.DEPOSIT_REQUIRED_CONFIRMATIONS,
      treasury: options.hotWallet,
    });
    return { chain, settings: { usdtContract, ...cursorOf('sandbox', usdtContract), enforcesBalances: true, readsAllBalancesAtOnce: true } };
  }
  const secretId = settings.TRONGRID_API_KEY_SECRET;
  const chain = new TronGridChain({
    baseUrl: needed(settings.TRONGRID_URL, 'TRONGRID_URL', 'CHAIN_ADAPTER=trongrid'),
    apiKey: secretId ? secretsManagerApiKey(secretId) : undefined,
  });
  return { chain, settings: { usdtContract, ...cursorOf('trongrid', usdtContract), enforcesBalances: true, readsAllBalancesAtOnce: false } };
}

/** One scan cursor per chain, whatever its USDT contract, so changing USDT_CONTRACT (Tether
 * deprecated it) resumes where the scan stood; it was one per contract before, and a first scan
 * under the new name starts where that one stood. */
const cursorOf = (adapter: 'sandbox' | 'trongrid', usdtContract: string) => ({ cursorName: `${adapter}:usdt`, previousCursorNames: [`${adapter}:${usdtContract}`] });

export const tronChains: NetworkChains = {
  connect: chainFrom,
  reconcileSources: (db, tableName, settings, hotWalletAddress) => {
    const { chain, settings: chainSettings } = chainFrom(db, tableName, settings);
    return {
      network: 'tron',
      usdtBalances: (addresses) => chain.tokenBalances(chainSettings.usdtContract, addresses),
      receipt: (txHash) => chain.receipt(txHash),
      hotWalletAddress,
      // The sandbox chain answers every address at once; TronGrid costs a call per address.
      readsAllBalancesAtOnce: chainSettings.readsAllBalancesAtOnce,
    };
  },
};

