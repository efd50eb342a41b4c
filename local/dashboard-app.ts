import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { ServerResponse } from 'node:http';
import { errorEnvelope, JSON_HEADERS } from '#http/envelope';
import { DASHBOARD_ASSETS_DIR, DASHBOARD_CACHE_CONTROL, DASHBOARD_PAGE, DASHBOARD_SECURITY_HEADERS } from '../dashboard/serving.ts';

/**
 * The built dashboard app at /dashboard/ (CloudFront over S3 in AWS, with the same headers and
 * caching: dashboard/serving.ts). Paths without a file extension are the app's own routes and get
 * index.html, as CloudFront's SPA routing does; /dashboard/api/ is the dashboard API's, never the app's.
 */

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
  const file = normalize(join(appDir, isAsset ? relative : DASHBOARD_PAGE));
  if (!file.startsWith(normalize(appDir) + sep)) return notFound(res);
  let content: Buffer;
  try {
    content = await readFile(file);
  } catch {
    return notFound(res);
  }
  res.writeHead(200, {
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    'Cache-Control': relative.startsWith(`${DASHBOARD_ASSETS_DIR}/`) ? DASHBOARD_CACHE_CONTROL.asset : DASHBOARD_CACHE_CONTROL.page,
    ...DASHBOARD_SECURITY_HEADERS,
  });
  res.end(content);
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, JSON_HEADERS);
  res.end(errorEnvelope('NOT_FOUND', 'No such dashboard file'));
}
