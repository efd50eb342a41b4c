import type { NetworkName } from './names.ts';
import type { Network } from './network.ts';

/**
 * Each network as people see it: its title, and where its public explorer shows a transaction. The
 * network descriptions (tron/network.ts, evm/networks.ts) take theirs from here, and the dashboard
 * app imports this module directly: it names no chain library (curves, HD keys, viem), which the
 * descriptions' address checks would pull into the app's bundle.
 */
export const NETWORK_DISPLAY: { readonly [N in NetworkName]: { readonly title: string; readonly transactionUrlPrefix: string } } = {
  tron: { title: 'TRON', transactionUrlPrefix: 'https://tronscan.org/#/transaction/' },
  ethereum: { title: 'Ethereum', transactionUrlPrefix: 'https://etherscan.io/tx/' },
  bsc: { title: 'BNB Smart Chain', transactionUrlPrefix: 'https://bscscan.com/tx/' },
  polygon: { title: 'Polygon PoS', transactionUrlPrefix: 'https://polygonscan.com/tx/' },
  arbitrum: { title: 'Arbitrum One', transactionUrlPrefix: 'https://arbiscan.io/tx/' },
  solana: { title: 'Solana', transactionUrlPrefix: 'https://solscan.io/tx/' },
};

/** A transaction's page on the network's public explorer (Network.explorerTransactionUrl). */
export const explorerTransactionUrl = (network: NetworkName, txHash: string): string => NETWORK_DISPLAY[network].transactionUrlPrefix + txHash;

/**
 * A network's description with what people see of it filled in from NETWORK_DISPLAY: its title and
 * its explorer's links, so a family's description says only what is its own. The title is a
 * getter: read at module load, the table would stay in bundles that never show a title.
 */
export const withDisplay = <Description extends Omit<Network, 'title' | 'explorerTransactionUrl'>>(description: Description): Description & Network => ({
  ...description,
  get title() {
    return NETWORK_DISPLAY[description.name].title;
  },
  explorerTransactionUrl: (txHash: string) => explorerTransactionUrl(description.name, txHash),
});
