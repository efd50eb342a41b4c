import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { ServerResponse } from 'node:http';
import { errorEnvelope, JSON_HEADERS } from '#http/envelope';

/**
 * The built dashboard app at /dashboard/ (CloudFront over S3 in AWS, with the same headers:
 * lib/dashboard.ts). Paths without a file extension are the app's own routes and get index.html,
 * as CloudFront's SPA routing does; /dashboard/api/ is the dashboard API's, never the app's.
 */
export const DASHBOARD_SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
} as const;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
};

export function isDashboardAppRequest(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && (path === '/dashboard' || path.startsWith('/dashboard/')) && !path.startsWith('/dashboard/api/') && path !== '/dashboard/api';
}

export async function serveDashboardApp(appDir: string, path: string, res: ServerResponse): Promise<void> {
  if (path === '/dashboard') {
    res.writeHead(308, { Location: '/dashboard/' });
    res.end();
    return;
  }
  const relative = decodeURIComponent(path.slice('/dashboard/'.length));
  const isAsset = extname(relative) !== '';
  const file = normalize(join(appDir, isAsset ? relative : 'index.html'));
  if (!file.startsWith(normalize(appDir) + sep)) return notFound(res);
  let content: Buffer;
  try {
    content = await readFile(file);
  } catch {
    return notFound(res);
  }
  res.writeHead(200, {
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    // Built assets carry a content hash in their names; index.html must always be revalidated.
    'Cache-Control': relative.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...DASHBOARD_SECURITY_HEADERS,
  });
  res.end(content);
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, JSON_HEADERS);
  res.end(errorEnvelope('NOT_FOUND', 'No such dashboard file'));
}
