import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The line .ci/run ends with (bin/count-results.mjs), from reports shaped as vitest's JSON reporter
 * writes them: the files' statuses, messages and test statuses below are what vitest 4 reported for
 * a beforeAll that threw, one that timed out, an import that failed, an afterAll that threw and an
 * error thrown outside any test.
 */
const COUNT_RESULTS = fileURLToPath(new URL('../../bin/count-results.mjs', import.meta.url));

type TestStatus = 'passed' | 'failed' | 'skipped' | 'pending' | 'todo';

function file(name: string, status: 'passed' | 'failed', tests: TestStatus[], message = '') {
  return {
    assertionResults: tests.map((testStatus, index) => ({
      ancestorTitles: [],
      fullName: `test ${index}`,
      status: testStatus,
      title: `test ${index}`,
      duration: 1,
      failureMessages: testStatus === 'failed' ? ['AssertionError'] : [],
      meta: {},
      tags: [],
    })),
    startTime: 0,
    endTime: 1,
    status,
    message,
    name: `/work/main/test/integration/${name}`,
  };
}

/** Vitest's own totals, as it computes them: what the old count added up. */
function report(files: ReturnType<typeof file>[]) {
  const tests = files.flatMap((f) => f.assertionResults);
  const failedFiles = files.filter((f) => f.status === 'failed').length;
  return {
    numTotalTestSuites: files.length,
    numPassedTestSuites: files.length - failedFiles,
    numFailedTestSuites: failedFiles,
    numPendingTestSuites: 0,
    numTotalTests: tests.length,
    numPassedTests: tests.filter((t) => t.status === 'passed').length,
    numFailedTests: tests.filter((t) => t.status === 'failed').length,
    numPendingTests: tests.filter((t) => t.status !== 'passed' && t.status !== 'failed').length,
    numTodoTests: tests.filter((t) => t.status === 'todo').length,
    snapshot: {},
    startTime: 0,
    success: failedFiles === 0,
    testResults: files,
  };
}

const passing = (count: number): TestStatus[] => Array.from({ length: count }, () => 'passed');
const skipped = (count: number): TestStatus[] => Array.from({ length: count }, () => 'skipped');

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** What .ci/run prints after `npm test` left these files and ended with this status. */
function countedLines(left: { report?: string; typecheck?: string }, exitStatus: number): string[] {
  const directory = mkdtempSync(join(tmpdir(), 'count-results-'));
  directories.push(directory);
  if (left.report !== undefined) writeFileSync(join(directory, '.test-results.json'), left.report);
  if (left.typecheck !== undefined) writeFileSync(join(directory, '.typecheck-result'), `${left.typecheck}\n`);
  const stdout = execFileSync(process.execPath, [COUNT_RESULTS, String(exitStatus)], { cwd: directory, encoding: 'utf8' });
  return stdout.trimEnd().split('\n');
}

describe('the count .ci/run ends with', () => {
  it('counts a green run, the type check as one test of its own', () => {
    const results = report([file('a.test.ts', 'passed', passing(3)), file('b.test.ts', 'passed', passing(2))]);
    expect(countedLines({ report: JSON.stringify(results), typecheck: 'passed' }, 0)).toEqual(['6 passed, 0 failed']);
  });

  it('counts every test under a beforeAll that threw or timed out as failed, though vitest reports them skipped', () => {
    const results = report([
      file('ledger.test.ts', 'passed', passing(2300)),
      file('payout-requests.test.ts', 'failed', skipped(24)),
      file('deposits.test.ts', 'failed', skipped(3), 'Hook timed out in 60000ms.'),
      file('withdrawals.test.ts', 'failed', ['passed', 'failed', 'skipped']),
    ]);
    expect(countedLines({ report: JSON.stringify(results), typecheck: 'passed' }, 1)).toEqual(['2302 passed, 29 failed']);
  });

  it('counts a file that failed to load, or whose afterAll threw, as one failure', () => {
    const results = report([
      file('ledger.test.ts', 'passed', passing(4)),
      file('broken-import.test.ts', 'failed', [], "Cannot find module './gone.ts'"),
      file('cleanup.test.ts', 'failed', passing(2), 'cleanup'),
    ]);
    expect(countedLines({ report: JSON.stringify(results), typecheck: 'passed' }, 1)).toEqual(['7 passed, 2 failed']);
  });

  it('counts one failure when the run failed with every test passed (an unhandled error)', () => {
    const results = report([file('ledger.test.ts', 'passed', passing(5))]);
    expect(countedLines({ report: JSON.stringify(results), typecheck: 'passed' }, 1)).toEqual(['6 passed, 1 failed']);
  });

  it('says how many tests were skipped in the files that passed, above the final line', () => {
    const results = report([
      file('ledger.test.ts', 'passed', ['passed', 'skipped', 'todo']),
      file('reference-page.test.ts', 'passed', ['passed', 'skipped']),
    ]);
    expect(countedLines({ report: JSON.stringify(results), typecheck: 'passed' }, 0)).toEqual(['3 skipped', '3 passed, 0 failed']);
  });

  it('counts a failed type check, and one that never ended, as one failure each', () => {
    const results = JSON.stringify(report([file('ledger.test.ts', 'passed', passing(5))]));
    expect(countedLines({ report: results, typecheck: 'failed' }, 1)).toEqual(['5 passed, 1 failed']);
    expect(countedLines({ report: results }, 1)).toEqual(['5 passed, 1 failed']);
  });

  it('counts a run that left no report, or one cut short, as failed', () => {
    expect(countedLines({ typecheck: 'passed' }, 1)).toEqual(['1 passed, 1 failed']);
    expect(countedLines({ report: '{"numTotalTests": 12, "testRes', typecheck: 'passed' }, 1)).toEqual(['1 passed, 1 failed']);
    expect(countedLines({}, 1)).toEqual(['0 passed, 2 failed']);
  });
});
