/**
 * The token issuer's controls on a local chain (../shared/networks.md, "The token as it is on
 * mainnet"), as `npm run sandbox:issuer` and the tests drive them: Tether freezes addresses, pauses
 * the token, charges a transfer fee and deprecates a contract for an upgraded one. Each network
 * whose local token has the controls implements it (TRON's sandbox chain, the EVM networks' anvil
 * nodes); BSC's BEP20USDT has none.
 */
export interface SandboxIssuer {
  freeze(address: string): Promise<void>;
  unfreeze(address: string): Promise<void>;
  pause(): Promise<void>;
  unpause(): Promise<void>;
  /** `basisPoints` 0–20 of each transfer, at most `maxFee` (USDT minor units, 6 decimals) a transfer. */
  setFee(basisPoints: number, maxFee: bigint): Promise<void>;
  /** Deploys the upgraded contract and points the old one at it; answers the upgraded contract's address. */
  deprecate(): Promise<{ upgradedContract: string }>;
}
