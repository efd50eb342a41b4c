/** A Solana address: 32 bytes in base58, 32 to 44 characters. Apart from ./address.ts so that the
 * settings can check an address's form without bundling the curve check. */
export const SOLANA_ADDRESS_PATTERN = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
