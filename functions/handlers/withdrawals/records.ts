import * as v from 'valibot';
import { amountOutField, idField, networkField, timeField } from '#http/fields';
import { NATIVE_SCALE, type NativeAsset } from '#functions/shared/money';
import { registeredNetworks } from '#functions/networks/registry';

/** Which coin each registered network pays in, in words: `` `TRX` on tron, `ETH` on ethereum and arbitrum, … ``. */
const COIN_OF_EACH_NETWORK = (() => {
  const namesByCoin = new Map<string, string[]>();
  for (const network of registeredNetworks()) namesByCoin.set(network.feeAsset.symbol, [...(namesByCoin.get(network.feeAsset.symbol) ?? []), network.name]);
  return [...namesByCoin].map(([symbol, names]) => `\`${symbol}\` on ${names.join(' and ')}`).join(', ');
})();

/** An amount of one of the coins, with all of its decimals (6, 9 or 18). */
const NATIVE_AMOUNT = new RegExp(`^\\d+\\.(?:${[...new Set(Object.values(NATIVE_SCALE))].map((decimals) => `\\d{${decimals}}`).join('|')})$`);

/** What a payout cost Cambio on its network (functions/withdrawals/withdrawals.ts NetworkCost). */
const networkCost = v.strictObject({
  asset: v.pipe(
    v.picklist(Object.keys(NATIVE_SCALE) as NativeAsset[]),
    v.description(`The network's own coin the hot wallet paid in: ${COIN_OF_EACH_NETWORK}`),
  ),
  amount: v.pipe(
    v.string(),
    v.regex(NATIVE_AMOUNT),
    v.description(
      "What the hot wallet paid in the final transaction, a decimal string with all the coin's decimals (TRX: 6, SOL: 9, ETH, BNB and POL: 18): its fee (TRX burnt for the energy and bandwidth the hot wallet had not staked; gas used at its effective price), " +
        "plus the rent of the destination's token account when the payout created it (Solana)",
    ),
    v.metadata({ examples: ['0.002044280', '13.844500'] }),
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
        "Cambio's cost, not charged to the company: the withdrawal's `fee` covers it. Null until then, for a payout that never landed, and on withdrawals settled before their network reported it.",
    ),
  ),
  failureReason: v.nullable(v.string()),
  createdAt: timeField,
  updatedAt: timeField,
  completedAt: v.nullable(timeField),
});
