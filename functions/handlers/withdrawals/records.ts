import * as v from 'valibot';
import { amountOutField, idField, networkField, timeField } from '#http/fields';

/** The withdrawal record (../shared/api-contract.md, Withdrawals); also the `data` of withdrawal.* events. */
export const withdrawalRecord = v.strictObject({
  id: idField('wdr'),
  method: v.literal('usdt'),
  reference: v.string(),
  network: networkField,
  address: v.string(),
  amount: amountOutField('USDT'),
  fee: v.pipe(amountOutField('USDT'), v.description('Network fee, held and spent on top of `amount`')),
  status: v.picklist(['pending', 'processing', 'completed', 'failed']),
  txHash: v.nullable(v.string()),
  deliveredAmount: v.pipe(
    v.nullable(amountOutField('USDT')),
    v.description("What the destination received per the token's Transfer event, once completed: below `amount` only when the token's issuer charges a transfer fee. Null until completed."),
  ),
  failureReason: v.nullable(v.string()),
  createdAt: timeField,
  updatedAt: timeField,
  completedAt: v.nullable(timeField),
});
