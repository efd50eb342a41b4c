import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { highestTierOf, stageThrottleOf } from '../../config/capacity.ts';
import { ceilingOf, HOT_ITEMS, ITEM_LIMIT, shareOfItemLimit } from '../../config/hot-items.ts';
import { STAGES } from '../../config/stages.ts';

/** docs/capacity.md's "Not done", where a limit the stack does not hold is named. */
const notDone = readFileSync(new URL('../../docs/capacity.md', import.meta.url), 'utf8').split('## Not done')[1] ?? '';
/** Figures as docs/capacity.md writes them: 1,000. */
const written = (figure: number) => figure.toLocaleString('en-US');
const sharedRanges = HOT_ITEMS.filter((item) => item.partition !== undefined);

/** docs/capacity.md, Hot items: no item a company's money operations write or check is asked for
 * more than DynamoDB gives one item, at the most the stack lets through to it; and where every
 * company's writes meet one item or range, the model says at what rate it gives. */
describe('hot items against DynamoDB’s per-item limit', () => {
  for (const [stage, config] of Object.entries(STAGES)) {
    const companyRate = highestTierOf(config.capacity).rateLimit;
    // A method's throttle: the stage-wide items are each reached through one method (POST /v1/deposits, POST /v1/withdrawals), or by events and payments that follow from them.
    const stageRate = stageThrottleOf(config.capacity).rateLimit;
    for (const item of HOT_ITEMS) {
      const rate = item.scope === 'company' ? companyRate : stageRate;
      if (item.partition === undefined) {
        it(`${stage}: ${item.item} at ${rate} operations a second is within the limit`, () => {
          expect(shareOfItemLimit(item, rate)).toBeLessThanOrEqual(1);
        });
      } else {
        it(`${stage}: ${item.item} (${item.partition}) at ${rate} a second is within the limit, or docs/capacity.md's Not done names it and the rate at which it gives`, () => {
          if (shareOfItemLimit(item, rate) <= 1) return;
          // One line (a row of its table) names the range and the rate at which it gives.
          const named = notDone.split('\n').filter((line) => line.includes(`\`${item.partition}\``));
          expect(named.some((line) => line.includes(`${written(ceilingOf(item))} `))).toBe(true);
        });
      }
    }
  }

  it('production’s highest tier is what the shards are for: one balance item would take twice its limit', () => {
    const rate = highestTierOf(STAGES.production.capacity).rateLimit;
    expect(rate).toBe(1_000);
    // Two transactional writes of the balance per operation, on one item.
    expect((rate * 2 * 2) / ITEM_LIMIT.writeUnits).toBeGreaterThan(1);
    const balance = HOT_ITEMS.find((item) => item.item.startsWith('Balance'))!;
    expect(shareOfItemLimit(balance, rate)).toBeLessThanOrEqual(0.5);
  });

  it('the ranges every company’s writes share give at these rates a second across all companies, whatever the stage’s throttle: a deposit puts its listing in a transaction (two units), an event is marked and unmarked (two)', () => {
    expect(Object.fromEntries(sharedRanges.map((item) => [item.partition, ceilingOf(item)]))).toEqual({
      DEPOSIT_ADDRESSES: 500,
      'DEPOSITS#awaiting_payment': 1_000,
      'WITHDRAWALS#pending': 1_000,
      'EVENTS#UNDISPATCHED': 500,
      'CHAIN_TRANSFERS#confirming': 1_000,
    });
  });

  it('the sandbox’s throttle holds every shared range within the limit; production’s admits each past it, so its ceilings are the stage’s, not the throttle (Not done)', () => {
    const within = (stage: 'sandbox' | 'production') => sharedRanges.filter((item) => shareOfItemLimit(item, stageThrottleOf(STAGES[stage].capacity).rateLimit) <= 1).map((item) => item.partition);
    expect(within('sandbox')).toEqual(sharedRanges.map((item) => item.partition));
    expect(within('production')).toEqual([]);
  });
});
