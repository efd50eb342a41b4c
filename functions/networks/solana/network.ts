import type { Network } from '../network.ts';
import { withDisplay } from '../display.ts';
import { solanaAddressFormat } from './address.ts';

/**
 * Solana as the network port describes it (../shared/networks.md, "Solana"): USDT is an SPL token
 * (a mint, 6 decimals, the legacy Token program, with a freeze authority); each wallet holds it in
 * its associated token account. Fees are paid in SOL (1 SOL = 1,000,000,000 lamports), by the hot
 * wallet for every payout and sweep. A block is final at `finalized` commitment, once a supermajority
 * of stake has voted on 31 blocks built on it.
 */
export const solana: Network = withDisplay({
  name: 'solana',
  tokenDecimals: 6,
  feeAsset: { symbol: 'SOL', decimals: 9 },
  blockMs: 400,
  finality: 'finalized: a supermajority of stake has voted on 31 blocks built on it (about 13 seconds)',
  address: solanaAddressFormat,
});
