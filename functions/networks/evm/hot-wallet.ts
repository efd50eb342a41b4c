import type { NetworkHotWallet } from '../network.ts';
import type { EvmNetworkName } from '../names.ts';
import { evmSignerFrom } from './signer.ts';

/** An EVM network's hot wallet: the network's own key (EVM_SIGNER_KMS_KEY_IDS under KMS), as its
 * sender signs with. */
export const evmHotWallet =
  (network: EvmNetworkName): NetworkHotWallet =>
  (settings) => {
    const signer = evmSignerFrom(settings, network);
    return () => signer.address();
  };
