/** A base58check of 21 bytes + 4 checksum bytes starting 0x41 is always 34 characters, starting
 * 'T'. Apart from tron-address.ts so that the settings can check an address's form without
 * bundling its curve and hash libraries. */
export const BASE58_ADDRESS_PATTERN = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
