import * as v from 'valibot';
import { amountOutField, idField, networkField, timeField } from '#http/fields';
import { NETWORK_TITLES } from '#http/address-fields';

const transaction = v.strictObject({
  txHash: v.string(),
  amount: amountOutField('USDT'),
  blockNumber: v.pipe(v.number(), v.integer()),
  confirmations: v.pipe(v.number(), v.integer()),
  status: v.picklist(['confirming', 'confirmed']),
});

const split = v.strictObject({
  address: v.string(),
  percent: v.nullable(v.number()),
  amount: v.nullable(amountOutField('USDT')),
  forwardedAmount: amountOutField('USDT'),
  withdrawalId: v.nullable(idField('wdr')),
});

/** The deposit record (../shared/api-contract.md, Deposits); also the `data` of deposit.* events. */
export const depositRecord = v.strictObject({
  id: idField('dep'),
  method: v.literal('usdt'),
  reference: v.string(),
  network: networkField,
  address: v.pipe(v.string(), v.description(`The address to pay, on the deposit's network and for this deposit only: on ${NETWORK_TITLES}`)),
  amount: v.nullable(amountOutField('USDT')),
  receivedAmount: amountOutField('USDT'),
  creditedAmount: amountOutField('USDT'),
  amountStatus: v.nullable(v.picklist(['exact', 'underpaid', 'overpaid'])),
  status: v.pipe(
    v.picklist(['awaiting_payment', 'confirming', 'completed', 'expired', 'held']),
    v.description('`held`: funds arrived that cannot be credited (see `holdReason`); not in `available` until released'),
  ),
  holdReason: v.pipe(
    v.nullable(v.picklist(['address_frozen', 'sender_sanctioned'])),
    v.description(
      'Why a `held` deposit is not credited: `address_frozen` (the token\'s issuer froze the deposit address; credited once unfrozen) or ' +
        '`sender_sanctioned` (the paying address is on the sanctions list; credited only if Cambio releases it). Null otherwise.',
    ),
  ),
  confirmations: v.pipe(v.number(), v.integer()),
  requiredConfirmations: v.pipe(v.number(), v.integer()),
  transactions: v.array(transaction),
  split: v.nullable(split),
  expiresAt: timeField,
  createdAt: timeField,
  updatedAt: timeField,
});
