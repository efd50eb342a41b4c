import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * The API handlers' one line (functions/http/access-log.ts) names the request's X-Ray trace the way
 * Powertools' lines do (`xray_trace_id`, the Root of the trace header Lambda sets per invocation),
 * so a line leads to its trace. The module reads the log level when first imported: INFO here.
 */
process.env.LOG_LEVEL = 'INFO';
const { logRequest } = await import('#http/access-log');

const OUTCOME = { requestId: 'req-1', route: 'GET /v1/company', status: 200, code: null, latencyMs: 12, companyId: 'cmp_1', replayed: false };

function loggedLine(): Record<string, unknown> {
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  logRequest(OUTCOME);
  return JSON.parse(String(write.mock.calls[0]?.[0])) as Record<string, unknown>;
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  delete (globalThis as { awslambda?: unknown }).awslambda;
});

describe('access log trace id', () => {
  it("carries the Root of the invocation's trace header as xray_trace_id, next to the correlation id", () => {
    vi.stubEnv('_X_AMZN_TRACE_ID', 'Root=1-6740d1a2-5b3f0e4c9d8a7b6c5d4e3f2a;Parent=53995c3f42cd8ad8;Sampled=1');

    expect(loggedLine()).toMatchObject({ correlation_id: 'req-1', xray_trace_id: '1-6740d1a2-5b3f0e4c9d8a7b6c5d4e3f2a', route: 'GET /v1/company' });
  });

  it('reads the header per request, as Lambda sets it per invocation', () => {
    vi.stubEnv('_X_AMZN_TRACE_ID', 'Root=1-00000001-aaaaaaaaaaaaaaaaaaaaaaaa;Parent=1111111111111111;Sampled=0');
    const first = loggedLine();
    vi.restoreAllMocks();
    vi.stubEnv('_X_AMZN_TRACE_ID', 'Sampled=1;Root=1-00000002-bbbbbbbbbbbbbbbbbbbbbbbb;Parent=2222222222222222');
    const second = loggedLine();

    expect([first.xray_trace_id, second.xray_trace_id]).toEqual(['1-00000001-aaaaaaaaaaaaaaaaaaaaaaaa', '1-00000002-bbbbbbbbbbbbbbbbbbbbbbbb']);
  });

  it("prefers the runtime's per-invocation store when several invocations share the process", () => {
    vi.stubEnv('_X_AMZN_TRACE_ID', 'Root=1-00000001-aaaaaaaaaaaaaaaaaaaaaaaa;Sampled=1');
    (globalThis as { awslambda?: unknown }).awslambda = { InvokeStore: { getXRayTraceId: () => 'Root=1-00000003-cccccccccccccccccccccccc;Sampled=1' } };

    expect(loggedLine().xray_trace_id).toBe('1-00000003-cccccccccccccccccccccccc');
  });

  it('leaves the field out where there is no trace (the local runtime, tests)', () => {
    vi.stubEnv('_X_AMZN_TRACE_ID', undefined);

    expect(loggedLine()).not.toHaveProperty('xray_trace_id');
  });
});
