import { describe, expect, it } from 'vitest';
import { dashboardViewerRequest } from '../../lib/dashboard-edge.ts';

/**
 * The dashboard's CloudFront Function, run from the very source the stack gives CloudFront (no
 * local CloudFront exists; the source is ES5, which Node runs as cloudfront-js-1.0 does).
 */
type Query = Record<string, { value: string; multiValue?: { value: string }[] }>;
type Request = { uri: string; headers: Record<string, { value: string }>; querystring: Query };
type Answer = Request | { statusCode: number; headers: { location: { value: string } } };

/** The function for `canonicalHost`, called with a request for `uri` on `host` (null: no Host header). */
function viewerRequest(canonicalHost: string | null): (uri: string, host?: string | null, querystring?: Query) => Answer {
  const handler = new Function(`${dashboardViewerRequest(canonicalHost)}\nreturn handler;`)() as (event: unknown) => Answer;
  return (uri, host = 'd111111abcdef8.cloudfront.net', querystring = {}) =>
    handler({ version: '1.0', request: { method: 'GET', uri, headers: host === null ? {} : { host: { value: host } }, querystring, cookies: {} } });
}
const location = (answer: Answer) => ('statusCode' in answer ? { status: answer.statusCode, location: answer.headers.location.value } : null);
const uriOf = (answer: Answer) => ('uri' in answer ? answer.uri : null);

describe.each([
  ['on the distribution’s own domain', null, 'd111111abcdef8.cloudfront.net'],
  ['on a custom domain', 'dashboard.cambio.example', 'dashboard.cambio.example'],
] as const)('the dashboard’s viewer-request function %s', (_, canonicalHost, host) => {
  const run = viewerRequest(canonicalHost);

  it('sends / and /dashboard to /dashboard/', () => {
    expect(location(run('/', host))).toEqual({ status: 308, location: '/dashboard/' });
    expect(location(run('/dashboard', host))).toEqual({ status: 308, location: '/dashboard/' });
  });

  it("answers the app's own routes with index.html, as the local server does", () => {
    for (const route of ['/dashboard/', '/dashboard/team', '/dashboard/activity/dep_01J', '/dashboard/accept-invitation']) {
      expect(uriOf(run(route, host)), route).toBe('/dashboard/index.html');
    }
  });

  it('leaves files and other paths as they are', () => {
    expect(uriOf(run('/dashboard/assets/app-0123456789.js', host))).toBe('/dashboard/assets/app-0123456789.js');
    expect(uriOf(run('/dashboard/index.html', host))).toBe('/dashboard/index.html');
    expect(uriOf(run('/robots.txt', host))).toBe('/robots.txt');
  });
});

describe('the dashboard’s viewer-request function with a custom domain', () => {
  const run = viewerRequest('dashboard.cambio.example');

  it('sends a request made on the distribution’s own domain to the same path and query on the custom domain', () => {
    expect(location(run('/dashboard/team'))).toEqual({ status: 308, location: 'https://dashboard.cambio.example/dashboard/team' });
    const invitation = run('/dashboard/accept-invitation', 'd111111abcdef8.cloudfront.net', {
      token: { value: 'inv_AbC-12%2B' },
      tag: { value: 'a', multiValue: [{ value: 'a' }, { value: 'b%20c' }] },
    });
    expect(location(invitation)).toEqual({ status: 308, location: 'https://dashboard.cambio.example/dashboard/accept-invitation?token=inv_AbC-12%2B&tag=a&tag=b%20c' });
  });

  it('redirects a request with no Host header too, rather than serve it on a name the API refuses', () => {
    expect(location(run('/dashboard/', null))).toEqual({ status: 308, location: 'https://dashboard.cambio.example/dashboard/' });
  });
});
