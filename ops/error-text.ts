import { BaseError } from 'viem';

/**
 * What an operator's command prints of the error it failed on, without a node provider's key: a
 * provider's URL carries it in its path or query (Alchemy's /v2/<key>, Infura's /v3/<key>), and
 * viem's HTTP, JSON-RPC and timeout errors print that URL whole, into a terminal's scrollback, a CI
 * log or a ticket. A viem error prints as its short message, the node's host and HTTP status, and
 * its details; any other as before. Every URL left in the text keeps its scheme and host only.
 */
export function errorText(error: unknown): string {
  if (!(error instanceof BaseError)) return withoutUrlPaths(String(error));
  const request = error.walk((cause) => typeof (cause as { url?: unknown }).url === 'string') as { url: string; status?: number } | null;
  const node = request && `Node: ${hostOf(request.url)}${request.status ? `, HTTP ${request.status}` : ''}.`;
  return withoutUrlPaths([error.shortMessage, node, error.details && `Details: ${error.details}`].filter(Boolean).join(' '));
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;
/** What may close a sentence around a URL rather than belong to it. */
const TRAILING = /[.,;:!?)\]}]+$/;

function withoutUrlPaths(text: string): string {
  return text.replace(URL_IN_TEXT, (found) => {
    const trailing = found.match(TRAILING)?.[0] ?? '';
    const url = found.slice(0, found.length - trailing.length);
    if (!URL.canParse(url)) return `<a URL>${trailing}`;
    const { protocol, host, pathname, search, hash } = new URL(url);
    // Credentials (user:pass@) are dropped with the rest.
    return `${protocol}//${host}${pathname === '/' && !search && !hash ? '' : '/…'}${trailing}`;
  });
}

const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host : 'the node');
