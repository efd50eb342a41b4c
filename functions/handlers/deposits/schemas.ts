import * as v from 'valibot';
import { amountField, literalField, networkField, referenceField } from '#http/fields';
import { addressField, addressOnItsNetwork } from '#http/address-fields';

/** A percentage above 0 and below 100 with at most two decimals (12.5 → 1250 basis points). */
const percentField = v.pipe(
  v.number('must be a number between 0 and 100, e.g. 12.5'),
  v.metadata({ exclusiveMinimum: 0, exclusiveMaximum: 100, description: 'Percentage of every confirmed transfer, at most 2 decimals' }),
  v.check((value) => value > 0 && value < 100, 'must be greater than 0 and less than 100'),
  // Judged on the number's decimal form (the shortest that reads back as it, as the JSON wrote it),
  // not on value × 100, a binary float: a tolerance there took 99.999999999999 for 100.00 and
  // 1e-12 for 0.00, so a split below 100 % forwarded whole transfers and one above 0 nothing.
  v.check((value) => /^\d{1,2}(\.\d{1,2})?$/.test(String(value)), 'must have at most 2 decimal places'),
  v.transform((value) => Math.round(value * 100)),
);

const splitField = v.pipe(
  v.strictObject({
    address: addressField,
    percent: v.optional(percentField),
    amount: v.optional(amountField('USDT')),
  }),
  // Exactly one of the two; the OpenAPI document says it as a oneOf (patchDepositSplit in
  // functions/openapi/document.ts).
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const given = Number(dataset.value.percent !== undefined) + Number(dataset.value.amount !== undefined);
    if (given !== 1) addIssue({ message: 'must have exactly one of "percent" or "amount"' });
  }),
  // The domain's names: the percentage arrives as basis points (percentField).
  v.transform(({ address, percent, amount }) => ({ address, percentBps: percent, amount })),
);

/** POST /v1/deposits (../shared/api-contract.md, Deposits). */
export const createDepositBody = v.pipe(
  v.strictObject({
    method: literalField('usdt'),
    reference: referenceField,
    network: networkField,
    amount: v.optional(amountField('USDT')),
    split: v.optional(splitField),
  }),
  // The split's address is paid on the deposit's own network.
  addressOnItsNetwork((body) => body.split?.address, ['split', 'address']),
);
