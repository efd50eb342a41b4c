import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ServerResponse } from 'node:http';
import { errorEnvelope, JSON_HEADERS } from '#http/envelope';

/**
 * The reference page and the OpenAPI document on the local runtime, unauthenticated:
 * GET /docs (the page, built from the committed openapi.json) and GET /openapi.json.
 */
const OPENAPI_FILE = fileURLToPath(new URL('../openapi.json', import.meta.url));
let page: string | undefined;

export function isDocsRequest(method: string, path: string): boolean {
  return method === 'GET' && (path === '/openapi.json' || path === '/docs' || path.startsWith('/docs/'));
}

export async function serveDocs(path: string, res: ServerResponse): Promise<void> {
  if (path === '/openapi.json' || path === '/docs/openapi.json') {
    res.writeHead(200, { ...JSON_HEADERS, 'Cache-Control': 'no-cache' });
    res.end(readFileSync(OPENAPI_FILE));
    return;
  }
  if (path === '/docs' || path === '/docs/' || path === '/docs/index.html') {
    if (!page) {
      const { referencePageHtml } = await import('#functions/openapi/reference-page');
      page = referencePageHtml(readFileSync(OPENAPI_FILE, 'utf8'));
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' });
    res.end(page);
    return;
  }
  res.writeHead(404, JSON_HEADERS);
  res.end(errorEnvelope('NOT_FOUND', 'No such documentation page'));
}
