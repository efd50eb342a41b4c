import type { NetworkSandbox } from './network.ts';
import type { NetworkName } from './names.ts';
import { tronSandbox } from './tron/sandbox-payer.ts';
import { evmSandbox } from './evm/sandbox-payer.ts';
import { solanaSandbox } from './solana/sandbox-payer.ts';

/** Each registered network's sandbox payer, for the dashboard's `Simulate payment`: its bundle
 * carries the sandbox chains alone, not the real networks' clients. */
const SANDBOXES: { readonly [N in NetworkName]: NetworkSandbox } = {
  tron: tronSandbox,
  ethereum: evmSandbox('ethereum'),
  bsc: evmSandbox('bsc'),
  polygon: evmSandbox('polygon'),
  arbitrum: evmSandbox('arbitrum'),
  solana: solanaSandbox,
};

export const sandboxOf = (name: NetworkName): NetworkSandbox => SANDBOXES[name];
