import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ETHEREUM_WITHOUT_NODE } from '../support/deposit-settings.ts';
import { proxyEvent } from '../support/proxy-event.ts';

/**
 * GET /dashboard/api/stage as a deployed stage's dashboard API answers it, its settings from the
 * environment the stack gives it: the signed-out pages offer only what the stage allows. The local
 * runtime's answer (a sandbox that mails) is in test/integration/dashboard-api.test.ts.
 */
afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

async function stageOf(env: Record<string, string>) {
  vi.stubEnv('STAGE', env.STAGE_ENVIRONMENT!);
  vi.stubEnv('DASHBOARD_ORIGIN', 'https://dashboard.example.com');
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  const { handler } = (await import('../../functions/handlers/dashboard/get-stage.ts')) as { handler: (event: APIGatewayProxyEvent, context: unknown) => Promise<APIGatewayProxyResult> };
  const event = proxyEvent({ path: '/dashboard/api/stage', headers: { host: 'dashboard.example.com' }, sourceIp: '203.0.113.9' });
  const answer = await handler(event, {});
  return { status: answer.statusCode, data: JSON.parse(answer.body).data };
}

describe("the stage's offer to signed-out people", () => {
  it('production without mailFrom: no sign-up, no password reset by mail', async () => {
    expect(await stageOf({ STAGE_ENVIRONMENT: 'production' })).toEqual({ status: 200, data: { environment: 'production', selfSignUp: false, passwordResetByMail: false, networks: ['tron'] } });
  });

  it('production with mailFrom: the reset, still no sign-up', async () => {
    expect((await stageOf({ STAGE_ENVIRONMENT: 'production', MAIL_FROM: 'no-reply@example.com' })).data).toEqual({ environment: 'production', selfSignUp: false, passwordResetByMail: true, networks: ['tron'] });
  });

  // A new sandbox account is usable once its mailed link is followed: no mail, no sign-up.
  it('a deployed sandbox without mailFrom: no sign-up, no password reset by mail', async () => {
    expect((await stageOf({ STAGE_ENVIRONMENT: 'sandbox' })).data).toEqual({ environment: 'sandbox', selfSignUp: false, passwordResetByMail: false, networks: ['tron'] });
  });

  it('names the networks the stage opens, TRON first, for New withdrawal and the allowlist', async () => {
    const EVM_NETWORKS = JSON.stringify({ polygon: { ...ETHEREUM_WITHOUT_NODE, chainId: 137 }, ethereum: ETHEREUM_WITHOUT_NODE });
    expect((await stageOf({ STAGE_ENVIRONMENT: 'production', EVM_NETWORKS })).data.networks).toEqual(['tron', 'ethereum', 'polygon']);
  });

  it('a deployed sandbox with mailFrom: sign-up and the reset', async () => {
    expect((await stageOf({ STAGE_ENVIRONMENT: 'sandbox', MAIL_FROM: 'no-reply@example.com' })).data).toEqual({ environment: 'sandbox', selfSignUp: true, passwordResetByMail: true, networks: ['tron'] });
  });
});
