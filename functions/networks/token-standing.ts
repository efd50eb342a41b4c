import type { TokenControls, TokenStanding } from './network.ts';

export type { TokenStanding };

/**
 * Whether the network's USDT can move from its hot wallet now (../shared/networks.md, "Frozen hot
 * wallet / paused token"). While the issuer pauses the token every transfer reverts, and a frozen
 * hot wallet can send nothing: a payout broadcast then fails on chain and burns its fee, and a sweep
 * into a frozen hot wallet moves money where it cannot leave. So the withdrawal sender sends nothing
 * new (withdrawals wait `pending`, and go out once each when it lifts) and the sweeper sweeps
 * nothing; both publish the two facts, which `TokenPaused<Network>` and `HotWalletFrozen<Network>`
 * alarm on. Read once a run: two calls on the network's node.
 */
export async function tokenStanding(chain: TokenControls, usdtContract: string, hotWallet: string): Promise<TokenStanding> {
  const [paused, frozen] = await Promise.all([chain.tokenPaused(usdtContract), chain.frozenAmong(usdtContract, [hotWallet])]);
  return { paused, hotWalletFrozen: frozen.has(hotWallet) };
}

export const usdtMayMove = (standing: TokenStanding): boolean => !standing.paused && !standing.hotWalletFrozen;
