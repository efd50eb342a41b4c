import * as v from 'valibot';
import { amountOutField, idField, networkField, timeField } from '#http/fields';
import { NATIVE_SCALE, type NativeAsset } from '#functions/shared/money';

/** What a payout cost Cambio on its network (functions/withdrawals/withdrawals.ts NetworkCost).
 * Solana's alone for now: another network's coin comes with its own decimals in the pattern. */
const networkCost = v.strictObject({
  asset: v.pipe(v.picklist(Object.keys(NATIVE_SCALE) as NativeAsset[]), v.description("The network's own coin the hot wallet paid in: `SOL` on Solana")),
  amount: v.pipe(
    v.string(),
    v.regex(new RegExp(`^\\d+\\.\\d{${NATIVE_SCALE.SOL}}$`)),
    v.description("What the hot wallet paid, a decimal string with all the coin's decimals (SOL: 9): the transaction's fee, plus the rent of the destination's token account when the payout created it"),
    v.metadata({ examples: ['0.002044280'] }),
  ),
  tokenAccountCreated: v.pipe(v.boolean(), v.description("The payout created the destination's token account (Solana), its rent included in `amount`")),
});

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
  networkCost: v.pipe(
    v.nullable(networkCost),
    v.description(
      "What the payout cost Cambio on the network, in the network's own coin, once its transaction is final (completed, or failed after it landed: a failed transaction still pays its fee). " +
        "Cambio's cost, not charged to the company: the withdrawal's `fee` covers it. Null until then, and on networks that do not report it yet (only Solana does).",
    ),
  ),
  failureReason: v.nullable(v.string()),
  createdAt: timeField,
  updatedAt: timeField,
  completedAt: v.nullable(timeField),
});
