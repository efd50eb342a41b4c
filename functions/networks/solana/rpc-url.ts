import { secretsManagerApiKey } from '../../adapters/provider-secret.ts';
import type { SolanaNetworkSettings } from './settings.ts';

/** Solana's JSON-RPC endpoint on a stage: the secret's URL (a provider's URL carries its key: read
 * once per five minutes, never logged), else `rpcUrl`. Apart from ./from-settings.ts, so the API's
 * destination read (./destinations.ts) takes it without the jobs' client. */
export function solanaRpcUrlOf(network: SolanaNetworkSettings): string | (() => Promise<string>) {
  if (network.rpcUrlSecret !== undefined) return secretsManagerApiKey(network.rpcUrlSecret);
  if (network.rpcUrl !== undefined) return network.rpcUrl;
  throw new Error('SOLANA has neither rpcUrl nor rpcUrlSecret');
}
