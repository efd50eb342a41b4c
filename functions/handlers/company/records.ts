import * as v from 'valibot';
import { amountOutField, idField, timeField } from '#http/fields';

/** GET /v1/company (../shared/api-contract.md, Company). */
export const companyRecord = v.strictObject({
  id: idField('cmp'),
  name: v.string(),
  environment: v.picklist(['sandbox', 'production']),
  status: v.literal('active'),
  createdAt: timeField,
  rateLimit: v.pipe(
    v.strictObject({
      tier: v.pipe(v.string(), v.description('The rate limit tier the company is at: `standard` for every new company, `growth` or `scale` once Cambio raises it')),
      requestsPerSecond: v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Requests a second the company may send, steadily')),
      burst: v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Requests the company may send at once before the steady rate applies')),
    }),
    v.description("The company's own rate limit on this stage; past it, requests are answered 429 `RATE_LIMITED` with `Retry-After`"),
  ),
});

const balanceRow = <C extends 'USDT' | 'BRL'>(currency: C) =>
  v.strictObject({
    currency: v.literal(currency),
    available: v.pipe(amountOutField(currency), v.description('Spendable now')),
    pending: v.pipe(amountOutField(currency), v.description('Deposits seen on chain, not yet confirmed')),
    locked: v.pipe(amountOutField(currency), v.description('Held for withdrawals in flight')),
  });

/** GET /v1/company/balance: every currency is listed, zero when never held. */
export const balanceRecord = v.strictObject({
  balances: v.array(v.variant('currency', [balanceRow('USDT'), balanceRow('BRL')])),
  updatedAt: timeField,
});
