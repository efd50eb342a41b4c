import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoScreeningStore } from '#adapters/dynamo/screening-store';
import { refreshScreeningList } from '#functions/screening/screening-refresh';
import { ensureTable } from '#local/dynamodb-local';
import { jsonLines } from '../support/log-lines.ts';

/**
 * The screening refresh job (functions/handlers/jobs/screening-refresh.ts) as Lambda runs it, its
 * download pointed (SCREENING_LIST_URL) at a server on 127.0.0.1 that serves OFAC's file in OFAC's
 * schema (test/fixtures/screening/sdn_advanced.xml) in small chunks, or fails as a download can:
 * the list imported, its age published for the ScreeningListAge alarm, and a failed download or a
 * file cut short reported without touching the list.
 */
const FIXTURE = readFileSync(join(import.meta.dirname, '../fixtures/screening/sdn_advanced.xml'));
const endpoint = inject('dynamoEndpoint');
const db = createDocumentClient(endpoint);
const tableName = `test-${randomUUID()}`;
const store = new DynamoScreeningStore(db, tableName);

/** What the server answers: the file, a 500, or the file's first half and a closed connection. */
let answer: 'file' | 'error' | 'cut' = 'file';
let downloads = 0;
let server: Server;
let job: typeof import('../../functions/handlers/jobs/screening-refresh.ts');

