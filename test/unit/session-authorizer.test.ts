import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { STAGES } from '../../config/stages.ts';
import { jsonLines } from '../support/log-lines.ts';

/**
 * The dashboard's session authorizer when the sessions cannot be read (DynamoDB unreachable: here
 * a port nothing listens on): a failure, not a refusal. Answered as a refusal, every person looked
 * signed out and no alarm said why.
 */
let handler: (event: APIGatewayRequestAuthorizerEvent, context: never) => Promise<unknown>;
const written: string[] = [];
const authorizerErrors = () => jsonLines(written).filter((line) => line._aws && 'AuthorizerErrors' in line);

function request(cookie: string | undefined): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: 'arn:aws:execute-api:us-east-1:123456789012:api/local/GET/companies/co_1',
    headers: { host: 'localhost:3000', ...(cookie && { cookie }) },
    requestContext: { requestId: 'req-1' },
  } as unknown as APIGatewayRequestAuthorizerEvent;
}

beforeAll(async () => {
  for (const [name, value] of Object.entries({
    ...STAGES.local.functionEnvironment,
    STAGE: 'local',
    TABLE_NAME: 'Cambio-local-Table',
    DYNAMODB_ENDPOINT: 'http://127.0.0.1:9',
    COGNITO_USER_POOL_ID: 'local_pool',
    COGNITO_CLIENT_ID: 'local-client',
    COGNITO_ENDPOINT: 'http://127.0.0.1:9',
    COGNITO_ISSUER: 'http://127.0.0.1:9/local_pool',
    // The test run turns metrics off (test/support/global-setup.ts); this test reads them.
    POWERTOOLS_METRICS_DISABLED: 'false',
  })) vi.stubEnv(name, String(value));
  const capture = (chunk: unknown) => (written.push(String(chunk)), true);
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  ({ handler } = (await import('#functions/handlers/auth/session-authorizer')) as never);
});
afterEach(() => void (written.length = 0));
afterAll(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('the session authorizer, the sessions unreadable', () => {
  it('fails (API Gateway answers 500 AUTHORIZER_FAILURE) rather than refuse, and counts AuthorizerErrors, which the alarm watches', async () => {
    const failure = await handler(request('cambio_session=abc'), {} as never).catch((error: unknown) => error as Error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).not.toBe('Unauthorized');
    expect(authorizerErrors()).toEqual([expect.objectContaining({ AuthorizerErrors: 1, stage: 'local' })]);
  }, 30_000);

  it('still refuses a request without a session cookie, without reading, and counts no error', async () => {
    await expect(handler(request(undefined), {} as never)).rejects.toThrow('Unauthorized');
    expect(authorizerErrors()).toEqual([]);
  });
});
