/**
 * A 20-byte account (40 hex digits, lower case) whose first 16 bytes are zero, below 2^32: no one
 * holds its key (finding one is 2^128 work), and it is where the chains put their own code and the
 * conventions their burns: the zero address, 0x…dEaD, Ethereum's precompiles 0x01–0x11 (the
 * BLS12-381 ones of EIP-2537 among them), Arbitrum's ArbOS precompiles from 0x64, BSC's system
 * contracts 0x1000–0x2005, Polygon's 0x1010, TRON's own precompiles from 0x01000001. USDT sent
 * there is never spent again, so no withdrawal or split goes there (../shared/networks.md,
 * "Addresses Cambio refuses as a destination", lists the best known of them).
 */
export const isReservedAccount = (account: string): boolean => /^0{32}[0-9a-f]{8}$/.test(account);
