import * as v from 'valibot';
import { amountField, literalField, referenceField, tronAddressField } from '#http/fields';

/** POST /v1/withdrawals (../shared/api-contract.md, Withdrawals). */
export const createWithdrawalBody = v.strictObject({
  method: literalField('usdt'),
  network: literalField('tron'),
  address: tronAddressField,
  amount: amountField('USDT'),
  reference: referenceField,
});