beforeAll(async () => {
  await ensureTable(endpoint, tableName);
  server = createServer(async (request, response) => {
    downloads++;
    if (answer === 'error') return void response.writeHead(500).end('upstream down');
    response.writeHead(200, { 'Content-Type': 'application/xml' });
    const body = answer === 'cut' ? FIXTURE.subarray(0, FIXTURE.length / 2) : FIXTURE;
    for (let at = 0; at < body.length; at += 1024) {
      response.write(body.subarray(at, at + 1024));
      await new Promise((resolve) => setImmediate(resolve));
    }
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(process.env, {
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: endpoint,
    STAGE: 'local',
    SCREENING_LIST_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sdn_advanced.xml`,
    POWERTOOLS_METRICS_DISABLED: 'false',
  });
  job = await import('../../functions/handlers/jobs/screening-refresh.ts');
});

afterAll(async () => {
  db.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** One run as a schedule starts it (`event`), `hoursLater` from now: its outcome, metrics and log lines. */
async function run(event: object, hoursLater = 0) {
  const written: string[] = [];
  const capture = (chunk: unknown) => written.push(String(chunk)) > 0;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + hoursLater * 3_600_000);
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    const outcome = await job.handler(event, { awsRequestId: randomUUID() } as never);
    const lines = jsonLines(written);
    const metric = (name: string) => lines.find((line) => line._aws && name in line)?.[name];
    return { outcome, metric, errors: lines.filter((line) => line.level === 'ERROR'), warnings: lines.filter((line) => line.level === 'WARN') };
  } finally {
    vi.restoreAllMocks();
    vi.useRealTimers();
  }
}

describe('the screening refresh job', () => {
  it("imports OFAC's list at its first run, hourly or daily, on a stage that never has: age 0, no failure", async () => {
    const { outcome, metric, errors, warnings } = await run({});

    expect(outcome).toMatchObject({ refreshed: true, failure: null, summary: { added: 18, removed: 0, invalid: 2, ignored: { XBT: 2, XMR: 1 }, issuedOn: '2026-03-02' } });
    // What OFAC lists for a screened asset but is no address of its networks is not screened: each
    // one is named in the log for a person to look at.
    expect(warnings).toEqual([
      expect.objectContaining({
        message: "OFAC's list names addresses that are none of their networks': not screened",
        invalid: [expect.objectContaining({ value: '0x1234', where: 'party 990001 (ETH)' }), expect.objectContaining({ value: 'TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFh', where: 'party 990002 (TRX)' })],
      }),
    ]);
    expect(downloads).toBe(1);
    expect(metric('ScreeningListAgeHours')).toBeLessThan(0.01);
    expect(metric('ScreeningRefreshFailed')).toBe(0);
    expect(errors).toEqual([]);
    expect(await store.state()).toMatchObject({ ofacFrom: process.env.SCREENING_LIST_URL, ofacIssuedOn: '2026-03-02', ofacEntries: { tron: 2, ethereum: 4 } });
    expect((await store.entriesOf('tron')).map(({ address }) => address).sort()).toEqual(['TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFg', 'TA82wQ77kb9DieW4C8q7C4KwMfnCzfziqN']);
  });

  it('reports the age hourly without downloading, and downloads again daily ({"refresh": true})', async () => {
    const hourly = await run({}, 5);
    expect(hourly.outcome).toMatchObject({ refreshed: false, failure: null });
    expect(downloads).toBe(1);
    expect(hourly.metric('ScreeningListAgeHours')).toBeCloseTo(5, 1);
    expect(hourly.metric('ScreeningRefreshFailed')).toBeUndefined();

    const daily = await run({ refresh: true });
    expect(daily.outcome).toMatchObject({ refreshed: true, summary: { added: 0, unchanged: 18 } });
    expect(downloads).toBe(2);
    expect(daily.metric('ScreeningListAgeHours')).toBeLessThan(0.01);
  });

  it.each([
    ['OFAC answering 500', 'error' as const, /GET http:\/\/127\.0\.0\.1:\d+\/sdn_advanced\.xml answered 500/],
    ['a download cut short', 'cut' as const, /Not a well-formed XML document/],
  ])('reports %s (an ERROR line, ScreeningRefreshFailed 1) without throwing or touching the list; the age keeps growing', async (_, mode, failure) => {
    const before = await store.state();
    const entries = await store.entriesOf('ethereum');
    answer = mode;
    try {
      const { outcome, metric, errors } = await run({ refresh: true }, 30);
      expect(outcome).toMatchObject({ refreshed: false, failure: expect.stringMatching(failure) });
      expect(metric('ScreeningRefreshFailed')).toBe(1);
      expect(metric('ScreeningListAgeHours')).toBeCloseTo(30, 1);
      expect(errors).toEqual([expect.objectContaining({ message: 'screening list not refreshed', failure: expect.stringMatching(failure) })]);
    } finally {
      answer = 'file';
    }
    // The list as it was; only the failed attempt is noted beside it, for the hourly runs to retry.
    expect(await store.state()).toEqual({ ...before, lastRefreshFailure: { at: expect.any(String), from: process.env.SCREENING_LIST_URL, failure: expect.stringMatching(failure) } });
    expect(await store.entriesOf('ethereum')).toEqual(entries);
  });

  it('reports an age past the alarm’s 48 hours when the downloads have failed for that long', async () => {
    answer = 'error';
    try {
      const { outcome, metric } = await run({}, 49);
      expect(outcome).toMatchObject({ refreshed: false, failure: expect.stringContaining('answered 500') });
      expect(metric('ScreeningListAgeHours')).toBeGreaterThan(48);
    } finally {
      answer = 'file';
    }
  });

  it('retries a failed download every hour, not the next day, until one succeeds; then hourly runs only report the age again', async () => {
    const before = downloads;
    answer = 'error';
    try {
      // The daily download fails; the next hourly run, with no {"refresh": true}, downloads again and fails too.
      expect((await run({ refresh: true }, 50)).outcome).toMatchObject({ refreshed: false, failure: expect.stringContaining('answered 500') });
      const retried = await run({}, 51);
      expect(retried.outcome).toMatchObject({ refreshed: false, failure: expect.stringContaining('answered 500') });
      expect(retried.metric('ScreeningRefreshFailed')).toBe(1);
      expect(downloads).toBe(before + 2);
    } finally {
      answer = 'file';
    }

    const recovered = await run({}, 52);
    expect(recovered.outcome).toMatchObject({ refreshed: true, failure: null });
    expect(recovered.metric('ScreeningRefreshFailed')).toBe(0);
    expect(recovered.metric('ScreeningListAgeHours')).toBeLessThan(0.01);
    expect(downloads).toBe(before + 3);
    expect((await store.state()).lastRefreshFailure).toBeNull();

    const quiet = await run({}, 53);
    expect(quiet.outcome).toMatchObject({ refreshed: false, failure: null });
    expect(quiet.metric('ScreeningRefreshFailed')).toBeUndefined();
    expect(downloads).toBe(before + 3);
  });

  it('a run killed mid-download (its timeout, out of memory: nothing caught, nothing retried by Lambda) is downloaded again by the first hourly run past its timeout, not the next day', async () => {
    const before = downloads;
    // The daily run starts, then Lambda ends it while it still downloads: nothing after that point runs.
    let started!: () => void;
    const downloading = new Promise<void>((resolve) => (started = resolve));
    const startedAt = Date.now() + 60 * 3_600_000;
    void refreshScreeningList(
      store,
      { url: process.env.SCREENING_LIST_URL!, download: () => (started(), new Promise<never>(() => {})) },
      { refresh: true, actor: 'job:screening-refresh', now: () => new Date(startedAt) },
    );
    await downloading;

    // An hourly run within the timeout leaves the attempt be: it may still be under way.
    expect((await run({}, 60 + 2 / 60)).outcome).toMatchObject({ refreshed: false, failure: null });
    expect(downloads).toBe(before);

    const retried = await run({}, 61);
    expect(retried.outcome).toMatchObject({ refreshed: true, failure: null });
    expect(retried.metric('ScreeningRefreshFailed')).toBe(0);
    expect(downloads).toBe(before + 1);
    expect((await store.state()).lastRefreshFailure).toBeNull();
  });
});
