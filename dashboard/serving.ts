/**
 * How the built app (dashboard/build.ts) is served, wherever it is served: by CloudFront over S3
 * in AWS (lib/dashboard.ts) and by the local runtime's server (local/dashboard-app.ts). Both read
 * it from here so a page behaves the same on a developer's machine as in a stage.
 */

/** The one page: every app route answers with it, so it names no hash and is always revalidated. */
export const DASHBOARD_PAGE = 'index.html';

/** Where the build puts the script and stylesheet, each named by a hash of its content. */
export const DASHBOARD_ASSETS_DIR = 'assets';

/** A hashed file never changes under its name, so a year's caching is safe; the page must not be cached. */
export const DASHBOARD_CACHE_CONTROL = {
  asset: 'public, max-age=31536000, immutable',
  page: 'no-cache',
} as const;

export const DASHBOARD_SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
} as const;
