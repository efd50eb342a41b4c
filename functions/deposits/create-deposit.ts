import { createDeposit, depositView } from '#domain/deposits';
import { dynamoFromEnv } from '#adapters/runtime';
import { depositSettingsFromEnv } from '#adapters/config';
import { httpRoute } from '#http/route';
import { createDepositBody } from './schemas.ts';

const { deposits, idempotency } = dynamoFromEnv();
const settings = depositSettingsFromEnv();

export const handler = httpRoute({ body: createDepositBody, idempotency }, async ({ companyId, body }) => ({
  status: 201,
  data: depositView(
    await createDeposit(deposits, settings, companyId, {
      reference: body.reference,
      amount: body.amount,
      split: body.split && { address: body.split.address, percentBps: body.split.percent, amount: body.split.amount },
    }),
  ),
}));
