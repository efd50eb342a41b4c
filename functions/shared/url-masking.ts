/**
 * A URL as it may be written down: a node provider's URL carries its key in the path or query
 * (Alchemy's /v2/<key>, Infura's /v3/<key>, ?apikey=), and what prints an error (a log line, a trace,
 * an operator's terminal) must not carry it. Every URL in a text keeps its scheme and host only.
 */

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;
/** What may close a sentence around a URL rather than belong to it. */
const TRAILING = /[.,;:!?)\]}]+$/;

/** The text with each URL in it cut to its scheme and host, and "/…" where there was more. */
export function withoutUrlPaths(text: string): string {
  return text.replace(URL_IN_TEXT, (found) => {
    const trailing = found.match(TRAILING)?.[0] ?? '';
    const url = found.slice(0, found.length - trailing.length);
    if (!URL.canParse(url)) return `<a URL>${trailing}`;
    const { protocol, host, pathname, search, hash } = new URL(url);
    // Credentials (user:pass@) are dropped with the rest.
    return `${protocol}//${host}${pathname === '/' && !search && !hash ? '' : '/…'}${trailing}`;
  });
}

/** A URL's host (and port), to name a node by. */
export const hostOf = (url: string): string => (URL.canParse(url) ? new URL(url).host : 'the node');
