/**
 * What a generator makes of openapi.json (openapi-typescript, the Node client's generated types),
 * checked by the compiler: `npm test` type-checks this file. A deposit's `split` takes `percent`
 * or `amount`, never both (../shared/api-contract.md, Deposits), and the envelopes are named.
 */
import type { components, paths } from '../../clients/node/src/generated/openapi.ts';
import type { NetworkName } from '../../functions/networks/names.ts';

type Schemas = components['schemas'];
const address = 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui';
const deposit = { method: 'usdt', network: 'tron', reference: 'order-1' } as const;

export const byPercent: Schemas['CreateDepositRequest'] = { ...deposit, split: { address, percent: 10 } };
export const byAmount: Schemas['CreateDepositRequest'] = { ...deposit, split: { address, amount: '5' } };
// @ts-expect-error percent and amount together
export const both: Schemas['CreateDepositRequest'] = { ...deposit, split: { address, percent: 10, amount: '5' } };
// @ts-expect-error neither
export const neither: Schemas['CreateDepositRequest'] = { ...deposit, split: { address } };

/** A generated client's answer for GET /deposits/{id} is the named envelope around the record. */
type DepositAnswer = paths['/deposits/{id}']['get']['responses'][200]['content']['application/json'];
export const depositId = (answer: DepositAnswer): Schemas['DepositResponse'] => answer;
export const recordOf = (answer: Schemas['ConversionList']): Schemas['Conversion'][] => answer.data;
export const codeOf = (answer: Schemas['ErrorResponse']): Schemas['ErrorResponse']['error']['code'] => answer.error.code;

/** `network`, asked and answered, is exactly the registered networks (functions/networks/names.ts). */
type Network = Schemas['CreateWithdrawalRequest']['network'];
export const askedOn = (network: NetworkName): Network & Schemas['CreateDepositRequest']['network'] => network;
export const answeredOn = (record: Schemas['Deposit'] | Schemas['Withdrawal']): NetworkName => record.network;
