import * as v from 'valibot';
import { amountField, literalField, networkField, withdrawalReferenceField } from '#http/fields';
import { addressField, addressOnItsNetwork } from '#http/address-fields';

/** POST /v1/withdrawals (../shared/api-contract.md, Withdrawals). */
export const createWithdrawalBody = v.pipe(
  v.strictObject({
    method: literalField('usdt'),
    network: networkField,
    address: addressField,
    amount: amountField('USDT'),
    reference: withdrawalReferenceField,
  }),
  addressOnItsNetwork((body) => body.address, ['address']),
);
