import type { APIGatewayProxyEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { viewerAddress } from '#http/viewer-address';
import { proxyEvent } from '../support/proxy-event.ts';

/**
 * Behind the dashboard's CloudFront distribution, API Gateway's `sourceIp` is CloudFront's edge,
 * shared by everyone it serves there; the person is the address CloudFront names in
 * CloudFront-Viewer-Address. Sign-in limits count failures per source and the audit log shows where
 * a change came from, so both must see the person, not the edge (functions/http/viewer-address.ts).
 */
const EDGE = '130.176.88.14';

describe('the viewer address of a dashboard request', () => {
  it.each([
    ['an IPv4 viewer', '203.0.113.9:50123', '203.0.113.9'],
    ['an IPv6 viewer', '2001:db8::7:443', '2001:db8::7'],
    ['a bracketed IPv6 viewer', '[2001:db8::8]:443', '2001:db8::8'],
  ])('is the one CloudFront names: %s', (_, header, viewer) => {
    expect(viewerAddress({ 'cloudfront-viewer-address': header }, EDGE)).toBe(viewer);
  });

  it.each([['no port', '203.0.113.9'], ['not an address', 'example.com:443'], ['empty', '']])(
    'is the connection’s when the header is not an address and port (%s)',
    (_, header) => {
      expect(viewerAddress({ 'cloudfront-viewer-address': header }, EDGE)).toBe(EDGE);
    },
  );

  it('is the connection’s without the header', () => {
    expect(viewerAddress({}, EDGE)).toBe(EDGE);
    expect(viewerAddress({}, undefined)).toBe('unknown');
  });
});

describe('a dashboard route behind CloudFront', () => {
  type Route = (event: APIGatewayProxyEvent, context: unknown) => Promise<{ statusCode: number; body: string }>;
  let route: Route;

  beforeAll(async () => {
    vi.stubEnv('DASHBOARD_ORIGIN', 'https://dashboard.example');
    const { dashboardRoute } = await import('#http/dashboard-route');
    route = dashboardRoute({ access: 'public' }, async ({ origin }) => ({ data: { sourceIp: origin.sourceIp } })) as unknown as Route;
  });

  it('hands the use case the viewer, not the edge: two people on one edge are two sources', async () => {
    const from = (viewer: string) =>
      proxyEvent({ path: '/stage', headers: { Host: 'dashboard.example', 'CloudFront-Viewer-Address': viewer }, sourceIp: EDGE });

    const answers = await Promise.all(['198.51.100.4:40000', '198.51.100.5:40001'].map(async (viewer) => JSON.parse((await route(from(viewer), {})).body)));

    expect(answers.map((answer) => answer.data.sourceIp)).toEqual(['198.51.100.4', '198.51.100.5']);
  });
});
