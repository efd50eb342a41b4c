import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChainReader } from '#functions/networks/chain';
import type { Broadcaster } from '#functions/withdrawals/withdrawal-sending';
import { needed } from '#functions/settings/schema';
import type { SliceSettings } from '#functions/settings/functions';
import { SandboxChain } from './sandbox-chain.ts';
import { secretsManagerApiKey } from './trongrid-api-key.ts';
import { TronGridChain } from './trongrid-chain.ts';

export interface ChainSettings {
  /** The official USDT contract on this chain: transfers of any other contract are ignored. */
  usdtContract: string;
  /** Cursor name: one per chain and contract. */
  cursorName: string;
  /** Whether a transfer needs the sender to hold the amount: yes on TRON and on the sandbox chain,
   * which keeps balances as TRON does (functions/networks/tron/sandbox-balances.ts). */
  enforcesBalances: boolean;
}

/**
 * The chain a stage reads (config/stages.ts): `sandbox` (blocks in this stage's table) or `trongrid`
 * (mainnet or Nile, API key from Secrets Manager). Built once at cold start.
 */
/** What the chain jobs use: reading, broadcasting, and token balances (sweeps, reconciliation). */
export type Chain = ChainReader &
  Broadcaster & {
    tokenBalance(contract: string, address: string): Promise<bigint>;
    tokenBalances(contract: string, addresses: string[]): Promise<Map<string, bigint>>;
    trxBalance(address: string): Promise<bigint>;
  };

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
    return { chain, settings: { usdtContract, cursorName: `sandbox:${usdtContract}`, enforcesBalances: true } };
  }
  const secretId = settings.TRONGRID_API_KEY_SECRET;
  const chain = new TronGridChain({
    baseUrl: needed(settings.TRONGRID_URL, 'TRONGRID_URL', 'CHAIN_ADAPTER=trongrid'),
    apiKey: secretId ? secretsManagerApiKey(secretId) : undefined,
  });
  return { chain, settings: { usdtContract, cursorName: `trongrid:${usdtContract}`, enforcesBalances: true } };
}

