import { join } from 'node:path';
import type { EvmNetworkName, EvmNetworkSettings } from '#functions/networks/evm/settings';
import type { SolanaNetworkSettings } from '#functions/networks/solana/settings';

/**
 * The local runtime's names and files that the ops commands (npm run company:create, …) read
 * without loading the runtime itself: its module graph (the API, the emulators, viem) took about
 * 3 s of CPU to load, paid by every command, even one that only refuses its arguments.
 */
export const LOCAL_TABLE_NAME = 'cambio-local';

/** What the running `npm start` keeps in .data/runtime.json while up (startLocalRuntime writes it;
 * local-data.ts reads it for the ops commands). */
export interface RunningRuntime {
  pid: number;
  dynamoEndpoint: string;
  tableName: string;
  apiUrl: string;
  /** Its user pool emulator (local/cognito-emulator.ts); absent in files written before it was kept. */
  cognitoEndpoint?: string;
  /** Its EVM nodes, as its EVM_NETWORKS setting says them. */
  evmNetworks?: Partial<Record<EvmNetworkName, EvmNetworkSettings>>;
  /** Its Solana node, as its SOLANA setting says it; absent when Solana is not open. */
  solana?: SolanaNetworkSettings;
}

/** Where the local stage's mail goes: a folder under the data folder (adapters/mail/outbox-mailer.ts). */
export const outboxOf = (dataDir: string): string => join(dataDir, 'outbox');
