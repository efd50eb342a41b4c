import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChainReader } from '#domain/chain';
import type { Broadcaster } from '#domain/withdrawal-sending';
import { optionalEnv, requireEnv } from '../env.ts';
import type { SandboxPayer } from '#domain/activity';
import { SandboxChain } from './sandbox-chain.ts';
import { sandboxPayer } from './sandbox-payer.ts';
import { secretsManagerApiKey } from './trongrid-api-key.ts';
import { TronGridChain } from './trongrid-chain.ts';

export interface ChainSettings {
  /** The official USDT contract on this chain: transfers of any other contract are ignored. */
  usdtContract: string;
  /** Cursor name: one per chain and contract. */
  cursorName: string;
  /** Whether a transfer needs the sender to hold the amount: yes on TRON and on the sandbox chain,
   * which keeps balances as TRON does (functions/adapters/chain/sandbox-balances.ts). */
  enforcesBalances: boolean;
}

/**
 * The chain a stage reads (lib/stages.ts): `sandbox` (blocks in this stage's table) or `trongrid`
 * (mainnet or Nile, API key from Secrets Manager). Read once at cold start.
 */
/** What the chain jobs use: reading, broadcasting, and token balances (sweeps, reconciliation). */
export type Chain = ChainReader &
  Broadcaster & {
    tokenBalance(contract: string, address: string): Promise<bigint>;
    tokenBalances(contract: string, addresses: string[]): Promise<Map<string, bigint>>;
    trxBalance(address: string): Promise<bigint>;
  };

export function chainFromEnv(
  db: DynamoDBDocumentClient,
  tableName: string,
  options: { hotWallet?: () => Promise<string> } = {},
): { chain: Chain; settings: ChainSettings } {
  const usdtContract = requireEnv('USDT_CONTRACT');
  const kind = requireEnv('CHAIN_ADAPTER');
  if (kind === 'sandbox') {
    const chain = sandboxChainFromEnv(db, tableName, options.hotWallet);
    return { chain, settings: { usdtContract, cursorName: `sandbox:${usdtContract}`, enforcesBalances: true } };
  }
  if (kind === 'trongrid') {
    const secretId = optionalEnv('TRONGRID_API_KEY_SECRET');
    const chain = new TronGridChain({ baseUrl: requireEnv('TRONGRID_URL'), apiKey: secretId ? secretsManagerApiKey(secretId) : undefined });
    return { chain, settings: { usdtContract, cursorName: `trongrid:${usdtContract}`, enforcesBalances: true } };
  }
  throw new Error(`CHAIN_ADAPTER must be "sandbox" or "trongrid", not "${kind}"`);
}

/** The stage's sandbox chain, as its settings describe it. */
export function sandboxChainFromEnv(db: DynamoDBDocumentClient, tableName: string, treasury?: () => Promise<string>): SandboxChain {
  return new SandboxChain(db, tableName, {
    blockIntervalMs: Number(requireEnv('SANDBOX_BLOCK_INTERVAL_MS')),
    solidifyAfter: Number(requireEnv('DEPOSIT_REQUIRED_CONFIRMATIONS')),
    treasury,
  });
}

/** The sandbox simulator's payer on a stage whose chain is the sandbox chain; null elsewhere
 * (production reads TRON, where money moves only from a real wallet). */
export function sandboxPayerFromEnv(db: DynamoDBDocumentClient, tableName: string): SandboxPayer | null {
  if (requireEnv('CHAIN_ADAPTER') !== 'sandbox') return null;
  return sandboxPayer(sandboxChainFromEnv(db, tableName), requireEnv('USDT_CONTRACT'));
}
