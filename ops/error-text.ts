import { BaseError } from 'viem';
import { hostOf, withoutUrlPaths } from '#functions/shared/url-masking';

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
