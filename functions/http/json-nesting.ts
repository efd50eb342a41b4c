/**
 * The deepest JSON a /v1 body may nest. The deepest body any route accepts is 3 levels (a deposit's
 * `split`); 32 leaves room for any future schema while keeping every recursive walk of a parsed
 * body (valibot, the idempotency fingerprint) far from the stack's limit: an array nested a
 * few thousand levels fits well inside the 16 KiB body limit, yet overflows the stack of a
 * recursive walk, and would answer 500 to every POST.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * True when `text` opens more than `max` arrays or objects inside one another. One pass over the
 * raw text, with no recursion and before JSON.parse, so that no later step ever holds such a value.
 * Brackets inside strings do not count; text that is not JSON is left for the parser to refuse.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}
