import { describe, expect, it } from 'vitest';
import { highestTierOf, stageThrottleOf } from '../../config/capacity.ts';
import { HOT_ITEMS, ITEM_LIMIT, shareOfItemLimit } from '../../config/hot-items.ts';
import { STAGES } from '../../config/stages.ts';

/** docs/capacity.md, Hot items: no item a money operation writes or checks is asked for more than
 * DynamoDB gives one item, at the most the stack lets through to it. */
describe('hot items against DynamoDB’s per-item limit', () => {
  for (const [stage, config] of Object.entries(STAGES)) {
    const companyRate = highestTierOf(config.capacity).rateLimit;
    const stageRate = stageThrottleOf(config.capacity).rateLimit;
    for (const item of HOT_ITEMS) {
      const rate = item.scope === 'company' ? companyRate : stageRate;
      it(`${stage}: ${item.item} at ${rate} operations a second is within the limit`, () => {
        expect(shareOfItemLimit(item, rate)).toBeLessThanOrEqual(1);
      });
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
});
