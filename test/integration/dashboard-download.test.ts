import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dashboardDownload } from '#http/dashboard-download';
import { SESSION_AUTHORIZER } from '#functions/routes';
import { STAGES } from '../../config/stages.ts';
import { jsonLines } from '../support/log-lines.ts';

/**
 * The streamed download every dashboard file goes through (functions/http/dashboard-download.ts),
 * through the local server's Lambda response streaming and a real socket, with routes made for the
 * test: pieces arrive while later ones are still being made, a failure after the first piece cuts
 * the connection instead of ending a short file, and a client that goes away stops the reading.
 */
let releaseSecond: () => void = () => {};
let piecesMade = 0;
let closedEarly = false;

async function* slowPieces(): AsyncGenerator<string> {
  yield 'id,reference\n';
  await new Promise<void>((resolve) => (releaseSecond = resolve));
  yield 'dep_2,second\n';
}

async function* failingPieces(): AsyncGenerator<string> {
  yield 'id,reference\n';
  throw new Error('ProvisionedThroughputExceededException on the third round');
}

async function* endlessPieces(): AsyncGenerator<string> {
  try {
    for (;;) {
      piecesMade++;
      yield `${'x'.repeat(64 * 1024)}\n`;
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    closedEarly = true;
  }
}

const members = {
  standingOf: async (companyId: string, personId: string) => ({
    membership: { companyId, personId, email: 'a@example.com', role: 'Viewer' as const, createdAt: '2026-01-01T00:00:00.000Z' },
    twoFactorRequired: false,
    twoFactorOn: false,
  }),
};
const download = (pieces: () => AsyncIterable<string>) =>
  dashboardDownload({ access: 'read', memberships: members }, async () => ({ filename: 'test.csv', contentType: 'text/csv; charset=utf-8', pieces: pieces() }));
/** Made once the local server has installed the runtime's `awslambda` streaming (createLocalApi). */
const handlers = (): Record<string, unknown> => ({
  'test/slow': download(slowPieces),
  'test/failing': download(failingPieces),
  'test/endless': download(endlessPieces),
  'test/refused': dashboardDownload({ access: 'manageKeys', memberships: members }, async () => {
    throw new Error('never reached: a Viewer may not');
  }),
  // Lets every request in as one person, as the session authorizer would after checking the cookie.
  [SESSION_AUTHORIZER.handler]: async (event: { methodArn: string }) => ({
    principalId: 'person-1',
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: `${event.methodArn.split('/')[0]}/*` }] },
    context: { personId: 'person-1' },
  }),
});

let server: Server;
let base: string;

beforeAll(async () => {
  const { createLocalApi } = await import('#local/api-server');
  let made: Record<string, unknown> | undefined;
  const route = (name: string) => ({ method: 'GET' as const, path: `/dashboard/api/companies/{companyId}/${name}`, handler: `test/${name}`, tableAccess: 'read' as const, auth: 'session' as const });
  server = await createLocalApi({
    config: STAGES.local,
    routes: [],
    dashboardRoutes: ['slow', 'failing', 'endless', 'refused'].map(route),
    loadHandler: async (name) => (made ??= handlers())[name],
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/dashboard/api/companies/cmp_1`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

const get = (name: string, init: RequestInit = {}) => fetch(`${base}/${name}`, { ...init, headers: { Cookie: 'cambio_session=x' } });

describe('a streamed download', () => {
  it('sends the head and the first piece while the next is still being made', async () => {
    const response = await get('slow');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="test.csv"');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toBe('id,reference\n');
    releaseSecond();
    let rest = '';
    for (let next = await reader.read(); !next.done; next = await reader.read()) rest += next.value;
    expect(rest).toBe('dep_2,second\n');
  });

  it('cuts the connection when a later piece fails, so the file never looks complete, and logs the cause', async () => {
    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const response = await get('failing');
      expect(response.status).toBe(200);
      await expect(response.text()).rejects.toThrow();
      await expect.poll(() => jsonLines(written).find((entry) => entry.route === 'GET /dashboard/api/companies/{companyId}/failing')).toMatchObject({
        message: 'request',
        status: 500,
        code: 'INTERNAL_ERROR',
        error: { message: 'ProvisionedThroughputExceededException on the third round' },
      });
    } finally {
      stderr.mockRestore();
    }
  });

  it('stops making pieces when the client goes away', async () => {
    const controller = new AbortController();
    const response = await get('endless', { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await expect.poll(() => closedEarly, { timeout: 5_000 }).toBe(true);
    const made = piecesMade;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(piecesMade).toBe(made);
  });

  it('answers a refused role in the envelope, with no file', async () => {
    const response = await get('refused');
    expect(response.status).toBe(403);
    expect(response.headers.get('content-disposition')).toBeNull();
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
  });
});
