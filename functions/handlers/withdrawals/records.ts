import * as v from 'valibot';
import { amountOutField, idField, networkField, timeField } from '#http/fields';

/**
 * What a payout cost Cambio on its network (functions/withdrawals/withdrawals.ts NetworkCost). Its
 * coin is a string, not a list: a network added later brings its own coin, which a client's enum
 * would refuse.
 */
const networkCost = v.strictObject({
  asset: v.pipe(
    v.string(),
    v.description("The network's own coin the hot wallet paid in (its fee asset): TRX, ETH (ethereum and arbitrum), BNB, POL or SOL on today's networks"),
    v.metadata({ examples: ['TRX', 'ETH', 'SOL'] }),
  ),
  amount: v.pipe(
    v.string(),
    v.regex(/^\d+\.\d+$/),
    v.description(
      "What the hot wallet paid in the final transaction, a decimal string with all the coin's decimals (TRX: 6, SOL: 9, ETH, BNB and POL: 18): its fee (TRX burnt for the energy and bandwidth the hot wallet had not staked; gas used at its effective price), " +
        'plus the rent of the destination\'s token account when the payout created it (Solana)',
    ),
    v.metadata({ examples: ['13.844500', '0.002044280'] }),
  ),
  tokenAccountCreated: v.pipe(v.boolean(), v.description("The payout created the destination's token account (Solana), its rent included in `amount`; always false on the other networks, whose token keeps its balances itself")),
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
        "Cambio's cost, not charged to the company: the withdrawal's `fee` covers it. Null until then, for a payout that never landed (but one whose nonce another transaction filled, after the node refused it for good, shows that transaction's cost), and on withdrawals settled before their network reported it.",
    ),
  ),
  failureReason: v.nullable(v.string()),
  createdAt: timeField,
  updatedAt: timeField,
  completedAt: v.nullable(timeField),
});
