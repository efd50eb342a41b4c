import { describe, expect, it } from 'vitest';
import { DynamoSignOuts } from '#adapters/dynamo/sign-out-store';
import { readItem } from '#adapters/dynamo/queries';
import { signOutItem } from '#adapters/dynamo/items/sign-out';
import { useFreshTable } from '../support/dynamo.ts';

const env = useFreshTable();

describe('DynamoSignOuts on DynamoDB Local', () => {
  it("keeps a person's latest sign-out: an earlier one arriving late changes nothing, a later one replaces it", async () => {
    const signOuts = new DynamoSignOuts(env.db, env.tableName);
    expect(await signOuts.lastOf('person-1')).toBeNull();

    await signOuts.record({ personId: 'person-1', at: '2026-11-25T12:00:00.500Z', originJti: 'session-b' });
    await signOuts.record({ personId: 'person-1', at: '2026-11-25T11:59:59.000Z', originJti: 'session-a' });
    expect(await signOuts.lastOf('person-1')).toEqual({ personId: 'person-1', at: '2026-11-25T12:00:00.500Z', originJti: 'session-b' });

    await signOuts.record({ personId: 'person-1', at: '2026-11-25T12:05:00.000Z', originJti: null });
    expect(await signOuts.lastOf('person-1')).toEqual({ personId: 'person-1', at: '2026-11-25T12:05:00.000Z', originJti: null });
    expect(await signOuts.lastOf('person-2')).toBeNull();
  });

  it('lets DynamoDB remove the record once no session from before it can be alive (30 days and an hour later)', async () => {
    const signOuts = new DynamoSignOuts(env.db, env.tableName);
    await signOuts.record({ personId: 'person-3', at: '2026-11-25T12:00:00.000Z', originJti: 'session-c' });
    const item = await readItem(env.db, env.tableName, signOutItem.key('person-3'));
    expect(Number(item?.ttl)).toBe(Date.parse('2026-12-25T13:00:00.000Z') / 1000);
  });
});
