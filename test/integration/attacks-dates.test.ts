import { beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY_KINDS } from '#functions/companies/activity';
import { useTestApi } from '../support/local-api.ts';
import { companyItems, cookieHeader, signedUpOwner } from '../support/dashboard.ts';

/**
 * Issue #31, item 7: a date before 1970 in Activity's filters (or the statement's period) became a
 * negative time in an id bound, which ULIDs cannot hold, and the request answered 500. Every date
 * query that turns into an id bound, through a real socket: a day outside what ids can carry is
 * refused 400 on the field that holds it, and nothing is written.
 */
const api = useTestApi();

type Owner = Awaited<ReturnType<typeof signedUpOwner>>;

/** A GET as the browser sends it: the session's cookies; the body as text (an export is CSV). */
async function get(owner: Owner, path: string) {
  const cookies = cookieHeader(owner.browser.jar);
  const response = await fetch(`${owner.browser.origin}/dashboard/api/companies/${owner.companyId}${path}`, { headers: { Cookie: cookies } });
  return { status: response.status, text: await response.text() };
}

function expectRefused(answer: { status: number; text: string }, field: string) {
  expect(answer.status, answer.text).toBe(400);
  const { error } = JSON.parse(answer.text);
  expect(error.code).toBe('VALIDATION_FAILED');
  expect(error.details).toEqual([{ path: field, message: 'must be a date from 1970-01-01 to 9999-12-31' }]);
}

let owner: Owner;
let itemsBefore: unknown[];

beforeAll(async () => {
  owner = await signedUpOwner(api.runtime, 'Old Dates Co');
  itemsBefore = await companyItems(api.db, api.runtime, owner.companyId);
});

describe('Activity’s date filters', () => {
  const routes = ACTIVITY_KINDS.flatMap((kind) => [`/activity/${kind}`, `/activity/${kind}/export`]);
  const cases = routes.flatMap((route) => [
    [route, 'from', '?from=1969-12-31'],
    [route, 'to', '?to=1969-12-31'],
  ]);

  it.each(cases)('%s refuses %s before 1970 with 400 and writes nothing', async (route, field, query) => {
    expectRefused(await get(owner, `${route}${query}`), field);
    expect(await companyItems(api.db, api.runtime, owner.companyId)).toEqual(itemsBefore);
  });

  it.each(['from', 'to'])('refuses the year 0000 on %s too', async (field) => {
    expectRefused(await get(owner, `/activity/deposits?${field}=0000-01-01`), field);
  });

  it('refuses a five-digit year as no date at all', async () => {
    const answer = await get(owner, '/activity/events?to=99999-01-01');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).error.code).toBe('VALIDATION_FAILED');
  });

  it.each(routes)('%s takes the first and the last day ids can carry', async (route) => {
    const answer = await get(owner, `${route}?from=1970-01-01&to=9999-12-31`);
    expect(answer.status, answer.text).toBe(200);
  });
});

describe('the statement’s period', () => {
  it('refuses a from before 1970 with 400, before any CSV', async () => {
    expectRefused(await get(owner, '/statement?from=1969-12-31&to=1970-01-01'), 'from');
    expect(await companyItems(api.db, api.runtime, owner.companyId)).toEqual(itemsBefore);
  });
});
