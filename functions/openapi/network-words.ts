import { NETWORK_DISPLAY } from '../networks/display.ts';
import { NETWORK_NAMES, type NetworkName } from '../networks/names.ts';

/*
 * The registered networks (functions/networks/names.ts) in the document's prose, so that a network
 * added there is named in the introduction, the tags and the operations without editing them.
 */

/** `a`, `a and b`, `a, b and c` (or `or`). */
export function listed(words: readonly string[], last: 'and' | 'or'): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} ${last} ${words.at(-1)}`;
}

/** Every registered network's title, in registration order: `TRON, Ethereum, … and Solana`. */
export const networkTitles = (last: 'and' | 'or'): string => listed(NETWORK_NAMES.map((name) => NETWORK_DISPLAY[name].title), last);

/** Networks as the API names them, in code: `` `ethereum`, `bsc`, `polygon` and `arbitrum` ``. */
export const networkCodes = (names: readonly NetworkName[], last: 'and' | 'or'): string => listed(names.map((name) => `\`${name}\``), last);
